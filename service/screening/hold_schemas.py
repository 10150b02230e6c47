"""In/Out shapes of legal holds on screening records (extension)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from ninja import Field, Schema

from service.screening.hold_services import REASON_MAX_LENGTH, entity_label

EntityKey = Literal["customer_person", "person", "company"]


class RecordsHoldIn(Schema):
    entity_key: EntityKey = Field(description="customer_person, person (of the register) or company")
    entity_uuid: uuid.UUID = Field(description="The customer person, person or company whose records are kept")
    reason: str = Field(..., max_length=REASON_MAX_LENGTH, description="Why they are kept: an investigation, a request, a dispute")
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="The member who places the hold (the dashboard sends its user), for the audit log"
    )


class RecordsHoldReleaseIn(Schema):
    app_membership_uuid: uuid.UUID | None = Field(None, description="The member who releases it, for the audit log")


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


def records_hold_out(hold) -> dict:
    return {
        "uuid": hold.uuid,
        "screening_config_uuid": hold.screening_config_id,
        "entity_key": hold.entity_key,
        "entity_uuid": hold.entity_uuid,
        "entity_label": entity_label(entity_key=hold.entity_key, entity_uuid=hold.entity_uuid),
        "reason": hold.reason,
        "app_membership_uuid": hold.app_membership_id,
        "app_membership_email": hold.app_membership.email if hold.app_membership else None,
        "create_timestamp": hold.create_timestamp,
        "in_force_flag": hold.in_force,
        "released_timestamp": hold.released_timestamp,
        "released_by_app_membership_uuid": hold.released_by_id,
        "released_by_app_membership_email": hold.released_by.email if hold.released_by else None,
    }
