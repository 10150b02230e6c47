"""Out schema of batch screening jobs (batch_api.py)."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.http import HttpRequest
from ninja import Field, Schema

from service.screening.batch_services import batch_retained_until
from service.screening.models import ScreeningBatch
from service.screening.monitoring_schemas import ScreenedAgainstOut
from service.screening.screening_evidence import evidence_out


class ScreeningBatchOut(Schema):
    uuid: uuid.UUID
    screening_config_uuid: uuid.UUID
    file_name: str = Field(description="the uploaded file's name; empty once the job is deleted")
    app_membership_uuid: uuid.UUID | None = Field(description="the member who uploaded it (`app_membership_uuid` of the upload); null when none was named")
    screening_batch_status_key: str = Field(description="pending, running, complete, failed or deleted (its file and result removed)")
    rows_total: int = Field(description="rows of the file to screen")
    rows_done: int = Field(description="rows screened so far")
    rows_with_hits_count: int
    hit_count: int = Field(description="hits in the result, at most 3 per row")
    failure_reason: str | None
    create_timestamp: datetime
    update_timestamp: datetime
    complete_timestamp: datetime | None
    result_url: str | None = Field(description="the result as CSV, once complete (add ?response_file_type=json for JSON)")
    screened_against: list[ScreenedAgainstOut] = Field(
        description="the list versions the rows were screened against (PEP lists first), once complete; a list "
        "twice only when a resumed job went on after the list's update")
    retained_until: datetime | None = Field(
        description="when the file and its result are deleted (`VAKT_BATCH_RETENTION_DAYS` after the upload); "
        "null once deleted, or when they are kept until deleted")
    deleted_timestamp: datetime | None = Field(description="when the file and its result were deleted")
    deletion_reason_key: str | None = Field(
        description="why they were deleted: `request` (a DELETE) or `retention` (the retention period ended)")


class ScreeningBatchCollection(Schema):
    elements: list[ScreeningBatchOut]
    count: int
    has_more: bool


def batch_result_path(batch: ScreeningBatch) -> str:
    return f"/analysis/v1/screening-config/{batch.screening_config_id}/screening-batch/{batch.uuid}/result"


def _absolute(request: HttpRequest, path: str) -> str:
    """Under the deployment's public base URL when set (as token audiences are), else the request's host."""
    return f"{settings.VAKT_BASE_URL}{path}" if settings.VAKT_BASE_URL else request.build_absolute_uri(path)


def batch_out(request: HttpRequest, batch: ScreeningBatch) -> dict:
    complete = batch.status == ScreeningBatch.Status.COMPLETE
    return {
        "uuid": batch.uuid,
        "screening_config_uuid": batch.screening_config_id,
        "file_name": batch.file_name,
        "app_membership_uuid": batch.app_membership_id,
        "screening_batch_status_key": batch.status,
        "rows_total": batch.rows_total,
        "rows_done": batch.rows_done,
        "rows_with_hits_count": batch.rows_with_hits_count,
        "hit_count": batch.hit_count,
        "failure_reason": batch.failure_reason or None,
        "create_timestamp": batch.create_timestamp,
        "update_timestamp": batch.update_timestamp,
        "complete_timestamp": batch.complete_timestamp,
        "result_url": _absolute(request, batch_result_path(batch)) if complete else None,
        "screened_against": [evidence_out(entry["category_key"], entry) for entry in batch.screened_against],
        "retained_until": batch_retained_until(batch),
        "deleted_timestamp": batch.deleted_timestamp,
        "deletion_reason_key": batch.deletion_reason_key or None,
    }
