"""Reads of batch screening jobs, scoped to a config of the calling organisation."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from service.screening.access import found
from service.screening.models import ScreeningBatch, ScreeningConfig


def batches_list(*, config: ScreeningConfig) -> QuerySet[ScreeningBatch]:
    """The config's jobs, newest first."""
    return ScreeningBatch.objects.filter(screening_config=config).order_by("-create_timestamp", "-uuid")


def batch_get(*, config: ScreeningConfig, batch_uuid: uuid.UUID) -> ScreeningBatch:
    return found(batches_list(config=config).filter(uuid=batch_uuid), "screening batch", batch_uuid)


def batches_pending_uuids(*, untouched_since) -> list[uuid.UUID]:
    """Jobs that no worker started and untouched since then: their message a broker outage may
    have lost (a started job's message is the broker's to hand out again)."""
    return list(
        ScreeningBatch.objects.filter(status=ScreeningBatch.Status.PENDING, update_timestamp__lt=untouched_since)
        .order_by("create_timestamp", "uuid").values_list("uuid", flat=True)
    )
