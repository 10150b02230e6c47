"""In/Out shapes of screening cases and reviews (spec §2.10) and their shaping functions.

Beside the spec's keys, a composite carries `screening_case_match` (extension): the list
entry as listed (names, birth dates, nationalities, programme, source) and the engine's
score with its explanation, so a reviewer sees both sides of the match.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime

from ninja import Field, Schema

from service.companies.references import company_ref
from service.screening.access import screening_app_url
from service.screening.monitoring_schemas import CompanyRefOut
from service.screening.person_schemas import CustomerPersonOut, customer_person_out


class ScreeningCaseOut(Schema):
    uuid: uuid.UUID
    grid_alert_uuid: uuid.UUID | None
    entity_inquiry_uuid: uuid.UUID
    assignee_app_membership_uuid: uuid.UUID | None
    screening_config_uuid: uuid.UUID
    created_timestamp: datetime
    screening_case_report_uuid: uuid.UUID | None
    pep_flag: bool
    sanction_flag: bool
    app_url: str | None
    screening_case_status_key: str = Field(description="Extension: pending, ongoing or complete")
    previous_screening_case_uuid: uuid.UUID | None = Field(
        description="Extension: the false positive this case raises again because its list entry changed since"
    )


class EntityInquiryOut(Schema):
    uuid: uuid.UUID
    screening_config_uuid: uuid.UUID
    grid_inquiry_uuid: uuid.UUID | None
    inquiry_person_uuid: uuid.UUID | None
    inquiry_customer_person_uuid: uuid.UUID | None
    inquiry_company_uuid: uuid.UUID | None
    inquiry_entity_uuid: uuid.UUID
    inquiry_entity_key: str = Field(description="person, customer_person or company")
    monitored_flag: bool = Field(description="The entity is screened now: a monitoring not removed with an approving decision")
    app_url: str | None


class MonitoringPersonOut(Schema):
    uuid: uuid.UUID
    full_name: str
    birth_date: date | None
    nationality: str
    gender: str


class ReviewOut(Schema):
    uuid: uuid.UUID
    screening_case_uuid: uuid.UUID
    reviewer_app_membership_uuid: uuid.UUID | None
    screening_case_review_status_uuid: uuid.UUID
    entity_match_decision_type_uuid: uuid.UUID
    created_timestamp: datetime
    screening_case_review_comment: str
    save_timestamp: datetime
    complete_timestamp: datetime | None
    pep_confirmed_flag: bool
    app_url: str | None


class ReviewStatusOut(Schema):
    uuid: uuid.UUID
    screening_case_review_status_key: str
    app_url: str | None


class MatchDecisionTypeOut(Schema):
    uuid: uuid.UUID
    entity_match_decision_type_key: str
    app_url: str | None


class ReviewComposite(Schema):
    screening_case_review: ReviewOut
    screening_case_review_status: ReviewStatusOut
    entity_match_decision_type: MatchDecisionTypeOut
    screening_case_reviewer_email: str | None


class StateAggregateOut(Schema):
    pep_flag: bool
    sanction_flag: bool
    pep_confirmed_flag: bool
    entity_match_decision_type_keys: list[str]
    screening_case_review_status_keys: list[str]
    screening_case_latest_update_timestamp: datetime


class ListEntryOut(Schema):
    uuid: uuid.UUID
    screening_list_category_key: str
    screening_list_type_key: str = Field(description="pep or sanction")
    list_version_number: int
    source_id: str
    schema_key: str = Field(description="Person, Organization or LegalEntity")
    primary_name: str
    names: list[dict] = Field(description="[{name, quality, kind}]")
    birth_dates: list[str]
    nationalities: list[str]
    gender: str
    identifiers: list[dict] = Field(
        description="[{kind, value, country}]: passports, national ids, registration numbers as the list gives them "
        "(kind passport, national_id, tax_id, registration, imo, mmsi, bic or other; country ISO 3166-1 alpha-2 or null)")
    addresses: list[str] = Field(description="The addresses the list gives, each on one line")
    positions: list[str] = Field(description="A PEP's public functions, as the list names them (\"United States senator\")")
    programmes: list[str]
    listed_date: str
    source_url: str
    remarks: str
    content_hash: str


class CaseMatchOut(Schema):
    list_entry: ListEntryOut
    score: float
    explanation: dict = Field(description="The engine's explanation: aligned name parts, birth date, nationality, gender")
    explanation_summary: str


class ScreeningCaseComposite(Schema):
    screening_case: ScreeningCaseOut
    entity_inquiry: EntityInquiryOut
    related_companies: list[CompanyRefOut]
    monitoring_person: MonitoringPersonOut | None
    monitoring_customer_person: CustomerPersonOut | None
    monitoring_company: CompanyRefOut | None
    screening_case_review_composites: list[ReviewComposite] = Field(description="Newest first")
    screening_state_aggregate: StateAggregateOut
    screening_case_match: CaseMatchOut = Field(description="Extension: the list entry and the score with its explanation")


class ScreeningCaseCollection(Schema):
    elements: list[ScreeningCaseComposite]
    count: int
    has_more: bool


class ReviewFields(Schema):
    """What a review says, for one case (ReviewIn) or several (ReviewBatchIn)."""

    pep_confirmed_flag: bool = False
    screening_case_review_status_uuid: uuid.UUID
    reviewer_app_membership_uuid: uuid.UUID
    entity_match_decision_type_uuid: uuid.UUID
    screening_case_review_comment: str = ""


class ReviewIn(ReviewFields):
    screening_case_uuid: uuid.UUID


BATCH_MAX = 100  # cases in one batch review or assignment: a queue page's worth


class ReviewBatchIn(ReviewFields):
    screening_case_uuids: list[uuid.UUID] = Field(
        min_length=1, max_length=BATCH_MAX, description=f"the cases to review, 1 to {BATCH_MAX}, each once"
    )


class AssignmentBatchIn(Schema):
    screening_case_uuids: list[uuid.UUID] = Field(
        min_length=1, max_length=BATCH_MAX, description=f"the cases to assign, 1 to {BATCH_MAX}, each once"
    )
    assignee_app_membership_uuid: uuid.UUID | None = Field(
        None, description="an active member of the calling organisation; null unassigns (required)"
    )
    app_membership_uuid: uuid.UUID | None = Field(None, description="who assigns, for the audit log")


class ReviewStatusLookupOut(Schema):
    uuid: uuid.UUID
    screening_case_review_status_key: str
    description: str


class MatchDecisionTypeLookupOut(Schema):
    uuid: uuid.UUID
    entity_match_decision_type_key: str
    description: str


def review_composite_out(review) -> dict:
    status, decision = review.screening_case_review_status, review.entity_match_decision_type
    reviewer = review.reviewer_app_membership
    return {
        "screening_case_review": {
            "uuid": review.uuid,
            "screening_case_uuid": review.screening_case_id,
            "reviewer_app_membership_uuid": review.reviewer_app_membership_id,
            "screening_case_review_status_uuid": status.uuid,
            "entity_match_decision_type_uuid": decision.uuid,
            "created_timestamp": review.created_timestamp,
            "screening_case_review_comment": review.screening_case_review_comment,
            "save_timestamp": review.save_timestamp,
            "complete_timestamp": review.complete_timestamp,
            "pep_confirmed_flag": review.pep_confirmed_flag,
            "app_url": None,
        },
        "screening_case_review_status": {"uuid": status.uuid, "screening_case_review_status_key": status.key, "app_url": None},
        "entity_match_decision_type": {"uuid": decision.uuid, "entity_match_decision_type_key": decision.key, "app_url": None},
        "screening_case_reviewer_email": reviewer.email if reviewer else None,
    }


def _list_entry_out(entry) -> dict:
    category = entry.version.category
    return {
        "uuid": entry.uuid,
        "screening_list_category_key": category.key,
        "screening_list_type_key": category.list_type,
        "list_version_number": entry.version.number,
        "source_id": entry.source_id,
        "schema_key": entry.schema,
        "primary_name": entry.primary_name,
        "names": entry.names,
        "birth_dates": entry.birth_dates,
        "nationalities": entry.nationalities,
        "gender": entry.gender,
        "identifiers": entry.identifiers,
        "addresses": entry.addresses,
        "positions": entry.positions,
        "programmes": entry.programmes,
        "listed_date": entry.listed_date,
        "source_url": entry.source_url,
        "remarks": entry.remarks,
        "content_hash": entry.content_hash,
    }


def _state_aggregate(case, reviews: list) -> dict:
    latest = reviews[0] if reviews else None
    return {
        "pep_flag": case.pep_flag,
        "sanction_flag": case.sanction_flag,
        "pep_confirmed_flag": bool(latest and latest.pep_confirmed_flag),
        "entity_match_decision_type_keys": sorted({r.entity_match_decision_type.key for r in reviews}),
        "screening_case_review_status_keys": sorted({r.screening_case_review_status.key for r in reviews}),
        "screening_case_latest_update_timestamp": max([case.update_timestamp, *(r.save_timestamp for r in reviews)]),
    }


def case_composite_out(case, *, monitorings: list, monitored_flag: bool) -> dict:
    """`monitorings`: the config's monitorings of the case's entity that are not removed."""
    inquiry = case.entity_inquiry
    reviews = list(case.reviews.all())  # prefetched newest first
    person = inquiry.person
    related = {m.related_company_id: m.related_company for m in monitorings if m.related_company_id}
    return {
        "screening_case": {
            "uuid": case.uuid,
            "grid_alert_uuid": None,
            "entity_inquiry_uuid": inquiry.uuid,
            "assignee_app_membership_uuid": case.assignee_app_membership_id,
            "screening_config_uuid": case.screening_config_id,
            "created_timestamp": case.created_timestamp,
            "screening_case_report_uuid": None,
            "pep_flag": case.pep_flag,
            "sanction_flag": case.sanction_flag,
            "app_url": screening_app_url(f"/screening/cases/{case.uuid}/"),
            "screening_case_status_key": case.case_status_key,
            "previous_screening_case_uuid": case.previous_case_id,
        },
        "entity_inquiry": {
            "uuid": inquiry.uuid,
            "screening_config_uuid": inquiry.screening_config_id,
            "grid_inquiry_uuid": None,
            "inquiry_person_uuid": inquiry.person_id,
            "inquiry_customer_person_uuid": inquiry.customer_person_id,
            "inquiry_company_uuid": inquiry.company_id,
            "inquiry_entity_uuid": inquiry.inquiry_entity_uuid,
            "inquiry_entity_key": inquiry.inquiry_entity_key,
            "monitored_flag": monitored_flag,
            "app_url": None,
        },
        "related_companies": [company_ref(c) for c in related.values()],
        "monitoring_person": (
            {
                "uuid": person.uuid,
                "full_name": person.full_name,
                "birth_date": person.birth_date,
                "nationality": person.nationality,
                "gender": person.gender,
            }
            if person
            else None
        ),
        "monitoring_customer_person": customer_person_out(inquiry.customer_person) if inquiry.customer_person else None,
        "monitoring_company": company_ref(inquiry.company) if inquiry.company else None,
        "screening_case_review_composites": [review_composite_out(r) for r in reviews],
        "screening_state_aggregate": _state_aggregate(case, reviews),
        "screening_case_match": {
            "list_entry": _list_entry_out(case.list_entry),
            "score": case.score,
            "explanation": case.explanation,
            "explanation_summary": case.explanation_summary,
        },
    }
