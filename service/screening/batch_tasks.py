"""The Celery task of batch screening jobs (batch_services.batch_process)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from service.screening.models import ScreeningBatch

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
    from service.screening.batch_services import batch_process

    try:
        batch = batch_process(batch_uuid=batch_uuid)
    except OperationalError:
        if self.request.retries >= MAX_RETRIES:  # the last try: say so on the job instead of leaving it running
            ScreeningBatch.objects.filter(uuid=batch_uuid).exclude(status=ScreeningBatch.Status.COMPLETE).update(
                status=ScreeningBatch.Status.FAILED,
                failure_reason="The database was unavailable; upload the file again.",
                update_timestamp=timezone.now(),
            )
        raise
    if batch is None:
        logger.warning("Screening batch %s is gone; nothing screened.", batch_uuid)
        return None
    summary = f"{batch.status}: {batch.rows_done} of {batch.rows_total} rows, {batch.rows_with_hits_count} with hits."
    logger.info("Screening batch %s %s", batch_uuid, summary)
    return summary
