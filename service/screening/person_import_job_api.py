"""Extension endpoints: customer person import jobs, for files larger than the synchronous import takes
(person_import_job.py). Every endpoint needs `aml`; another config's or organisation's job is 404."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from django.conf import settings
from django.http import HttpRequest
from ninja import File, Query, Router, Schema, Status
from ninja.files import UploadedFile
from pydantic import Field

from service.errors import ApiError
from service.pagination import PageQuery, composite_collection
from service.screening.access import EXTENSION, NATIONAL_ID
from service.screening.config_api import config_of
from service.screening.models import CustomerPersonImportJob
from service.screening.person_import_api import FILE_FORMAT, import_request_checked
from service.screening.person_import_job import import_job_create
from service.screening.person_import_job_selectors import import_job_get, import_jobs_list

router = Router(tags=["Screening customer persons"])


class FailureErrorOut(Schema):
    loc: list[str]
    msg: str


class ImportJobOut(Schema):
    uuid: uuid.UUID
    screening_config_uuid: uuid.UUID
    file_name: str
    app_membership_uuid: uuid.UUID | None = Field(description="the member who uploaded it; null when none was named")
    dry_run: bool = Field(description="only checked: what importing would do, nothing written")
    approved_flag: bool
    monitoring_comment: str
    customer_person_import_job_status_key: Literal["pending", "running", "complete", "failed"]
    rows_count: int | None = Field(description="the file's rows, once complete")
    created_count: int = Field(description="new customer persons, each with a new monitoring")
    monitored_count: int = Field(description="monitorings created: new persons and existing ones nothing screened")
    already_monitored_count: int
    national_ids_added_count: int
    approved_now_count: int = Field(description="existing persons' monitorings that waited for a decision, approved")
    failure_code: str | None = Field(
        description="why it failed, nothing imported: invalid_file, too_many_rows, payload_too_large, "
        "changed_meanwhile, role_missing (national ids without person_national_identification), unreadable, "
        "unavailable, interrupted (started three times, stopped each time: a worker lost), error")
    failure_detail: str | None
    failure_errors: list[FailureErrorOut] = Field(
        description='each problem, as the synchronous import\'s 400 names them: ["body", "file", "line 7", "birth_date"]')
    create_timestamp: datetime
    update_timestamp: datetime
    complete_timestamp: datetime | None = Field(description="when it completed or failed")


class ImportJobCollection(Schema):
    elements: list[ImportJobOut]
    count: int
    has_more: bool


def _out(job: CustomerPersonImportJob) -> dict:
    return {
        "uuid": job.uuid,
        "screening_config_uuid": job.screening_config_id,
        "file_name": job.file_name,
        "app_membership_uuid": job.app_membership_id,
        "dry_run": job.dry_run,
        "approved_flag": job.approved_flag,
        "monitoring_comment": job.monitoring_comment,
        "customer_person_import_job_status_key": job.status,
        "rows_count": job.rows_count,
        "created_count": job.created_count,
        "monitored_count": job.monitored_count,
        "already_monitored_count": job.already_monitored_count,
        "national_ids_added_count": job.national_ids_added_count,
        "approved_now_count": job.approved_now_count,
        "failure_code": job.failure_code or None,
        "failure_detail": job.failure_detail or None,
        "failure_errors": [{"loc": [str(part) for part in e.get("loc", [])], "msg": e.get("msg", "")}
                           for e in job.failure_errors],
        "create_timestamp": job.create_timestamp,
        "update_timestamp": job.update_timestamp,
        "complete_timestamp": job.complete_timestamp,
    }


@router.post(
    "/screening-config/{screening_config_uuid}/customer-person-import-job",
    response={202: ImportJobOut},
    summary="Extension: import a large CSV file of customer persons in the background",
    description=(
        f"{FILE_FORMAT} Send it as multipart form data in the field `file`, up to `VAKT_IMPORT_JOB_MAX_BYTES` "
        "(default 20 MB; larger: 413) and `VAKT_IMPORT_JOB_MAX_ROWS` rows (default 200,000). The import is the "
        "synchronous `customer-person-import`'s, with its query parameters and its counts: all or nothing, in one "
        "transaction. The answer is 202 with the job; poll it until `customer_person_import_job_status_key` is "
        "`complete` or `failed`. The file is checked by the job, not the upload: a bad row, too many rows, or "
        "national ids without the `person_national_identification` role make the job `failed`, with "
        "`failure_code` and `failure_errors` as the synchronous import's 400 gives them, and nothing imported. "
        "`dry_run`: only checked, the counts say what importing would do. The file is removed when the job ends."
    ),
    openapi_extra=EXTENSION,
)
def import_job_start(
    request: HttpRequest, screening_config_uuid: uuid.UUID, file: UploadedFile | None = File(None),
    approved_flag: bool = False, monitoring_comment: str = "", dry_run: bool = False,
    app_membership_uuid: uuid.UUID | None = None,
):
    config, actor = import_request_checked(request, screening_config_uuid, file, monitoring_comment, app_membership_uuid)
    if file.size is not None and file.size > settings.VAKT_IMPORT_JOB_MAX_BYTES:
        raise ApiError(f"The file is too large: {file.size} bytes, the limit is {settings.VAKT_IMPORT_JOB_MAX_BYTES}.",
                       code="payload_too_large", status=413)
    job = import_job_create(
        config=config, file_name=file.name or "", content=file.read(), actor=actor, approved_flag=approved_flag,
        comment=monitoring_comment, dry_run=dry_run, national_ids_allowed=NATIONAL_ID in request.auth.granted_roles,
    )
    job.refresh_from_db()
    return Status(202, _out(job))


@router.get(
    "/screening-config/{screening_config_uuid}/customer-person-import-job",
    response=list[ImportJobCollection],
    summary="Extension: the config's customer person import jobs",
    description="Newest first; `limit` (default 100, at most 1000) and `offset` as in rule 6.",
    openapi_extra=EXTENSION,
)
def import_job_list(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[PageQuery]):
    config = config_of(request, screening_config_uuid)
    return composite_collection(import_jobs_list(config=config), query.page(), _out, ordering=("-create_timestamp", "-uuid"))


@router.get(
    "/screening-config/{screening_config_uuid}/customer-person-import-job/{customer_person_import_job_uuid}",
    response=ImportJobOut,
    summary="Extension: one customer person import job: its state, counts, or why it failed",
    openapi_extra=EXTENSION,
)
def import_job_detail(request: HttpRequest, screening_config_uuid: uuid.UUID, customer_person_import_job_uuid: uuid.UUID):
    config = config_of(request, screening_config_uuid)
    return _out(import_job_get(config=config, job_uuid=customer_person_import_job_uuid))
