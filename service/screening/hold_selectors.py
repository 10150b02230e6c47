"""Reads of legal holds on screening records, scoped to the calling organisation."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from service.errors import not_found
from service.screening.models import ScreeningConfig, ScreeningRecordsHold


def records_holds_list(
    *, config: ScreeningConfig, entity_key: str | None = None, entity_uuid: uuid.UUID | None = None,
    in_force: bool | None = None,
) -> QuerySet[ScreeningRecordsHold]:
    """The config's holds, newest first; narrowed to one entity and to those in force or released."""
    holds = ScreeningRecordsHold.objects.filter(screening_config=config)
    if entity_key is not None:
        holds = holds.filter(entity_key=entity_key)
    if entity_uuid is not None:
        holds = holds.filter(entity_uuid=entity_uuid)
    if in_force is not None:
        holds = holds.filter(released_timestamp__isnull=in_force)
    return holds.select_related("app_membership", "released_by").order_by("-create_timestamp", "uuid")


def records_hold_get(*, app_customer_uuid: uuid.UUID, records_hold_uuid: uuid.UUID) -> ScreeningRecordsHold:
    hold = (
        ScreeningRecordsHold.objects.filter(pk=records_hold_uuid, screening_config__app_customer_id=app_customer_uuid)
        .select_related("screening_config", "app_membership", "released_by").first()
    )
    if hold is None:
        raise not_found("records hold", records_hold_uuid)
    return hold
