"""Case statistics: the organisation's screening cases month by month (raised, closed as false
positive or confirmed hit, median days to close) and the open ones by age, for the monthly report
to management and for an inspector; every member reads them, and downloads them as CSV.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from portal.access import client_for_member, member_required
from portal.csv_export import csv_response
from portal.feedback import service_error_text
from portal.service import ServiceError
from screening.pages import can_read_screening, current_config_or_message, no_aml_text
from screening.queue_filters import SCREENED_CHOICES, SCREENED_ENTITY_KEYS

PERIODS = (6, 12, 24)  # months the page offers
DEFAULT_MONTHS = 12
CSV_COLUMNS = ("month", "raised", "sanction_hits", "pep_hits", "closed_false_positive", "closed_confirmed_hit",
               "median_days_to_close")


def _months(request) -> int:
    value = request.GET.get("months", "")
    return int(value) if value.isdigit() and int(value) in PERIODS else DEFAULT_MONTHS


def _screened(request) -> str:
    """Whose cases, as the queue's Screened filter says it (`screened=`); anything else is everyone's."""
    value = request.GET.get("screened", "")
    return value if value in SCREENED_ENTITY_KEYS else ""


def _query(months: int, screened: str) -> str:
    return urlencode({"months": months, **({"screened": screened} if screened else {})})


def _statistics(request, months: int, screened: str):
    """The config and its statistics, or None and the page's message."""
    client = client_for_member(request.member)
    config, error = current_config_or_message(client)
    if config is None:
        return None, error
    try:
        return client.cases.statistics(config.uuid, months=months, entity_key=SCREENED_ENTITY_KEYS.get(screened)), None
    except ServiceError as exc:
        return None, service_error_text(exc)


@member_required()
def case_statistics(request):
    months, screened = _months(request), _screened(request)
    if "screened" in request.GET and not screened:  # "anyone" from the form, or a value not offered
        return redirect(f"{reverse('screening:statistics')}?{_query(months, screened)}")  # a clean URL
    context = {"months": months, "periods": PERIODS, "screened": screened, "screened_choices": SCREENED_CHOICES,
               "query": _query(months, screened), "statistics": None, "service_error": None, "no_aml": None}
    if not can_read_screening(request.member):
        context["no_aml"] = no_aml_text(request.member)
        return render(request, "screening/statistics.html", context)
    context["statistics"], context["service_error"] = _statistics(request, months, screened)
    if context["statistics"] is not None:
        shown = context["statistics"]
        context["newest_first"] = list(reversed(shown.months))
        context["totals"] = {
            "raised": sum(m.raised for m in shown.months),
            "raised_sanction": sum(m.raised_sanction for m in shown.months),
            "raised_pep": sum(m.raised_pep for m in shown.months),
            "closed_false_positive": sum(m.closed_false_positive for m in shown.months),
            "closed_confirmed_hit": sum(m.closed_confirmed_hit for m in shown.months),
        }
        closed = context["totals"]["closed_false_positive"] + context["totals"]["closed_confirmed_hit"]
        context["totals"]["closed"] = closed
        context["totals"]["false_positive_share"] = context["totals"]["closed_false_positive"] / closed if closed else None
    return render(request, "screening/statistics.html", context)


@member_required()
def case_statistics_export(request):
    months, screened = _months(request), _screened(request)
    allowed = can_read_screening(request.member)
    statistics, error = _statistics(request, months, screened) if allowed else (None, no_aml_text(request.member))
    if statistics is None:
        messages.error(request, f"The statistics could not be downloaded. {error}")
        return redirect(f"{reverse('screening:statistics')}?{_query(months, screened)}")
    rows = (
        (m.month.strftime("%Y-%m"), m.raised, m.raised_sanction, m.raised_pep, m.closed_false_positive,
         m.closed_confirmed_hit, "" if m.median_days_to_close is None else m.median_days_to_close)
        for m in statistics.months
    )
    name = slugify(request.member.organisation.name) or "organisation"
    whose = f"-{screened}" if screened else ""
    return csv_response(filename=f"screening-case-statistics-{name}{whose}-{timezone.localdate().isoformat()}.csv",
                        columns=CSV_COLUMNS, rows=rows)
