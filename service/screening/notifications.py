"""The daily digest email of a screening config with `subscribe_to_email_notifications_flag`.

Each member of the config's organisation (its AppMemberships) gets one email listing what
arrived since the config's previous digest: new cases (counted by PEP and sanction, the
newest few of each with a link to the case in the dashboard) and monitorings waiting for a
decision (how many, how many of them new, a link to the approvals page). Nothing new (no
new case, no new pending monitoring): no email. The first digest of a config looks back a day.

At most one digest per config and day (TIME_ZONE): before any email leaves, the sender
inserts the day's `ScreeningDigest` row; the UNIQUE (config, day) constraint lets exactly
one insert through, so a restarted beat or two workers never send twice. The row records
where its window ended, which is where the next digest starts. A failed send removes the
row again, so the retried task can send it.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from service.auth.models import AppMembership
from service.companies.references import app_url
from service.screening.models import ScreeningCase, ScreeningConfig, ScreeningDigest
from service.screening.monitoring_selectors import monitorings_list
from vakt_format import norwegian as no

logger = logging.getLogger(__name__)

CASES_LISTED = 5  # per kind; the counts say how many more
FIRST_LOOKBACK = dt.timedelta(days=1)
APPROVALS_PATH = "/screening/approvals/"
WHY_YOU_GET_IT = "You get this digest because your organisation's screening config subscribes to email notifications."


def case_path(case_uuid) -> str:
    return f"/screening/cases/{case_uuid}/"


@dataclass
class CaseLine:
    entity_name: str
    listed_name: str
    list_name: str
    score: float
    url: str

    def text(self) -> str:
        return f"{self.entity_name}: {self.listed_name} ({self.list_name}, score {self.score:.2f})"


@dataclass
class DigestContent:
    organisation: str
    since: dt.datetime
    until: dt.datetime
    pep_count: int = 0
    sanction_count: int = 0
    pep_cases: list[CaseLine] = field(default_factory=list)
    sanction_cases: list[CaseLine] = field(default_factory=list)
    pending_count: int = 0
    new_pending_count: int = 0

    @property
    def has_news(self) -> bool:
        return bool(self.pep_count or self.sanction_count or self.new_pending_count)

    @property
    def case_count(self) -> int:
        return self.pep_count + self.sanction_count


def _entity_name(case: ScreeningCase) -> str:
    inquiry = case.entity_inquiry
    entity = inquiry.person or inquiry.customer_person or inquiry.company
    return getattr(entity, "full_name", None) or getattr(entity, "name", "") or "(unknown)"


def _case_lines(cases) -> list[CaseLine]:
    return [
        CaseLine(_entity_name(c), c.list_entry.primary_name, c.list_category.name, c.score, app_url(case_path(c.uuid)))
        for c in cases[:CASES_LISTED]
    ]


def digest_content(*, config: ScreeningConfig, until: dt.datetime) -> DigestContent:
    """What the config's next digest says: news after the previous digest's window, up to `until`."""
    previous = ScreeningDigest.objects.filter(screening_config=config).order_by("-window_end").first()
    since = previous.window_end if previous else until - FIRST_LOOKBACK
    content = DigestContent(organisation=config.app_customer.name, since=since, until=until)
    cases = (
        ScreeningCase.objects.filter(screening_config=config, created_timestamp__gt=since, created_timestamp__lte=until)
        .select_related(
            "entity_inquiry__person", "entity_inquiry__customer_person", "entity_inquiry__company",
            "list_entry", "list_category",
        )
        .order_by("-created_timestamp", "-uuid")
    )
    content.pep_count = cases.filter(pep_flag=True).count()
    content.sanction_count = cases.filter(sanction_flag=True).count()
    content.pep_cases = _case_lines(cases.filter(pep_flag=True))
    content.sanction_cases = _case_lines(cases.filter(sanction_flag=True))
    pending = monitorings_list(config=config, approval_status_key="pending")
    content.pending_count = pending.count()
    content.new_pending_count = pending.filter(create_timestamp__gt=since, create_timestamp__lte=until).count()
    return content


def _subject(content: DigestContent) -> str:
    parts = []
    if content.case_count:
        parts.append(f"{content.case_count} new case{'s' if content.case_count != 1 else ''}")
    if content.pending_count:
        parts.append(f"{content.pending_count} monitoring{'s' if content.pending_count != 1 else ''} to decide")
    return f"Vakt screening, {content.organisation}: " + ", ".join(parts)


def _sections(content: DigestContent) -> list[tuple[str, list[CaseLine], int]]:
    return [
        (f"New sanction cases: {content.sanction_count}", content.sanction_cases, content.sanction_count),
        (f"New PEP cases: {content.pep_count}", content.pep_cases, content.pep_count),
    ]


def _pending_sentence(content: DigestContent) -> str:
    return (
        f"Monitorings waiting for a decision: {content.pending_count} "
        f"({content.new_pending_count} new since the last digest)."
    )


def digest_text(content: DigestContent) -> str:
    lines = [f"What is new in screening for {content.organisation} since {no.moment(content.since)}.", ""]
    for title, cases, count in _sections(content):
        if not count:
            continue
        lines.append(title)
        lines += [f"- {c.text()}\n  {c.url}" for c in cases]
        if count > len(cases):
            lines.append(f"- and {count - len(cases)} more: {app_url('/screening/cases/')}")
        lines.append("")
    if content.pending_count:
        lines += [_pending_sentence(content), f"Decide them: {app_url(APPROVALS_PATH)}", ""]
    lines.append(WHY_YOU_GET_IT)
    return "\n".join(lines)


def digest_html(content: DigestContent) -> str:
    parts = [format_html("<p>What is new in screening for <strong>{}</strong> since {}.</p>",
                         content.organisation, no.moment(content.since))]
    for title, cases, count in _sections(content):
        if not count:
            continue
        items = format_html_join("", '<li><a href="{}">{}</a></li>', ((c.url, c.text()) for c in cases))
        more = ""
        if count > len(cases):
            more = format_html('<li><a href="{}">and {} more</a></li>', app_url("/screening/cases/"), count - len(cases))
        parts.append(format_html("<h3>{}</h3><ul>{}{}</ul>", title, items, more))
    if content.pending_count:
        parts.append(format_html('<p>{} <a href="{}">Decide them</a>.</p>', _pending_sentence(content), app_url(APPROVALS_PATH)))
    parts.append(format_html("<p><small>{}</small></p>", WHY_YOU_GET_IT))
    return "".join(str(p) for p in parts)


def _claim(config: ScreeningConfig, day: dt.date, content: DigestContent, recipients: int) -> ScreeningDigest | None:
    """Today's digest row, or None when another run has it already (the UNIQUE constraint decides)."""
    try:
        with transaction.atomic():
            return ScreeningDigest.objects.create(
                screening_config=config, digest_date=day, window_end=content.until, case_count=content.case_count,
                pending_monitoring_count=content.pending_count, recipient_count=recipients,
            )
    except IntegrityError:
        return None


def config_digest_send(*, config_uuid, now: dt.datetime | None = None) -> int | None:
    """Send the config's digest for today if it is due and has news; the number of emails sent
    (0: nothing to send, or sent already today), None when the config is gone or unsubscribed."""
    config = ScreeningConfig.objects.select_related("app_customer").filter(uuid=config_uuid).first()
    if config is None or not config.subscribe_to_email_notifications_flag:
        return None
    now = now or timezone.now()
    day = timezone.localdate(now)
    if ScreeningDigest.objects.filter(screening_config=config, digest_date=day).exists():
        return 0
    content = digest_content(config=config, until=now)
    members = AppMembership.objects.filter(app_customer=config.app_customer).order_by("email")
    emails = list(members.values_list("email", flat=True))
    if not content.has_news or not emails:
        return 0
    digest = _claim(config, day, content, len(emails))
    if digest is None:
        return 0
    subject, text, html = _subject(content), digest_text(content), digest_html(content)
    messages = []
    for email in emails:  # one each: members do not see each other's addresses
        message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [email])
        message.attach_alternative(html, "text/html")
        messages.append(message)
    try:
        get_connection().send_messages(messages)
    except Exception:
        digest.delete()  # not sent: the retried task may claim the day again
        raise
    logger.info("Screening digest of config %s sent to %d member(s).", config.uuid, len(messages))
    return len(messages)


def subscribed_config_uuids() -> list:
    return list(ScreeningConfig.objects.filter(subscribe_to_email_notifications_flag=True).values_list("uuid", flat=True))
