"""In/Out shapes of entity monitorings and decisions (spec §2.9) and their shaping functions."""

from __future__ import annotations

import uuid
from datetime import date, datetime

from ninja import Field, Schema

from service.companies.references import company_ref
from service.screening.access import screening_app_url
from service.screening.monitoring_selectors import monitoring_status_key
from service.screening.screening_evidence import monitoring_screened_against, screened_against_out


class EntityMonitoringIn(Schema):
    related_company_uuid: uuid.UUID | None = Field(None, description="Only when the entity is connected to a company")
    monitoring_customer_person_uuid: uuid.UUID | None = None
    monitoring_person_uuid: uuid.UUID | None = Field(None, description="Extension: a person of the company register")
    monitoring_company_uuid: uuid.UUID | None = Field(None, description="Extension: a company, screened by its own name")
    entity_monitoring_type_uuid: uuid.UUID
    removed_flag: bool = False
    monitoring_comment: str = Field("", max_length=4000, description="Why the entity is screened")
    app_membership_uuid: uuid.UUID | None = Field(None, description="The member who asks (the dashboard sends it)")
    relationship_start_date: date | None = None
    monitoring_origin_key: str = Field("api", description="api (default) or user")


class DecisionIn(Schema):
    approved_flag: bool
    decision_comment: str = Field("", max_length=4000)
    app_membership_uuid: uuid.UUID | None = None
    decision_origin_key: str = Field("user", description="user (default) or system")


class EntityMonitoringCompositeIn(Schema):
    entity_monitoring: EntityMonitoringIn
    entity_monitoring_decision: DecisionIn | None = Field(
        None, description="With approved_flag true the monitoring starts active; without it (or false) it is pending"
    )


class DecisionPostIn(DecisionIn):
    entity_monitoring_uuid: uuid.UUID


class MonitoringPatchIn(Schema):
    removed_flag: bool = Field(..., description="true removes the monitoring (final for this row)")
    removal_reason: str = Field(..., max_length=4000, description="Why it is no longer screened")
    app_membership_uuid: uuid.UUID | None = Field(None, description="The member who removes it (the audit actor)")


class CompanyRefOut(Schema):
    uuid: uuid.UUID
    name: str
    org_nr: str
    org_nr_schema: str
    app_url: str | None


class ScreenedAgainstOut(Schema):
    screening_list_category_key: str
    screening_list_category_name: str
    list_version_uuid: uuid.UUID
    list_version_number: int
    list_version_imported_timestamp: datetime
    screened_timestamp: datetime = Field(description="when the entity was last screened against this version")


class EntityMonitoringOut(Schema):
    uuid: uuid.UUID
    screening_config_uuid: uuid.UUID
    related_company_uuid: uuid.UUID | None
    monitoring_person_uuid: uuid.UUID | None
    monitoring_customer_person_uuid: uuid.UUID | None
    monitoring_company_uuid: uuid.UUID | None
    removed_flag: bool
    app_membership_uuid: uuid.UUID | None
    monitoring_comment: str
    monitoring_origin_key: str
    create_timestamp: datetime
    monitoring_entity_uuid: uuid.UUID
    monitoring_entity_key: str = Field(description="person, customer_person or company")
    entity_monitoring_type_uuid: uuid.UUID
    relationship_start_date: date | None
    entity_inquiry_uuid: uuid.UUID | None
    entity_monitoring_reason_uuid: uuid.UUID | None
    app_url: str | None
    # extensions
    entity_monitoring_type_key: str
    monitoring_entity_name: str
    monitoring_customer_reference: str = Field(
        description="Extension: a customer person's customer reference (the organisation's number for them); empty otherwise"
    )
    related_company: CompanyRefOut | None
    removed_timestamp: datetime | None
    removal_reason: str
    screened_against: list[ScreenedAgainstOut] = Field(
        description="Extension: per list, the version the entity was last screened against and when (the evidence "
        "of screening); empty until its first screening; kept after a removal"
    )


class DecisionOut(Schema):
    uuid: uuid.UUID
    entity_monitoring_uuid: uuid.UUID
    app_membership_uuid: uuid.UUID | None
    approved_flag: bool
    decision_origin_key: str
    decision_comment: str
    decision_timestamp: datetime
    app_url: str | None


class MonitoringStatusOut(Schema):
    entity_monitoring_status_key: str = Field(description="pending, active, declined or removed")
    screened_flag: bool


class EntityMonitoringComposite(Schema):
    entity_monitoring: EntityMonitoringOut
    entity_monitoring_decision: list[DecisionOut] = Field(description="Newest first")
    entity_monitoring_status: MonitoringStatusOut = Field(description="Extension")


def _entity_name(monitoring) -> str:
    entity = monitoring.person or monitoring.customer_person
    return entity.full_name if entity else monitoring.company.name


def monitoring_out(m) -> dict:
    return {
        "uuid": m.uuid,
        "screening_config_uuid": m.screening_config_id,
        "related_company_uuid": m.related_company_id,
        "monitoring_person_uuid": m.person_id,
        "monitoring_customer_person_uuid": m.customer_person_id,
        "monitoring_company_uuid": m.company_id,
        "removed_flag": m.removed_flag,
        "app_membership_uuid": m.app_membership_id,
        "monitoring_comment": m.monitoring_comment,
        "monitoring_origin_key": m.monitoring_origin_key,
        "create_timestamp": m.create_timestamp,
        "monitoring_entity_uuid": m.entity_uuid,
        "monitoring_entity_key": m.entity_key,
        "entity_monitoring_type_uuid": m.entity_monitoring_type_id,
        "relationship_start_date": m.relationship_start_date,
        "entity_inquiry_uuid": getattr(m, "entity_inquiry_uuid", None),  # annotated by the selectors
        "entity_monitoring_reason_uuid": None,
        "app_url": screening_app_url(f"/screening/monitorings/{m.uuid}/"),
        "entity_monitoring_type_key": m.entity_monitoring_type.key,
        "monitoring_entity_name": _entity_name(m),
        "monitoring_customer_reference": m.customer_person.customer_reference if m.customer_person_id else "",
        "related_company": company_ref(m.related_company) if m.related_company else None,
        "removed_timestamp": m.removed_timestamp,
        "removal_reason": m.removal_reason,
        "screened_against": screened_against_out(monitoring_screened_against(m)),
    }


def decision_out(d) -> dict:
    return {
        "uuid": d.uuid,
        "entity_monitoring_uuid": d.entity_monitoring_id,
        "app_membership_uuid": d.app_membership_id,
        "approved_flag": d.approved_flag,
        "decision_origin_key": d.decision_origin_key,
        "decision_comment": d.decision_comment,
        "decision_timestamp": d.decision_timestamp,
        "app_url": None,
    }


def monitoring_composite_out(m) -> dict:
    decisions = sorted(m.decisions.all(), key=lambda d: (d.decision_timestamp, str(d.uuid)), reverse=True)
    status = monitoring_status_key(m)
    return {
        "entity_monitoring": monitoring_out(m),
        "entity_monitoring_decision": [decision_out(d) for d in decisions],
        "entity_monitoring_status": {"entity_monitoring_status_key": status, "screened_flag": status == "active"},
    }
