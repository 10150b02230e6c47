"""Following an ordered report until it is ready (or given up on), in a Celery worker.

Ids in; idempotent (a finished download is left alone); acks_late; enqueued on
commit by reports.services.report_order, and by `report_downloads_resume` when a broker
outage lost that message. An unfinished order is polled again with exponential backoff
(2 s, 4 s, 8 s ... at most a minute apart) until it is complete or VAKT_REPORT_WAIT_SECONDS
have passed.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

from portal.resume import resume_cutoff, tasks_resend
from portal.service import ServiceRateLimited, ServiceUnavailable
from reports.models import ReportDownload
from reports.selectors import downloads_unfinished_uuids
from reports.services import report_download_refresh

logger = logging.getLogger(__name__)


class ReportNotReady(Exception):
    """The order is still pending or processing: poll again later."""


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(ReportNotReady, ServiceUnavailable, ServiceRateLimited, OperationalError),
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=False,
    max_retries=60,  # a backstop: the wait setting ends the polling long before
)
def report_download_poll(download_uuid: str) -> str | None:
    download = ReportDownload.objects.select_related("organisation").filter(uuid=download_uuid).first()
    if download is None:
        logger.info("Report download %s is gone; nothing to poll.", download_uuid)
        return None
    if not report_download_refresh(download=download):
        raise ReportNotReady(f"Order {download.order_uuid} is {download.status}.")
    return download.status


@shared_task(ignore_result=True)
def report_downloads_resume() -> int:
    """Scheduled by beat: poll again the downloads still unfinished VAKT_RESUME_AFTER_SECONDS after
    they were ordered, whose poll a broker outage lost (a running poll gives up after
    VAKT_REPORT_WAIT_SECONDS, which is shorter by default). A download finished meanwhile is left
    alone by the poll."""
    return tasks_resend(
        report_download_poll, downloads_unfinished_uuids(ordered_before=resume_cutoff()), "report downloads' polls"
    )
