"""Celery tasks of the screening digest (notifications.py): beat fans out, one task per config."""

from __future__ import annotations

import logging
import smtplib

from celery import shared_task
from django.db import OperationalError

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def screening_digests_send_all() -> int:
    """Scheduled by beat (hourly): queue a digest task for every subscribed config. Each sends
    at most one digest a day, so running this more often sends nothing twice."""
    from service.screening.notifications import subscribed_config_uuids

    uuids = subscribed_config_uuids()
    for config_uuid in uuids:
        screening_digest_send_task.delay(str(config_uuid))
    return len(uuids)


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(OperationalError, smtplib.SMTPException, ConnectionError, TimeoutError),
    retry_backoff=60,
    retry_backoff_max=3600,
    max_retries=5,
)
def screening_digest_send_task(config_uuid: str) -> int | None:
    from service.screening.notifications import config_digest_send

    sent = config_digest_send(config_uuid=config_uuid)
    if sent is None:
        logger.info("Screening config %s is gone or no longer subscribed; no digest.", config_uuid)
    return sent
