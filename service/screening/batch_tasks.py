"""The Celery tasks of batch screening jobs: screening a file (batch_services.batch_process) and
deleting the files past their retention period (batch_services.batches_retention_apply)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

logger = logging.getLogger(__name__)
MAX_RETRIES = 5


@shared_task(
    bind=True,
    acks_late=True,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=MAX_RETRIES,
)
def screening_batch_task(self, batch_uuid: str) -> str | None:
    """Screen a batch job's file; a redelivered task resumes after the last chunk written."""
    from service.screening.batch_services import batch_failed_mark, batch_process

    try:
        batch = batch_process(batch_uuid=batch_uuid)
    except OperationalError:
        if self.request.retries >= MAX_RETRIES:  # the last try: say so on the job instead of leaving it running
            batch_failed_mark(batch_uuid=batch_uuid, reason="The database was unavailable; upload the file again.")
        raise
    if batch is None:
        logger.warning("Screening batch %s is gone; nothing screened.", batch_uuid)
        return None
    summary = f"{batch.status}: {batch.rows_done} of {batch.rows_total} rows, {batch.rows_with_hits_count} with hits."
    logger.info("Screening batch %s %s", batch_uuid, summary)
    return summary


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=60,
    max_retries=MAX_RETRIES,
)
def screening_batches_retention() -> int:
    """Delete the jobs older than the retention period, and files no job will delete; idempotent."""
    from service.screening.batch_services import batch_leftovers_remove, batches_retention_apply

    deleted = batches_retention_apply()
    if deleted:
        logger.info("Deleted %d screening batch job(s) past the retention period.", deleted)
    if leftovers := batch_leftovers_remove():
        logger.info("Removed the files of %d screening batch folder(s) no job will delete.", leftovers)
    return deleted
