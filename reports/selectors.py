"""Reads of the dashboard's report downloads that the views and tasks share."""

from __future__ import annotations

import uuid
from datetime import datetime

from reports.models import ReportDownload

UNFINISHED = (ReportDownload.Status.PENDING, ReportDownload.Status.PROCESSING)


def downloads_unfinished_uuids(*, ordered_before: datetime) -> list[uuid.UUID]:
    """Downloads ordered before then that are neither complete nor failed."""
    return list(
        ReportDownload.objects.filter(status__in=UNFINISHED, ordered_at__lt=ordered_before)
        .order_by("ordered_at", "uuid").values_list("uuid", flat=True)
    )
