"""Out shapes of the related-company status collection (spec §2.10) and their shaping function."""

from __future__ import annotations

from uuid import UUID
from datetime import datetime
from typing import Any

from ninja import Field, Schema

from service.companies.references import app_url, company_ref
from service.companies.analysis.schemas import CompanyFlagTypeOut, flag_type_out
from service.screening.case_schemas import ReviewComposite, ScreeningCaseOut, case_composite_out
from service.screening.monitoring_schemas import CompanyRefOut, EntityMonitoringComposite, monitoring_composite_out
from service.screening.monitoring_selectors import monitoring_status_key
from service.screening.related_status_selectors import RelatedCompanyStatus


class RelatedCaseComposite(Schema):
    screening_case: ScreeningCaseOut
    screening_case_review_composites: list[ReviewComposite] = Field(description="Newest first")


class CompanyFlagHistoryOut(Schema):
    uuid: UUID
    company_uuid: UUID
    company_flag_type_uuid: UUID
    flag_date: datetime
    flag_end_date: datetime | None = Field(description="When the flag ended or ends; null while open-ended")
    flag_context: dict[str, Any]
    app_url: str | None


class CompanyFlagHistoryComposite(Schema):
    uuid: UUID = Field(description="The flag's uuid")
    company_flag_history: CompanyFlagHistoryOut
    company: CompanyRefOut
    company_flag_type: CompanyFlagTypeOut


class RelatedCompanyStateAggregate(Schema):
    pep_flag: bool = Field(description="Some case of the company is a PEP hit")
    sanction_flag: bool = Field(description="Some case of the company is a sanction hit")
    pep_confirmed_flag: bool = Field(description="The latest review of some case confirms a PEP")
    entity_match_decision_type_keys: list[str]
    screening_case_review_status_keys: list[str]
    active_entity_monitoring_entities_flag: bool
    pending_entity_monitoring_entities_flag: bool
    screening_case_latest_update_timestamp: datetime | None = Field(description="null without cases")
    # Extensions: what an overview of many companies needs, without reading every composite.
    active_entity_monitoring_count: int = Field(description="Extension: monitorings screened now (approved, not removed)")
    pending_entity_monitoring_count: int = Field(description="Extension: monitorings waiting for a decision")
    open_screening_case_count: int = Field(description="Extension: cases not complete (pending or ongoing)")
    open_pep_screening_case_count: int = Field(description="Extension: open cases that are PEP hits")
    open_sanction_screening_case_count: int = Field(description="Extension: open cases that are sanction hits")
    confirmed_screening_case_count: int = Field(
        description="Extension: cases closed as a confirmed hit (their latest review `confirmed_hit`, complete)")
    confirmed_pep_screening_case_count: int = Field(description="Extension: confirmed cases that are PEP hits")
    confirmed_sanction_screening_case_count: int = Field(description="Extension: confirmed cases that are sanction hits")
    latest_update_timestamp: datetime | None = Field(
        description="Extension: the newest change of the company's monitorings, decisions, cases or reviews"
    )


class RelatedCompanyStatusComposite(Schema):
    related_company: CompanyRefOut
    entity_monitoring_composites: list[EntityMonitoringComposite] = Field(description="Oldest first, removed ones too")
    screening_case_composites: list[RelatedCaseComposite] = Field(description="Newest first")
    company_flag_history_composites: list[CompanyFlagHistoryComposite] = Field(description="Newest first")
    related_company_screening_state_aggregate: RelatedCompanyStateAggregate


class RelatedCompanyStatusCollection(Schema):
    elements: list[RelatedCompanyStatusComposite]
    count: int
    has_more: bool


def _flag_composite(flag, company: dict) -> dict:
    flag_type = flag.company_flag_type
    url = app_url(f"/companies/{flag.company_id}/flags/")
    return {
        "uuid": flag.uuid,
        "company_flag_history": {
            "uuid": flag.uuid,
            "company_uuid": flag.company_id,
            "company_flag_type_uuid": flag_type.uuid,
            "flag_date": flag.flag_date,
            "flag_end_date": flag.flag_end_date,
            "flag_context": flag.flag_context,
            "app_url": url,
        },
        "company": company,
        "company_flag_type": flag_type_out(flag_type, flag.role_uuid),  # role annotated by the selector
    }


def _latest_monitoring_change(monitorings: list):
    moments = [m.update_timestamp for m in monitorings]
    moments += [m.latest_decision.decision_timestamp for m in monitorings if m.latest_decision is not None]
    return max(moments, default=None)


def _closed_as(case) -> str | None:
    """The review status a complete case was closed with (its reviews are read newest first)."""
    latest = next(iter(case.reviews.all()), None)
    return latest.screening_case_review_status.key if latest else None


def _aggregate(monitorings: list, cases: list, case_composites: list[dict]) -> dict:
    status_keys = [monitoring_status_key(m) for m in monitorings]
    statuses = set(status_keys)
    states = [c["screening_state_aggregate"] for c in case_composites]
    open_cases = [c for c in cases if c.case_status_key != "complete"]
    confirmed = [c for c in cases if c.case_status_key == "complete" and _closed_as(c) == "confirmed_hit"]
    latest_case = max((s["screening_case_latest_update_timestamp"] for s in states), default=None)
    return {
        "pep_flag": any(s["pep_flag"] for s in states),
        "sanction_flag": any(s["sanction_flag"] for s in states),
        "pep_confirmed_flag": any(s["pep_confirmed_flag"] for s in states),
        "entity_match_decision_type_keys": sorted({k for s in states for k in s["entity_match_decision_type_keys"]}),
        "screening_case_review_status_keys": sorted({k for s in states for k in s["screening_case_review_status_keys"]}),
        "active_entity_monitoring_entities_flag": "active" in statuses,
        "pending_entity_monitoring_entities_flag": "pending" in statuses,
        "screening_case_latest_update_timestamp": latest_case,
        "active_entity_monitoring_count": status_keys.count("active"),
        "pending_entity_monitoring_count": status_keys.count("pending"),
        "open_screening_case_count": len(open_cases),
        "open_pep_screening_case_count": sum(1 for c in open_cases if c.pep_flag),
        "open_sanction_screening_case_count": sum(1 for c in open_cases if c.sanction_flag),
        "confirmed_screening_case_count": len(confirmed),
        "confirmed_pep_screening_case_count": sum(1 for c in confirmed if c.pep_flag),
        "confirmed_sanction_screening_case_count": sum(1 for c in confirmed if c.sanction_flag),
        "latest_update_timestamp": max(
            (t for t in (latest_case, _latest_monitoring_change(monitorings)) if t is not None), default=None
        ),
    }


def related_company_status_out(status: RelatedCompanyStatus, *, aggregate_only: bool = False) -> dict:
    """`aggregate_only`: the company and its aggregate, the four composite arrays left empty."""
    company = company_ref(status.company)
    # The case composite's own shaping, so the aggregate follows the case collection's rules.
    cases = [case_composite_out(case, monitorings=[], monitored_flag=False) for case in status.cases]
    aggregate = _aggregate(status.monitorings, status.cases, cases)
    if aggregate_only:
        return {
            "related_company": company,
            "entity_monitoring_composites": [],
            "screening_case_composites": [],
            "company_flag_history_composites": [],
            "related_company_screening_state_aggregate": aggregate,
        }
    return {
        "related_company": company,
        "entity_monitoring_composites": [monitoring_composite_out(m) for m in status.monitorings],
        "screening_case_composites": [
            {"screening_case": c["screening_case"], "screening_case_review_composites": c["screening_case_review_composites"]}
            for c in cases
        ],
        "company_flag_history_composites": [_flag_composite(f, company) for f in status.flags],
        "related_company_screening_state_aggregate": aggregate,
    }
