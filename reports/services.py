"""Ordering reports for a member, following them to completion, and keeping their links fresh.

Everything reaches the service through `portal.service` (the reports area).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from portal.access import client_for_member, client_for_organisation
from portal.feedback import service_error_text
from portal.models import Member, Organisation
from portal.service import ServiceError, ServiceForbidden
from reports.catalogue import content_role_keys
from reports.models import ReportDownload
from reports.selectors import UNFINISHED

logger = logging.getLogger(__name__)

# A link is renewed this long before its file session runs out, so a page never shows a dead link.
LINK_RENEW_MARGIN = timedelta(minutes=10)
LINK_FALLBACK_LIFETIME = timedelta(hours=24)  # when the service names no expiry


def report_order(*, member: Member, company_uuid: UUID, report_type: str) -> list[ReportDownload]:
    """Orders one report of one company; the poll task follows it once the rows are committed.

    Raises the service's errors (ServiceForbidden for a credit report without credit_check ...)."""
    placed = client_for_member(member).reports.order([(company_uuid, report_type)])
    with transaction.atomic():
        downloads = [
            ReportDownload.objects.create(
                organisation=member.organisation,
                ordered_by=member,
                order_uuid=placed.order.uuid,
                report_uuid=report.uuid,
                company_uuid=report.company.uuid,
                company_name=report.company.name,
                company_org_nr=report.company.org_nr,
                report_type=report.report_type.key,
                role_keys=",".join(content_role_keys(member, report.report_type)),
                status=ReportDownload.Status.PENDING,
            )
            for report in placed.reports
        ]
        from reports.tasks import report_download_poll  # the task module imports this one

        for download in downloads:
            # robust: a broker that is away does not fail the page; report_downloads_resume polls later.
            transaction.on_commit(partial(report_download_poll.delay, str(download.uuid)), robust=True)
    return downloads


def report_download_refresh(*, download: ReportDownload, now: datetime | None = None) -> bool:
    """One poll of the download's order; True when there is nothing more to wait for.

    Complete: reads the report's file metadata, makes a file session and stores the link.
    Failed, still unfinished after VAKT_REPORT_WAIT_SECONDS, or its file refused (403: the organisation
    lost a role the order was placed with): marked failed with a reason."""
    now = now or timezone.now()
    if download.is_finished:
        return True
    # The roles the order was placed with: the service makes a file session only for a caller granted them.
    reports = client_for_organisation(download.organisation, role_keys=download.role_key_list).reports
    order = reports.order_get(download.order_uuid)
    if order.status == "failed":
        _fail(download, order.failure_reason or "The service could not produce the report.")
        return True
    if order.status != "complete":
        if now - download.ordered_at > timedelta(seconds=settings.VAKT_REPORT_WAIT_SECONDS):
            minutes = max(1, settings.VAKT_REPORT_WAIT_SECONDS // 60)
            _fail(download, f"The report was not ready after {minutes} minutes.")
            return True
        if download.status != order.status:
            _unfinished_update(download, status=order.status)
        return False
    report = next((r for r in reports.list(order_uuid=download.order_uuid) if r.uuid == download.report_uuid), None)
    if report is None or not report.file_path:
        _fail(download, "The service lists no file for this report.")
        return True
    try:
        session = reports.file_session(report.file_path)
    except ServiceForbidden as exc:  # no retry makes the role come back: finished now, with what to do
        _fail(download, _role_lost_reason(download, exc))
        return True
    link = _link(reports, session, now)
    _unfinished_update(
        download,
        status=ReportDownload.Status.COMPLETE,
        file_path=report.file_path,
        file_name=report.file_name or "",
        file_size=report.file_size,
        **link,
    )
    return True


def report_links_renew(*, organisation: Organisation, now: datetime | None = None) -> int:
    """New file sessions for the organisation's ready reports whose links run out; how many renewed.

    One call per set of roles the reports were ordered with (a file is given only to callers with
    its roles), so a set the service refuses (a role the API user lost) keeps no other report's link
    from renewing; the first refusal is raised once the others are renewed."""
    now = now or timezone.now()
    stale = ReportDownload.objects.filter(
        organisation=organisation, status=ReportDownload.Status.COMPLETE, link_expires_at__lte=now + LINK_RENEW_MARGIN
    )
    by_roles: dict[tuple[str, ...], list[ReportDownload]] = {}
    for download in stale:
        by_roles.setdefault(tuple(sorted(download.role_key_list)), []).append(download)
    renewed, refusal = 0, None
    for role_keys, downloads in by_roles.items():
        reports = client_for_organisation(organisation, role_keys=list(role_keys)).reports
        try:
            sessions = {session.file_path: session for session in reports.file_sessions([d.file_path for d in downloads])}
        except ServiceError as exc:
            refusal = refusal or exc
            continue
        for download in downloads:
            session = sessions.get(download.file_path)
            if session is not None:
                for name, value in _link(reports, session, now).items():
                    setattr(download, name, value)
                download.save(update_fields=["file_session_uuid", "download_url", "link_expires_at", "updated_at"])
                renewed += 1
    if refusal is not None:
        raise refusal
    return renewed


def _link(reports, session, now: datetime) -> dict:
    """A download's link fields for a file session."""
    return {
        "file_session_uuid": session.uuid,
        "download_url": reports.download_url(session),
        "link_expires_at": session.expires_at or now + LINK_FALLBACK_LIFETIME,
    }


def _role_lost_reason(download: ReportDownload, error: ServiceForbidden) -> str:
    if not download.role_key_list:
        return f"The service refused the report's file. {service_error_text(error)}"
    roles = ", ".join(download.role_key_list)
    return (
        f"This report was ordered with the API role {roles}, which your organisation's API user no longer holds, "
        "and the service gives its file only to callers with that role. Ask your organisation's admin to have the "
        "role added to its API user, then order the report again."
    )


def _fail(download: ReportDownload, reason: str) -> None:
    if _unfinished_update(download, status=ReportDownload.Status.FAILED, failure_reason=reason):
        logger.info("Report %s of order %s failed: %s", download.report_uuid, download.order_uuid, reason)


def _unfinished_update(download: ReportDownload, **fields) -> bool:
    """Write the poll's fields, and only while the row is unfinished: a poll's copy may be stale (two polls
    of one download, a link renewed meanwhile), and a finished row keeps what it has. False, and the
    copy read again, when it was finished (or deleted) meanwhile."""
    fields["updated_at"] = timezone.now()
    if not ReportDownload.objects.filter(pk=download.pk, status__in=UNFINISHED).update(**fields):
        try:
            download.refresh_from_db()
        except ReportDownload.DoesNotExist:
            pass  # deleted meanwhile: nothing left to follow
        return False
    for name, value in fields.items():
        setattr(download, name, value)
    return True
