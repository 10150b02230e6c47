"""Celery tasks of the company register: the analysis refresh after a write, and the daily one.

A write (services.py, the importers, the demo generator) never recomputes the analysis in
its own request or command: `analysis_refresh_on_commit` enqueues `analysis_refresh_task`
once the transaction commits (nothing when it rolls back), in chunks of CHUNK_SIZE company
uuids so that several workers share a big import; "every company" goes to
`analysis_refresh_all`. The enqueue is robust: with the broker away the write stands and the
daily `analysis_refresh_all` brings the analysis up to date. Both are idempotent: rows whose
values did not change are not rewritten, so a redelivered task changes nothing.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable

from celery import shared_task
from django.db import OperationalError, transaction

from service.companies.analysis import analysis_refresh
from service.task_policy import DATABASE_WORK

logger = logging.getLogger(__name__)

CHUNK_SIZE = 5000  # companies per task: five analysis batches


@shared_task(**DATABASE_WORK)
def analysis_refresh_task(company_uuids: list[str]) -> str | None:
    """Recompute the analysis (highlights, measures, flags, credit risk) of these companies."""
    summary = analysis_refresh(company_uuids=company_uuids)
    if not summary.companies:
        logger.info("None of the %d companies to analyse exists any more; nothing done.", len(company_uuids))
        return None
    return str(summary)


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=300,
    max_retries=3,
)
def analysis_refresh_all() -> str:
    """Every company. Beat runs it daily: time alone changes results (an accounts deadline passes,
    a company ages, a recent event stops being recent); a write too big to list asks for it too."""
    summary = analysis_refresh()
    logger.info("Analysis refresh of every company: %s", summary)
    return str(summary)


def analysis_refresh_on_commit(*, company_uuids: Iterable[uuid.UUID | str] | None) -> None:
    """Enqueue the analysis refresh of these companies (None: every company) once the current
    transaction commits; at once outside a transaction, never when it rolls back."""
    if company_uuids is None:
        transaction.on_commit(analysis_refresh_all.delay, robust=True)
        return
    uuids = sorted({str(value) for value in company_uuids})
    for start in range(0, len(uuids), CHUNK_SIZE):
        chunk = uuids[start : start + CHUNK_SIZE]
        transaction.on_commit(lambda chunk=chunk: analysis_refresh_task.delay(chunk), robust=True)
