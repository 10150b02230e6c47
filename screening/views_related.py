"""Related companies: each watchlisted company with where its screening stands.

Reads the organisation's cached screening state (screening.freshness): every member may read
it, viewers too; "Refresh now" fetches it from the service at once. Filters and the page live
in the URL; companies that need attention (open sanction hits, open PEP hits, other open
cases, monitorings waiting for a decision) come first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from portal.access import member_required
from portal.feedback import service_error_text
from portal.service import ServiceError
from portal.service.cases import CaseCounts
from portal.service.related import RelatedCompanyState
from screening import freshness

PAGE_SIZE = 100

# The other screening pages these pages link to.
OTHER_PAGES = {"queue": "screening:queue", "approvals": "screening:approvals", "setup": "screening:setup",
               "batches": "screening:batches"}


def _other_pages() -> dict[str, str]:
    return {key: reverse(name) for key, name in OTHER_PAGES.items()}


@dataclass(frozen=True)
class Show:
    key: str
    label: str
    keeps: Callable[[RelatedCompanyState], bool]


SHOWS = (
    Show("all", "All companies", lambda s: True),
    Show("confirmed", "With confirmed hits", lambda s: s.confirmed_hits),
    Show("open-hits", "With open hits", lambda s: s.open_cases > 0),
    Show("sanction", "With open sanction hits", lambda s: s.open_sanction_cases > 0),  # companies, not cases
    Show("pep", "With open PEP hits", lambda s: s.open_pep_cases > 0),
    Show("pending-approvals", "With pending approvals", lambda s: s.pending_monitorings > 0),
    Show("not-screened", "Nobody screened", lambda s: s.active_monitorings == 0),
)
SHOW_BY_KEY = {show.key: show for show in SHOWS}


def attention_order(state: RelatedCompanyState) -> tuple:
    """Confirmed sanction hits (a sanctioned owner or company, whatever is left to review), then open sanction
    hits, PEP hits, other open cases, pending approvals; newest change first."""
    latest = state.latest_update.timestamp() if state.latest_update else 0.0
    return (
        -state.confirmed_sanction_cases,
        -state.open_sanction_cases,
        -state.open_pep_cases,
        -state.open_cases,
        -state.pending_monitorings,
        -latest,
        state.company.name.lower(),
    )


def _matches(state: RelatedCompanyState, query: str) -> bool:
    if not query:
        return True
    digits = "".join(ch for ch in query if ch.isdigit())
    return query.lower() in state.company.name.lower() or bool(digits and digits in state.company.org_nr)


def updated_words(moment: datetime | None, now: datetime | None = None) -> str:
    """"Updated just now", "Updated 2 minutes ago", "Updated 3 hours ago"."""
    if moment is None:
        return "Not updated yet"
    seconds = max(0, int(((now or timezone.now()) - moment).total_seconds()))
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            amount = seconds // size
            return f"Updated {amount} {unit}{'s' if amount != 1 else ''} ago"
    return "Updated just now"


def case_summary(counts: CaseCounts | None) -> dict[str, int]:
    """The open cases in the words of the page: new (no review yet), in review, PEP and sanction hits."""
    if counts is None:
        return {"open": 0, "new": 0, "in_review": 0, "pep": 0, "sanction": 0}
    return {
        "open": counts.open,
        "new": counts.of("pending").count,
        "in_review": counts.of("ongoing").count,
        "pep": counts.open_pep,
        "sanction": counts.open_sanction,
    }


@member_required()
def related_companies(request):
    organisation = request.member.organisation
    show = SHOW_BY_KEY.get(request.GET.get("show", "all"), SHOWS[0])
    query = request.GET.get("q", "").strip()
    context = {
        "show": show,
        "query": query,
        "urls": _other_pages(),
        "can_approve": request.member.can_administer,
    }
    try:
        related = freshness.related_companies(organisation=organisation)
        counts = freshness.case_counts(organisation=organisation)
    except ServiceError as exc:
        context["service_error"] = service_error_text(exc)
        return render(request, "screening/related.html", context)

    companies = list(related.companies)
    shows = [{"show": s, "count": sum(1 for c in companies if s.keeps(c))} for s in SHOWS]
    chosen = sorted((c for c in companies if show.keeps(c) and _matches(c, query)), key=attention_order)
    page = Paginator(chosen, PAGE_SIZE).get_page(request.GET.get("page"))
    refreshed_at = min(related.refreshed_at, counts.refreshed_at)
    context.update(
        related=related,
        cases=case_summary(counts.counts),
        shows=shows,
        page=page,
        company_total=len(companies),
        pending_company_count=next(s["count"] for s in shows if s["show"].key == "pending-approvals"),
        refreshed_at=refreshed_at,
        refreshed_words=updated_words(refreshed_at),
        filtered=show.key != "all" or bool(query),
    )
    return render(request, "screening/related.html", context)


def home_summary(member) -> dict | None:
    """The screening card of the home page's work list, from the cached state; None when the
    organisation's API user cannot screen (no `aml`), so the card is not shown at all."""
    organisation = member.organisation
    if freshness.SCREENING_ROLE not in organisation.role_keys:
        return None
    summary: dict = {"urls": _other_pages(), "can_approve": member.can_administer,
                     "can_check": member.can_review}
    try:
        counts = freshness.case_counts(organisation=organisation)
        related = freshness.related_companies(organisation=organisation)
    except ServiceError as exc:
        return {**summary, "service_error": service_error_text(exc)}
    return {
        **summary,
        "configured": counts.config_uuid is not None,
        "cases": case_summary(counts.counts),
        "pending_company_count": sum(1 for c in related.companies if c.pending_monitorings),
        "confirmed_company_count": sum(1 for c in related.companies if c.confirmed_hits),
        "pending_person_count": related.pending_customer_persons,
        "pending_person_more": related.pending_customer_persons_more,
        "company_count": len(related.companies),
        "refreshed_words": updated_words(min(counts.refreshed_at, related.refreshed_at)),
    }


@member_required()
def company_screening(request, company_uuid: UUID):
    """The company page's screening card (htmx): where the company's screening stands, from the
    cached state, with links to its cases and to approvals. Empty when the organisation cannot screen."""
    if not request.htmx:  # the card opened on its own (a link copied, a reload): the page it belongs to
        return redirect("companies:detail", company_uuid)
    organisation = request.member.organisation
    if freshness.SCREENING_ROLE not in organisation.role_keys:
        return HttpResponse("")
    context = {"company_uuid": company_uuid, "urls": _other_pages(),
               "can_approve": request.member.can_administer}
    try:
        related = freshness.related_companies(organisation=organisation)
    except ServiceError as exc:
        context["service_error"] = service_error_text(exc)
        return render(request, "screening/company_screening.html", context)
    context.update(
        configured=related.config_uuid is not None,
        state=next((c for c in related.companies if c.company.uuid == company_uuid), None),
        refreshed_words=updated_words(related.refreshed_at),
    )
    return render(request, "screening/company_screening.html", context)


@require_POST
@member_required()
def related_companies_refresh(request):
    """Refresh now: the organisation's screening state from the service, then cached for everyone."""
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = reverse("screening:related")
    try:
        freshness.refresh_all(organisation=request.member.organisation)
    except ServiceError as exc:
        messages.error(request, f"The screening state was not refreshed. {service_error_text(exc)}")
    else:
        messages.success(request, "Screening state refreshed from the service.")
    return redirect(back)
