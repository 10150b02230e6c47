"""Reads of the dashboard's report downloads that the views and tasks share."""

from __future__ import annotations

import re
import uuid
from datetime import datetime

from django.db.models import Q, QuerySet

from portal.models import Member
from portal.roles import member_api_role_keys
from reports.catalogue import content_roles_by_type
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
    changes what its type shows (a colleague's company profile or credit report made with credit_check
    shows payment remarks) only when the member's own calls carry that role. Which roles change a type
    is the service's rule (catalogue.content_roles_by_type), applied when reading, so rows kept before
    it follow it too: an ownership report made with credit_check is everyone's. A failed one has no
    file and shows no content, so everyone sees it and why it failed (also once nobody's calls carry the role)."""
    downloads = ReportDownload.objects.filter(organisation=member.organisation)
    held = set(member_api_role_keys(member))
    kept_with = {role for keys in downloads.order_by().values_list("role_keys", flat=True).distinct() for role in keys.split(",") if role}
    lacking = sorted(kept_with - held)
    by_type = content_roles_by_type(member) if lacking else {}
    for role in lacking:
        made_with_role = Q(role_keys__regex=rf"(^|,){re.escape(role)}(,|$)")
        open_anyway = [key for key, roles in by_type.items() if role not in roles]  # the type shows the same without it
        downloads = downloads.exclude(made_with_role & ~Q(status=ReportDownload.Status.FAILED) & ~Q(report_type__in=open_anyway))
    return downloads
