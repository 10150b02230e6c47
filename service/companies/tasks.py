"""Celery tasks of the company register."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

from service.companies.analysis import analysis_refresh

logger = logging.getLogger(__name__)


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=300,
    max_retries=3,
)
def analysis_refresh_all() -> str:
    """Daily: time alone changes results (an accounts deadline passes, a company ages, a
    recent event stops being recent). Unchanged rows are not rewritten, so a re-run is cheap."""
    summary = analysis_refresh()
    logger.info("Daily analysis refresh: %s", summary)
    return str(summary)
