"""Celery task that produces an order's reports.

Enqueued on commit by services.partner_report_order_create. acks_late with
CELERY_TASK_REJECT_ON_WORKER_LOST (portal/settings.py): a worker killed mid-report
leaves the message unacknowledged, so the task runs again; the service skips what
is complete and rewrites an interrupted report's file at its fixed name.
"""

from __future__ import annotations

import logging
import uuid

from celery import shared_task
from django.db import OperationalError

from portal.resume import resume_cutoff, tasks_resend
from service.reports.selectors import orders_open_uuids
from service.reports.services import partner_report_order_process

logger = logging.getLogger(__name__)


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=30,
    max_retries=5,
)
def partner_report_order_produce(order_uuid: str) -> str | None:
    status = partner_report_order_process(order_uuid=uuid.UUID(order_uuid))
    logger.info("Partner report order %s: %s", order_uuid, status)
    return status


@shared_task(ignore_result=True)
def partner_report_orders_resume() -> int:
    """Scheduled by beat: enqueue again the orders left open for VAKT_RESUME_AFTER_SECONDS, whose
    message a broker outage may have lost (the order is in the database). Idempotent: an order
    done meanwhile is skipped by the task."""
    return tasks_resend(
        partner_report_order_produce, orders_open_uuids(untouched_since=resume_cutoff()), "open partner report orders"
    )
