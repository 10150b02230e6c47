"""Work committed while the broker was away: found again from its state in the database.

Work is enqueued on commit; when the broker cannot take the message, the row is saved and
the message lost. Beat's resume tasks (portal/settings.py, CELERY_BEAT_SCHEDULE) each ask a
selector for the rows still owed since `resume_cutoff()` and send their task again with
`tasks_resend`. Every such task is idempotent, so one still waiting in a queue and resent
does its work once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

logger = logging.getLogger(__name__)


def resume_cutoff() -> datetime:
    """What counts as lost: owed since before VAKT_RESUME_AFTER_SECONDS ago (a message waiting in a
    busy queue is younger)."""
    return timezone.now() - timedelta(seconds=settings.VAKT_RESUME_AFTER_SECONDS)


def tasks_resend(task, uuids: Sequence, what: str) -> int:
    """Enqueue `task` once for each of these rows (its message may be lost); log and return how many."""
    for value in uuids:
        task.delay(str(value))
    if uuids:
        logger.warning("Resumed %d %s.", len(uuids), what)
    return len(uuids)
