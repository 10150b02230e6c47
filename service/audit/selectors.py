"""Reading the audit log, always of the calling organisation only, newest first; records of screening
actions only for a caller granted `aml`, of national ids also `person_national_identification`
(actions.ACTION_ROLES)."""

from __future__ import annotations

import uuid
from datetime import date, datetime, time, timedelta

from django.db.models import QuerySet
from django.utils import timezone

from service.audit.actions import ACTION_ROLES, ACTIONS
from service.audit.models import AuditEvent
from service.errors import bad_field


def audit_action_keys_parse(raw: str | None) -> list[str] | None:
    """`watchlist.rename,api_user.create` -> the keys; an unknown key is a 400 naming the parameter."""
    if raw is None or not raw.strip():
        return None
    keys = [k.strip() for k in raw.split(",") if k.strip()]
    unknown = [k for k in keys if k not in ACTIONS]
    if unknown:
        raise bad_field(["query", "action_key"], f"unknown action {', '.join(unknown)}")
    return keys


def audit_events_list(
    *,
    app_customer_uuid: uuid.UUID,
    granted_roles: frozenset[str],
    action_keys: list[str] | None = None,
    actor_app_membership_uuid: uuid.UUID | None = None,
    actor_api_user_uuid: uuid.UUID | None = None,
    object_type: str | None = None,
    object_uuid: uuid.UUID | None = None,
    created_from: date | None = None,
    created_to: date | None = None,
) -> QuerySet[AuditEvent]:
    """The organisation's records; those of actions behind roles the caller lacks (ACTION_ROLES) are left out.
    `created_from` / `created_to`: days in the service's time zone, both included."""
    hidden = [key for key, roles in ACTION_ROLES.items() if not roles <= granted_roles]
    queryset = AuditEvent.objects.filter(app_customer_id=app_customer_uuid).exclude(action_key__in=hidden)
    if action_keys:
        queryset = queryset.filter(action_key__in=action_keys)
    if actor_app_membership_uuid is not None:
        queryset = queryset.filter(actor_app_membership_id=actor_app_membership_uuid)
    if actor_api_user_uuid is not None:
        queryset = queryset.filter(actor_api_user_id=actor_api_user_uuid)
    if object_type:
        queryset = queryset.filter(object_type=object_type)
    if object_uuid is not None:
        queryset = queryset.filter(object_uuid=object_uuid)
    if created_from is not None and created_to is not None and created_from > created_to:
        raise bad_field(["query", "created_to"], f"{created_to.isoformat()} is before created_from {created_from.isoformat()}")
    if created_from is not None:
        queryset = queryset.filter(created_timestamp__gte=_day_start(created_from))
    if created_to is not None:
        queryset = queryset.filter(created_timestamp__lt=_day_start(created_to + timedelta(days=1)))
    return queryset


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))
