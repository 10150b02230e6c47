"""Batch screening jobs: take an uploaded screening file, screen it in chunks, write the result.

`batch_create` checks the whole file first (batch_file.py): a file with any bad row is a 400
listing every problem by line and column, and nothing is stored or queued. A good file is
saved to the storage and the job row created; the Celery task is queued after commit.

`batch_process` (the task's body) screens the rows CHUNK_ROWS at a time against the lists
the config receives hits from (PEP always, sanctions as selected: rule 5, as for monitoring
runs). Each chunk's results and the job's progress are written in one transaction; a chunk
that exists is skipped, so a redelivered or concurrent task resumes without doubling rows.
At the end the JSON result is written to the storage and the job is complete (its CSV and PDF
are rendered from it on request).
Complete is final: a chunk, the progress and the result files are written under the job's
row lock and only while the job is not complete, so a second run that finishes after the
first neither replaces the result files with what is left of the chunks (none: completing
deletes them) nor writes chunks and counts into the finished job.

`batch_delete` removes a job's files, chunks and file name (the names screened) and keeps its
row, marked deleted, with its counts: at a member's request (the audit log records who) or
when the job is older than `VAKT_BATCH_RETENTION_DAYS` (`batches_retention_apply`, hourly from
beat, which also removes files no job will delete: `batch_leftovers_remove`). It takes the row
lock a run writes under, so a job deleted while it runs stops at its next chunk and never
writes a result after.
"""

from __future__ import annotations

import json
import logging
import uuid
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import OperationalError, transaction
from django.db.models import Sum
from django.utils import timezone

from service.audit.services import Actor, audit_record, audit_records_redact
from service.screening.batch_file import ScreeningFile, screening_file_read
from service.screening.upload_csv import ScreeningFileError, TooManyRows, upload_checked
from service.screening.engine import screening_index
from service.screening.models import (
    ScreeningBatch,
    ScreeningBatchChunk,
    ScreeningConfig,
    ScreeningListCategory,
    ScreeningListVersion,
)
from service.screening.person_file import row_result
from service.screening.screening_evidence import version_evidence
from service.screening.screening_run import config_category_keys

logger = logging.getLogger(__name__)

CHUNK_ROWS = 200
# result.csv: a job completed before the CSV was rendered on request kept one; deleting removes it too.
SOURCE, RESULT_CSV, RESULT_JSON = "source.csv", "result.csv", "result.json"


def screening_file_check(*, content: bytes) -> ScreeningFile:
    """The file's rows, or the 4xx that says everything wrong with it."""
    return upload_checked(
        content=content, read=lambda data: screening_file_read(data, max_rows=settings.VAKT_BATCH_MAX_ROWS),
        nothing_done="nothing was screened", no_rows="has no rows to screen",
    )


def _storage_write(name: str, content: bytes) -> None:
    """Write a job's file at its fixed name, replacing what an earlier (interrupted) run left."""
    if default_storage.exists(name):
        default_storage.delete(name)
    saved = default_storage.save(name, ContentFile(content))
    if saved != name:  # another run wrote it between our delete and save: keep one
        default_storage.delete(saved)


def batch_create(*, config: ScreeningConfig, file_name: str, content: bytes, actor: Actor | None) -> ScreeningBatch:
    """A job of the checked file, recorded in the audit log (who screened which file: names of
    persons are screened, not only cases decided)."""
    screening_file = screening_file_check(content=content)
    batch = ScreeningBatch(
        screening_config=config,
        api_user_id=actor.api_user_uuid if actor else None,
        app_membership=actor.app_membership if actor else None,
        file_name=(file_name or "upload.csv")[:255],
        rows_total=len(screening_file.rows),
    )
    _storage_write(batch.storage_name(SOURCE), content)
    try:
        with transaction.atomic():
            batch.save(force_insert=True)
            audit_record(
                app_customer_uuid=config.app_customer_id, actor=actor, action="screening_batch.create",
                object_type="screening_batch", object_uuid=batch.uuid, object_label=batch.file_name,
                after={"file_name": batch.file_name, "rows_total": batch.rows_total},
            )
            # robust: a broker that is away does not fail the upload; the resume finds what was not sent.
            transaction.on_commit(lambda: _enqueue(batch.uuid), robust=True)
    except Exception:
        default_storage.delete(batch.storage_name(SOURCE))
        raise
    return batch


def _enqueue(batch_uuid: uuid.UUID) -> None:
    from service.screening.batch_tasks import screening_batch_task

    screening_batch_task.delay(str(batch_uuid))


def _progress(batch: ScreeningBatch) -> None:
    """The job's counts from its chunks: the same figures however often a chunk was tried."""
    sums = batch.chunks.aggregate(rows=Sum("rows"), with_hits=Sum("rows_with_hits_count"), hits=Sum("hit_count"))
    ScreeningBatch.objects.filter(pk=batch.pk).update(
        rows_done=sums["rows"] or 0,
        rows_with_hits_count=sums["with_hits"] or 0,
        hit_count=sums["hits"] or 0,
        update_timestamp=timezone.now(),
    )


CLOSED = (ScreeningBatch.Status.COMPLETE, ScreeningBatch.Status.DELETED)  # nothing is written into these


def _open_locked(batch: ScreeningBatch) -> bool:
    """Lock the job's row (in the caller's transaction); False when another run completed it or it was deleted."""
    status = ScreeningBatch.objects.select_for_update().filter(pk=batch.pk).values_list("status", flat=True).first()
    return status is not None and status not in CLOSED


def _chunk_screen(batch: ScreeningBatch, number: int, rows, loaded, keys, versions: list[str]) -> bool:
    """Screen and record one chunk (`versions`: those of `loaded` searched); False when the job
    is closed (the run stops)."""
    results = [row_result(row, loaded, category_keys=keys) for row in rows]
    with transaction.atomic():
        if not _open_locked(batch):
            return False
        ScreeningBatchChunk.objects.bulk_create(
            [
                ScreeningBatchChunk(
                    batch=batch,
                    number=number,
                    rows=len(results),
                    rows_with_hits_count=sum(1 for r in results if r["hits"]),
                    hit_count=sum(len(r["hits"]) for r in results),
                    results=results,
                    version_uuids=versions,
                )
            ],
            ignore_conflicts=True,  # a concurrent run wrote it first: the same rows
        )
        _progress(batch)
    return True


def _searched_versions(loaded, keys) -> list[str]:
    """The versions in `loaded` of the lists whose hits the job gets (rule 5)."""
    versions = ScreeningListVersion.objects.filter(uuid__in=loaded.version_uuids, category__key__in=keys)
    return sorted(str(version_uuid) for version_uuid in versions.values_list("uuid", flat=True))


def screened_against_of(version_uuids, *, screened_at: datetime) -> list[dict]:
    """The evidence of a job: each list version its rows were searched in (`version_evidence`,
    with its `category_key`), PEP lists first, then by name. One a list, unless a resumed job
    went on after the list's update: then both."""
    versions = ScreeningListVersion.objects.filter(uuid__in=set(version_uuids)).select_related("category")
    ordered = sorted(versions, key=lambda v: (v.category.list_type != ScreeningListCategory.ListType.PEP,
                                              v.category.name, v.number))
    return [{"category_key": v.category.key, **version_evidence(v, screened_timestamp=screened_at.isoformat())}
            for v in ordered]


def _results_write(batch: ScreeningBatch) -> None:
    """The JSON result only: the CSV and the PDF are rendered from it when asked for (batch_api)."""
    results = [r for chunk in batch.chunks.order_by("number") for r in chunk.results]
    _storage_write(batch.storage_name(RESULT_JSON), json.dumps(results, ensure_ascii=False).encode("utf-8"))


def batch_failed_mark(*, batch_uuid: uuid.UUID | str, reason: str) -> None:
    """The job failed, with a sentence saying why; a complete or deleted job stays as it is."""
    ScreeningBatch.objects.filter(pk=batch_uuid).exclude(status__in=CLOSED).update(
        status=ScreeningBatch.Status.FAILED, failure_reason=reason[:1000], update_timestamp=timezone.now()
    )


def batch_process(*, batch_uuid: str | uuid.UUID) -> ScreeningBatch | None:
    """Screen the job's file (or the rest of it); None when the job is gone."""
    batch = ScreeningBatch.objects.select_related("screening_config").filter(uuid=batch_uuid).first()
    if batch is None:
        return None
    if batch.status in (*CLOSED, ScreeningBatch.Status.FAILED):
        return batch
    ScreeningBatch.objects.filter(pk=batch.pk, status=ScreeningBatch.Status.PENDING).update(
        status=ScreeningBatch.Status.RUNNING, update_timestamp=timezone.now()
    )
    try:
        with default_storage.open(batch.storage_name(SOURCE), "rb") as stream:
            rows = screening_file_read(stream.read()).rows
        done = set(batch.chunks.values_list("number", flat=True))
        keys = config_category_keys(batch.screening_config)
        loaded = versions = None
        for number, start in enumerate(range(0, len(rows), CHUNK_ROWS)):
            if number not in done:
                if loaded is None:  # once a run, and only when a chunk is left to screen
                    loaded = screening_index()
                    versions = _searched_versions(loaded, keys)
                if not _chunk_screen(batch, number, rows[start : start + CHUNK_ROWS], loaded, keys, versions):
                    break  # deleted meanwhile (or completed by another run): nothing more to write
        with transaction.atomic():
            if _open_locked(batch):
                _results_write(batch)
                searched = [u for chunk_versions in batch.chunks.values_list("version_uuids", flat=True) for u in chunk_versions]
                now = timezone.now()
                ScreeningBatch.objects.filter(pk=batch.pk).update(
                    status=ScreeningBatch.Status.COMPLETE, complete_timestamp=now, update_timestamp=now, failure_reason="",
                    screened_against=screened_against_of(searched, screened_at=now),
                )
                batch.chunks.all().delete()  # the result files hold them now
    except OperationalError:
        raise  # transient: the task retries and resumes after the last chunk written
    except (FileNotFoundError, ScreeningFileError, TooManyRows) as exc:
        if ScreeningBatch.objects.filter(pk=batch.pk, status=ScreeningBatch.Status.DELETED).exists():
            logger.info("Screening batch %s was deleted while it ran; nothing more screened.", batch.uuid)
        else:
            logger.error("Screening batch %s: the uploaded file is unreadable: %s", batch.uuid, exc)
            batch_failed_mark(batch_uuid=batch.pk, reason="The uploaded file could not be read again; upload it once more.")
    except Exception:
        logger.exception("Screening batch %s failed.", batch.uuid)
        batch_failed_mark(batch_uuid=batch.pk,
                          reason="The file could not be screened because of an internal error; upload it again.")
    batch.refresh_from_db()
    return batch


def batch_delete(*, batch: ScreeningBatch, actor: Actor | None,
                 reason: str = ScreeningBatch.DeletionReason.REQUEST) -> bool:
    """Delete the job's files and chunks and mark its row deleted; False when it already was.

    The files go before the row is marked, under the row's lock: a storage error rolls the row
    back (the files removed so far stay removed), so the job can be deleted again, and a row
    marked deleted never has its names left in the storage."""
    with transaction.atomic():
        before = ScreeningBatch.objects.select_for_update().filter(pk=batch.pk).values_list("status", flat=True).first()
        if before is None or before == ScreeningBatch.Status.DELETED:
            return False
        for file in (SOURCE, RESULT_CSV, RESULT_JSON):
            default_storage.delete(batch.storage_name(file))  # no error when it is not there
        _folder_remove(batch.storage_name(""))
        batch.chunks.all().delete()
        now = timezone.now()
        ScreeningBatch.objects.filter(pk=batch.pk).update(
            status=ScreeningBatch.Status.DELETED, deleted_timestamp=now, deletion_reason_key=reason, update_timestamp=now,
            file_name="",  # it can name the person: the dashboard calls a name check after the name
        )
        organisation = batch.screening_config.app_customer_id
        # The upload's record named the file (a name check: the person); it goes with the file.
        redacted = audit_records_redact(app_customer_uuid=organisation, objects={"screening_batch": [batch.uuid]})
        audit_record(
            app_customer_uuid=organisation, actor=actor, action="screening_batch.delete",
            object_type="screening_batch", object_uuid=batch.uuid, object_label="",  # not the file's name again
            before={"screening_batch_status_key": before},
            after={"screening_batch_status_key": ScreeningBatch.Status.DELETED, "deletion_reason_key": reason,
                   "audit_records_redacted": redacted},
        )
    batch.refresh_from_db()
    return True


def _folder_remove(name: str) -> None:
    """A job's emptied folder, on a filesystem storage (an object storage has none), so that
    years of deleted jobs leave no empty folders behind."""
    try:
        folder = Path(default_storage.path(name))
    except NotImplementedError:
        return
    try:
        folder.rmdir()
    except OSError:  # gone already, or not empty (a file that is not the job's: left alone)
        pass


def batch_retained_until(batch: ScreeningBatch) -> datetime | None:
    """When the retention period deletes the job (None: it is deleted, or nothing is deleted by age)."""
    days = settings.VAKT_BATCH_RETENTION_DAYS
    if not days or batch.status == ScreeningBatch.Status.DELETED:
        return None
    return batch.create_timestamp + timedelta(days=days)


def batches_retention_apply(*, now: datetime | None = None) -> int:
    """Delete every job uploaded more than VAKT_BATCH_RETENTION_DAYS ago, whatever its state
    (a job that old still waiting has been lost); the number deleted. 0 days: none."""
    days = settings.VAKT_BATCH_RETENTION_DAYS
    if not days:
        return 0
    cutoff = (now or timezone.now()) - timedelta(days=days)
    expired = (ScreeningBatch.objects.select_related("screening_config").filter(create_timestamp__lt=cutoff)
               .exclude(status=ScreeningBatch.Status.DELETED).order_by("create_timestamp", "uuid"))
    deleted = 0
    for batch in expired.iterator():
        try:
            deleted += batch_delete(batch=batch, actor=None, reason=ScreeningBatch.DeletionReason.RETENTION)
        except OperationalError:
            raise  # the database is away: the task retries the whole pass
        except Exception:  # a file the storage refuses to delete must not keep every later job: logged, the next pass tries again
            logger.exception("Screening batch %s: its files could not be deleted at the end of the retention period.", batch.uuid)
    return deleted


LEFTOVER_AGE = timedelta(days=1)  # older than any upload between its file's write and its row's insert
FOLDER = ScreeningBatch.STORAGE_FOLDER


def batch_leftovers_remove(*, now: datetime | None = None) -> int:
    """Remove files no job will ever delete: those of a deleted job (a run killed while writing
    left a file the deletion did not know), and folders of no job at all (an upload killed
    between writing its file and inserting its row), once older than a day. The number of
    folders emptied."""
    try:
        folders, _ = default_storage.listdir(FOLDER)
    except FileNotFoundError:  # nothing uploaded yet
        return 0
    named = {}
    for folder in folders:
        try:
            named[uuid.UUID(folder)] = folder
        except ValueError:
            continue  # not a job's folder: not ours to touch
    statuses = dict(ScreeningBatch.objects.filter(uuid__in=named).values_list("uuid", "status"))
    old = (now or timezone.now()) - LEFTOVER_AGE
    removed = 0
    for job_uuid, folder in named.items():
        status = statuses.get(job_uuid)
        if status not in (None, ScreeningBatch.Status.DELETED):
            continue  # a live job's: deleted with it
        _, files = default_storage.listdir(f"{FOLDER}/{folder}")
        names = [f"{FOLDER}/{folder}/{file}" for file in files]
        if status is None and any(default_storage.get_modified_time(name) > old for name in names):
            continue  # an upload under way: its row is about to be inserted
        for name in names:
            default_storage.delete(name)
        _folder_remove(f"{FOLDER}/{folder}/")
        removed += 1
    return removed
