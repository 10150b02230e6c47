"""The audit log endpoint (extension): an organisation's audit events, newest first.
Needs the `app_admin` role; only the calling organisation's events are ever read."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from service.audit.actions import ACTIONS
from service.audit.selectors import audit_action_keys_parse, audit_events_list
from service.audit.subjects import audit_event_subjects
from service.auth.principal import require_roles
from service.pagination import collection, page_from
from vakt_format.national_ids import national_ids_masked_in

router = Router(tags=["Extensions"])
ADMIN_ROLE = "app_admin"
NATIONAL_ID_ROLE = "person_national_identification"


class AuditEventOut(Schema):
    uuid: uuid.UUID
    app_customer_uuid: uuid.UUID
    action_key: str
    action_description: str = Field(description="The action in words")
    actor_app_membership_uuid: uuid.UUID | None
    actor_email: str = Field(description="The member who acted, as their email was then ('' when none was named)")
    actor_api_user_uuid: uuid.UUID | None
    actor_api_user_name: str
    object_type: str
    object_uuid: uuid.UUID | None
    object_label: str
    before: Any = Field(None, description="The changed fields before the change (null for a creation)")
    after: Any = Field(None, description="The changed fields after the change (null for a deletion)")
    created_timestamp: datetime
    subject_type: str | None = Field(
        None,
        description=(
            "Extension: where the object is seen while it exists: the object itself (watchlist, screening_case, "
            "screening_config, screening_batch, entity_monitoring, customer_person, api_user, app_membership), a "
            "record hold's subject (customer_person, company, register_person), deleted screening records' company. "
            "Null once the object is gone"
        ),
        json_schema_extra={"x-vakt-extension": True},
    )
    subject_uuid: uuid.UUID | None = Field(None, json_schema_extra={"x-vakt-extension": True})
    redacted_timestamp: datetime | None = Field(
        None,
        description=(
            "When the label and the values of before/after were removed, because the data they were about was "
            "deleted (screening records at the end of their retention period, a batch job at a member's request or "
            "after its retention period); the keys stay: which fields changed. Null if never"
        ),
    )


class AuditEventCollection(Schema):
    elements: list[AuditEventOut]
    count: int
    has_more: bool


class AuditQuery(Schema):
    limit: int | None = None
    offset: int | None = None
    action_key: str | None = Field(None, description="A comma list of action keys")
    actor_app_membership_uuid: uuid.UUID | None = None
    actor_api_user_uuid: uuid.UUID | None = None
    object_type: str | None = None
    object_uuid: uuid.UUID | None = None
    created_from: date | None = Field(None, description="Records made on or after this day (Europe/Oslo)")
    created_to: date | None = Field(None, description="Records made on or before this day (Europe/Oslo)")


def _national_ids_masked(value):
    """The strings of a recorded value with any national id typed into them masked, for a caller
    without person_national_identification (the service itself records none: a member may type one)."""
    if isinstance(value, str):
        return national_ids_masked_in(value)
    if isinstance(value, dict):
        return {key: _national_ids_masked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_national_ids_masked(item) for item in value]
    return value


def audit_event_out(event, subject: tuple[str, uuid.UUID] | None = None, *, national_ids_shown: bool = True) -> dict:
    subject_type, subject_uuid = subject or (None, None)
    shown = (lambda value: value) if national_ids_shown else _national_ids_masked
    return {
        "uuid": event.uuid,
        "app_customer_uuid": event.app_customer_id,
        "action_key": event.action_key,
        "action_description": ACTIONS.get(event.action_key, event.action_key),
        "actor_app_membership_uuid": event.actor_app_membership_id,
        "actor_email": event.actor_email,
        "actor_api_user_uuid": event.actor_api_user_id,
        "actor_api_user_name": event.actor_api_user_name,
        "object_type": event.object_type,
        "object_uuid": event.object_uuid,
        "object_label": shown(event.object_label),
        "before": shown(event.before),
        "after": shown(event.after),
        "created_timestamp": event.created_timestamp,
        "redacted_timestamp": event.redacted_timestamp,
        "subject_type": subject_type,
        "subject_uuid": subject_uuid,
    }


@router.get(
    "/app-customer/{app_customer_uuid}/audit-event",
    response=list[AuditEventCollection],
    summary="Extension: the organisation's audit log",
    description=(
        "Who changed what: case reviews and assignments, monitoring decisions and removals, screening setup, "
        "watchlists, API users and members, each with its actor and the changed fields before and after. "
        "Newest first; `limit` (default 100, at most 1000) and `offset`. Filters: `action_key` (comma list), "
        "`actor_app_membership_uuid`, `actor_api_user_uuid`, `object_type`, `object_uuid`, and the days "
        "`created_from` and `created_to` (YYYY-MM-DD, Europe/Oslo, both included). Records are "
        "append-only: no endpoint changes or deletes them (the records of screening data deleted at the end of its retention "
        "period are redacted: `redacted_timestamp`). Needs the `app_admin` role; the records of "
        "screening actions (cases, monitorings, the screening setup, customer persons) are listed only with `aml`, "
        "a national id's addition only with `person_national_identification` as well. Without that role, a "
        "number written as a Nordic national id in a label or a changed value (typed into a reason or a comment) "
        "is masked to its birth-date digits (`151086*****`)."
    ),
    openapi_extra={"x-vakt-extension": True},
)
def audit_event_collection(request: HttpRequest, app_customer_uuid: uuid.UUID, query: Query[AuditQuery]):
    principal = require_roles(request, ADMIN_ROLE)
    customer = principal.own_app_customer(app_customer_uuid)
    page = page_from(query.limit, query.offset)
    events = audit_events_list(
        app_customer_uuid=customer,
        granted_roles=principal.granted_roles,
        action_keys=audit_action_keys_parse(query.action_key),
        actor_app_membership_uuid=query.actor_app_membership_uuid,
        actor_api_user_uuid=query.actor_api_user_uuid,
        object_type=query.object_type,
        object_uuid=query.object_uuid,
        created_from=query.created_from,
        created_to=query.created_to,
    )
    ordered = events.order_by("-created_timestamp", "-uuid")
    rows = list(ordered[page.offset : page.offset + page.limit])
    subjects = audit_event_subjects(rows)
    shown = NATIONAL_ID_ROLE in principal.granted_roles
    return collection(
        [audit_event_out(e, subjects.get(e.uuid), national_ids_shown=shown) for e in rows], count=ordered.count(), page=page
    )
