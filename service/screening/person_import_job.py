"""Customer person import jobs: a file too large for the synchronous import (person_import_api.py),
imported in the background by the same import (person_import.py), all or nothing.

`import_job_create` takes the upload: it stores the file and the job row, and queues the task
after commit. What the file holds is judged by the task, not the upload (reading 100,000 rows
takes seconds): a file with any bad row, too many rows, or national ids the uploader may not
record makes the job `failed`, with the problems as the synchronous import's 400 lists them.

`import_job_process` (the task's body) checks the file and imports it, or only says what it would
do for a dry run. The import and the job's completion are one transaction with the job's row
locked, so a redelivered or concurrent task finds the job complete and imports nothing twice; a
worker that dies mid-import leaves nothing written, and its task's redelivery imports the file
again from the start, up to ATTEMPTS_MAX starts. The stored file is removed when the job ends (it
holds national ids).
"""

from __future__ import annotations

import logging
import uuid

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from service.audit.services import Actor
from service.errors import ApiError, RoleMissing
from service.screening.access import NATIONAL_ID
from service.screening.models import CustomerPersonImportJob, ScreeningConfig
from service.screening.person_import import ImportResult, customer_person_file_check, customer_persons_import

logger = logging.getLogger(__name__)
Status = CustomerPersonImportJob.Status
# Deliveries that may start a job: a worker killed mid-import (out of memory, say) has its task
# handed out again (CELERY_TASK_REJECT_ON_WORKER_LOST), and a file that kills every worker must
# not be tried for ever.
ATTEMPTS_MAX = 3
ENDED = (Status.COMPLETE, Status.FAILED)


def import_job_create(
    *, config: ScreeningConfig, file_name: str, content: bytes, actor: Actor, approved_flag: bool, comment: str,
    dry_run: bool, national_ids_allowed: bool,
) -> CustomerPersonImportJob:
    """A pending job of the uploaded file, its task queued after commit."""
    job = CustomerPersonImportJob(
        screening_config=config, api_user_id=actor.api_user_uuid, app_membership=actor.app_membership,
        file_name=(file_name or "customers.csv")[:255], dry_run=dry_run, approved_flag=approved_flag,
        monitoring_comment=comment, national_ids_allowed=national_ids_allowed,
    )
    saved = default_storage.save(job.source_name, ContentFile(content))
    try:
        with transaction.atomic():
            job.save(force_insert=True)
            # robust: a broker that is away does not fail the upload; the resume finds what was not sent.
            transaction.on_commit(lambda: _enqueue(job.uuid), robust=True)
    except Exception:
        default_storage.delete(saved)
        raise
    return job


def _enqueue(job_uuid: uuid.UUID) -> None:
    from service.screening.tasks import customer_person_import_job_task

    customer_person_import_job_task.delay(str(job_uuid))


def import_job_process(*, job_uuid: uuid.UUID | str) -> CustomerPersonImportJob | None:
    """Check and import the job's file (a dry run: only check it); None when the job is gone."""
    job = CustomerPersonImportJob.objects.select_related("screening_config", "app_membership").filter(uuid=job_uuid).first()
    if job is None or job.ended:
        return job
    if job.attempts >= ATTEMPTS_MAX:
        return import_job_failed_mark(job_uuid=job.uuid, code="interrupted", detail=(
            f"The import was started {job.attempts} times and stopped each time before it finished (a worker lost, "
            "for example out of memory, or the database away); nothing was imported. Upload the file again, or "
            "split it: a smaller file needs less memory."))
    started = CustomerPersonImportJob.objects.filter(pk=job.pk).exclude(status__in=ENDED).update(
        status=Status.RUNNING, attempts=F("attempts") + 1, update_timestamp=timezone.now()
    )
    if not started:  # another delivery ended it meanwhile (this update waited for its lock on the row)
        return CustomerPersonImportJob.objects.get(pk=job.pk)
    try:
        with default_storage.open(job.source_name, "rb") as stream:
            content = stream.read()
    except OSError:
        logger.exception("Customer person import %s: its file cannot be read.", job.uuid)
        return import_job_failed_mark(job_uuid=job.uuid, code="unreadable", detail="The uploaded file could not be "
                                      "read back from the storage; nothing was imported. Upload it again.")
    try:
        person_file = customer_person_file_check(content=content, national_ids_check=lambda: _national_ids(job),
                                                 background=True)
        with transaction.atomic():
            locked = CustomerPersonImportJob.objects.select_for_update().get(pk=job.pk)
            if locked.ended:  # another delivery of the task finished it meanwhile
                return locked
            result = customer_persons_import(
                config=job.screening_config, person_file=person_file, file_name=job.file_name,
                approved_flag=job.approved_flag, comment=job.monitoring_comment, dry_run=job.dry_run, background=True,
                actor=Actor(api_user_uuid=job.api_user_id, app_membership=job.app_membership),
            )
            _complete(locked, result)
    except ApiError as exc:
        return import_job_failed_mark(job_uuid=job.uuid, code=exc.code, detail=exc.detail, errors=exc.errors)
    _source_remove(job)
    return locked


def _national_ids(job: CustomerPersonImportJob) -> None:
    """The upload's role check, made when the file is read: it gives national ids."""
    if not job.national_ids_allowed:
        raise RoleMissing([NATIONAL_ID], why="The file gives national ids; recording them needs a role. ")


def _complete(job: CustomerPersonImportJob, result: ImportResult) -> None:
    job.status = Status.COMPLETE
    job.rows_count = len(result.rows)
    job.created_count = result.created_count
    job.monitored_count = result.monitored_count
    job.already_monitored_count = result.already_monitored_count
    job.national_ids_added_count = result.national_ids_added_count
    job.approved_now_count = result.approved_now_count
    job.complete_timestamp = timezone.now()
    job.save()


def import_job_failed_mark(
    *, job_uuid: uuid.UUID | str, code: str, detail: str, errors: list[dict] | None = None,
) -> CustomerPersonImportJob | None:
    """The job failed (nothing was imported), saying why; an ended job stays as it is."""
    CustomerPersonImportJob.objects.filter(pk=job_uuid).exclude(status__in=ENDED).update(
        status=Status.FAILED, failure_code=code[:40], failure_detail=detail[:2000], failure_errors=list(errors or []),
        complete_timestamp=timezone.now(), update_timestamp=timezone.now(),
    )
    job = CustomerPersonImportJob.objects.filter(pk=job_uuid).first()
    if job is not None:
        _source_remove(job)
    return job


def on_import_job_deleted(sender, instance: CustomerPersonImportJob, **kwargs) -> None:
    """A job deleted (by a cascade, the ORM or an admin) takes its stored file, if it still has one."""
    _source_remove(instance)


def _source_remove(job: CustomerPersonImportJob) -> None:
    """The uploaded file goes when the job ends: it holds national ids, and what it brought in is recorded."""
    try:
        default_storage.delete(job.source_name)
    except OSError:
        logger.exception("Customer person import %s: its file could not be removed.", job.uuid)
