"""Writing the audit log: one helper, called by each service function inside its transaction.

    audit_record(app_customer_uuid=..., actor=actor, action="watchlist.rename",
                 object_type="watchlist", object_uuid=w.uuid, object_label=w.watchlist_name,
                 before={"watchlist_name": old}, after={"watchlist_name": new})
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from service.audit.actions import ACTIONS
from service.audit.models import AuditEvent
from service.auth.models import ApiUser, AppMembership


@dataclass(frozen=True)
class Actor:
    """Who acts: the API user that called, and the person it named (the dashboard names its user)."""

    api_user_uuid: uuid.UUID | None = None
    app_membership: AppMembership | None = None


def actor_of(request: HttpRequest, app_membership: AppMembership | None = None) -> Actor:
    """The actor of an API request: its principal's API user and the member named in the request."""
    principal = getattr(request, "auth", None)
    return Actor(api_user_uuid=getattr(principal, "api_user_uuid", None), app_membership=app_membership)


def audit_event(
    *,
    app_customer_uuid: uuid.UUID,
    actor: Actor | None,
    action: str,
    object_type: str,
    object_uuid: uuid.UUID | None,
    object_label: str = "",
    before: dict | None = None,
    after: dict | None = None,
    api_user_name: str | None = None,
) -> AuditEvent:
    """The record, not yet saved (`audit_record` saves one; `audit_events_insert` many at once).
    `api_user_name`: the actor's API user's name when the caller already read it."""
    if action not in ACTIONS:
        raise ValueError(f"unknown audit action {action!r}: add it to service.audit.actions.ACTIONS")
    actor = actor or Actor()
    membership = actor.app_membership
    if api_user_name is None:
        api_user_name = actor_api_user_name(actor)
    return AuditEvent(
        app_customer_id=app_customer_uuid,
        actor_app_membership=membership,
        actor_email=membership.email if membership else "",
        actor_api_user_id=actor.api_user_uuid,
        actor_api_user_name=api_user_name,
        action_key=action,
        object_type=object_type,
        object_uuid=object_uuid,
        object_label=object_label[:300],
        before=before,
        after=after,
    )


def actor_api_user_name(actor: Actor) -> str:
    if actor.api_user_uuid is None:
        return ""
    return ApiUser.objects.filter(uuid=actor.api_user_uuid).values_list("name", flat=True).first() or ""


def audit_record(**fields) -> AuditEvent:
    """Records one act (the fields of `audit_event`)."""
    event = audit_event(**fields)
    event.save()
    return event


def audit_events_insert(events: list[AuditEvent]) -> None:
    """Records many acts of one request in a few statements (an import's), each its own record."""
    AuditEvent.objects.bulk_create(events, batch_size=1000)


def redacted(value: dict | None) -> dict | None:
    """A before/after with its values gone and its keys kept (what changed, not to what)."""
    return {key: None for key in value} if isinstance(value, dict) else None


def audit_records_redact(*, app_customer_uuid: uuid.UUID, objects: dict[str, list[uuid.UUID]]) -> int:
    """Redact the organisation's records about these objects (object type -> uuids), whose data
    is being deleted: the label emptied, before/after values nulled, the time set. The only
    change the log allows (on PostgreSQL its trigger checks exactly this shape); the number
    redacted now. Records of other object types with the same uuid (a deletion's own) stay."""
    now = timezone.now()
    about = Q(pk__in=[])
    for object_type, uuids in objects.items():
        about |= Q(object_type=object_type, object_uuid__in=uuids)
    events = AuditEvent.objects.filter(about, app_customer_id=app_customer_uuid, redacted_timestamp__isnull=True)
    count = 0
    for event_uuid, before, after in events.values_list("uuid", "before", "after"):
        # The model's queryset refuses updates; this is the one that bypasses it, on purpose.
        count += QuerySet.update(
            AuditEvent.objects.filter(uuid=event_uuid), object_label="", before=redacted(before), after=redacted(after),
            redacted_timestamp=now,
        )
    return count
