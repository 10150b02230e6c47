"""In/Out shapes of legal holds on screening records (extension)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from ninja import Field, Schema

from service.screening.hold_services import REASON_MAX_LENGTH, entity_label
from service.screening.records_retention import retained_until

EntityKey = Literal["customer_person", "person", "company"]


class RecordsHoldIn(Schema):
    entity_key: EntityKey = Field(description="customer_person, person (of the register) or company")
    entity_uuid: uuid.UUID = Field(description="The customer person, person or company whose records are kept")
    reason: str = Field(..., max_length=REASON_MAX_LENGTH, description="Why they are kept: an investigation, a request, a dispute")
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="The member who places the hold (the dashboard sends its user), for the audit log"
    )


class RecordsHoldReleaseIn(Schema):
    release_reason: str = Field(..., max_length=REASON_MAX_LENGTH, description="Why the records need not be kept any longer")
    app_membership_uuid: uuid.UUID | None = Field(None, description="The member who releases it, for the audit log")
    confirm_request_flag: bool | None = Field(
        None,
        description="Under four-eyes review, which the caller means: false asks for the release (a 400 "
        "`release_already_requested` when another member asked meanwhile), true confirms the request waiting (a 400 "
        "`no_release_requested` when it was withdrawn or turned down meanwhile); absent, whichever applies. Without "
        "four-eyes review a call releases the hold either way.",
    )


class RecordsHoldOut(Schema):
    uuid: uuid.UUID
    screening_config_uuid: uuid.UUID
    entity_key: str
    entity_uuid: uuid.UUID
    entity_label: str = Field(description="The person's or company's name")
    reason: str
    app_membership_uuid: uuid.UUID | None
    app_membership_email: str | None = Field(description="Who placed it")
    create_timestamp: datetime
    in_force_flag: bool = Field(description="true until released: the records are not deleted")
    released_timestamp: datetime | None
    released_by_app_membership_uuid: uuid.UUID | None
    released_by_app_membership_email: str | None
    release_reason: str
    four_eyes_release_flag: bool = Field(
        description="The config's four-eyes review is on: a release is asked for by one member and confirmed by another"
    )
    release_requested_timestamp: datetime | None = Field(description="When a release was asked for (four-eyes)")
    release_requested_by_app_membership_uuid: uuid.UUID | None
    release_requested_by_app_membership_email: str | None = Field(description="Who asked: another member confirms")
    release_request_reason: str


class RecordsHoldKeepIn(Schema):
    keep_reason: str = Field(..., max_length=REASON_MAX_LENGTH, description="Why the records are still needed")
    app_membership_uuid: uuid.UUID | None = Field(None, description="The member who keeps the hold, for the audit log")


def records_hold_out(hold, *, label: str | None = None) -> dict:
    """`label`: the entity's name when already looked up (a list's, in bulk)."""
    return {
        "uuid": hold.uuid,
        "screening_config_uuid": hold.screening_config_id,
        "entity_key": hold.entity_key,
        "entity_uuid": hold.entity_uuid,
        "entity_label": entity_label(entity_key=hold.entity_key, entity_uuid=hold.entity_uuid) if label is None else label,
        "reason": hold.reason,
        "app_membership_uuid": hold.app_membership_id,
        "app_membership_email": hold.app_membership.email if hold.app_membership else None,
        "create_timestamp": hold.create_timestamp,
        "in_force_flag": hold.in_force,
        "released_timestamp": hold.released_timestamp,
        "released_by_app_membership_uuid": hold.released_by_id,
        "released_by_app_membership_email": hold.released_by.email if hold.released_by else None,
        "release_reason": hold.release_reason,
        "four_eyes_release_flag": hold.screening_config.four_eyes_review_flag,
        "release_requested_timestamp": hold.release_requested_timestamp,
        "release_requested_by_app_membership_uuid": hold.release_requested_by_id,
        "release_requested_by_app_membership_email": hold.release_requested_by.email if hold.release_requested_by else None,
        "release_request_reason": hold.release_request_reason,
    }


class EntityRecordsQuery(Schema):
    entity_key: EntityKey
    entity_uuid: uuid.UUID


class EntityRecordsOut(Schema):
    entity_key: str
    entity_uuid: uuid.UUID
    entity_label: str
    relationship_ended_timestamp: datetime | None = Field(
        description="When the last monitoring that counts was removed (the entity's own, and those of every company "
        "it is monitored for); a customer person never monitored: when it was added; null while one is not removed"
    )
    retained_until: datetime | None = Field(
        description="When its screening records in the config are deleted (the config's retention period, "
        "effective_records_retention_years, after relationship_ended_timestamp); null while monitored, while held, "
        "or when nothing is deleted by age"
    )
    records_held_flag: bool = Field(description="A hold in force keeps the records (its own, or its company's)")
    records_hold: RecordsHoldOut | None = Field(description="The hold in force on the entity itself, if any")
    company_records_holds: list[RecordsHoldOut] = Field(
        description="The holds in force on companies the entity is monitored for, which keep its records too"
    )


def entity_records_out(records, hold, company_holds) -> dict:
    return {
        "entity_key": records.entity_key,
        "entity_uuid": records.entity_uuid,
        "entity_label": entity_label(entity_key=records.entity_key, entity_uuid=records.entity_uuid),
        "relationship_ended_timestamp": records.relationship_ended,
        "retained_until": retained_until(records.relationship_ended, years=records.retention_years, held=records.held),
        "records_held_flag": records.held,
        "records_hold": records_hold_out(hold) if hold else None,
        "company_records_holds": [records_hold_out(company_hold) for company_hold in company_holds],
    }
