"""Reads of the dashboard's report downloads that the views and tasks share."""

from __future__ import annotations

import re
import uuid
from datetime import datetime

from django.db.models import Q, QuerySet

from portal.models import Member
from portal.roles import member_api_role_keys
from reports.catalogue import CONTENT_ROLES
from reports.models import ReportDownload

UNFINISHED = (ReportDownload.Status.PENDING, ReportDownload.Status.PROCESSING)


def downloads_unfinished_uuids(*, ordered_before: datetime) -> list[uuid.UUID]:
    """Downloads ordered before then that are neither complete nor failed."""
    return list(
        ReportDownload.objects.filter(status__in=UNFINISHED, ordered_at__lt=ordered_before)
        .order_by("ordered_at", "uuid").values_list("uuid", flat=True)
    )


def downloads_visible_to(member: Member) -> QuerySet[ReportDownload]:
    """The organisation's downloads the member may see and follow: a report made with a role that
    changes what it shows (a colleague's credit report, or any report ordered with credit_check, shows
    payment remarks) only when the member's own calls carry that role. A failed one has no file and
    shows no content, so everyone sees it and why it failed (also once nobody's calls carry the role)."""
    downloads = ReportDownload.objects.filter(organisation=member.organisation)
    for role in sorted(CONTENT_ROLES - set(member_api_role_keys(member))):
        made_with_role = Q(role_keys__regex=rf"(^|,){re.escape(role)}(,|$)")
        downloads = downloads.exclude(made_with_role & ~Q(status=ReportDownload.Status.FAILED))
    return downloads
