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
