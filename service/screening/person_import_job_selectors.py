"""Reads of customer person import jobs, scoped to a config of the calling organisation."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from service.screening.access import found
from service.screening.models import CustomerPersonImportJob, ScreeningConfig


def import_jobs_list(*, config: ScreeningConfig) -> QuerySet[CustomerPersonImportJob]:
    """The config's import jobs, newest first."""
    return CustomerPersonImportJob.objects.filter(screening_config=config).order_by("-create_timestamp", "-uuid")


def import_job_get(*, config: ScreeningConfig, job_uuid: uuid.UUID) -> CustomerPersonImportJob:
    return found(import_jobs_list(config=config).filter(uuid=job_uuid), "customer person import job", job_uuid)


def import_jobs_pending_uuids(*, untouched_since) -> list[uuid.UUID]:
    """Jobs no worker started and untouched since then: their message a broker outage may have lost
    (a started job's message is the broker's to hand out again)."""
    return list(
        CustomerPersonImportJob.objects.filter(status=CustomerPersonImportJob.Status.PENDING, update_timestamp__lt=untouched_since)
        .order_by("create_timestamp", "uuid").values_list("uuid", flat=True)
    )
