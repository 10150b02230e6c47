"""Company pages: search, the company page, and its sector benchmark panel.

Everything comes from the service through the client's companies area; errors
from it are shown, never swallowed: a refusal or a busy service is a sentence on
the page (portal.feedback), as on the case queue, never the 500 page.
"""

from __future__ import annotations

import uuid

from django.http import Http404
from django.shortcuts import render

from companies.presenters import (
    accounts_by_year,
    bucket_of,
    buckets_chart,
    employment_series,
    latest_measure_year,
    round_digits_for,
    unit_of,
    without_value_count,
)
from portal.access import client_for_member, member_required
from portal.feedback import service_error_text
from portal.service import ServiceBadRequest, ServiceError, ServiceNotFound, ServiceRateLimited, ServiceUnavailable
from screening.pages import can_read_screening

DEFAULT_MEASURE = "return_on_assets"
SEARCH_LIMIT = 25


@member_required()
def search(request):
    query = request.GET.get("q", "").strip()
    results, error = [], None
    if len(query) >= 2:
        try:
            results = client_for_member(request.member).companies.search(query, limit=SEARCH_LIMIT)
        except ServiceError as exc:
            error = service_error_text(exc)
    context = {"query": query, "results": results, "error": error, "limit": SEARCH_LIMIT}
    template = "companies/search.html#results" if request.htmx else "companies/search.html"
    return render(request, template, context)


@member_required()
def detail(request, company_uuid: uuid.UUID):
    companies = client_for_member(request.member).companies
    try:
        page = companies.page(str(company_uuid))
        measure_types = companies.measure_types()
    except ServiceNotFound:
        raise Http404("No such company.") from None
    except ServiceUnavailable:
        raise  # unreachable: the site's 503 page, with when to try again (portal.service_down)
    except ServiceError as exc:  # busy (429), refused: a sentence, as the queue says it
        response = render(request, "companies/detail.html", {"service_error": service_error_text(exc)}, status=503)
        if isinstance(exc, ServiceRateLimited) and exc.retry_after:
            response["Retry-After"] = str(exc.retry_after)
        return response
    context = {
        "company": page.company,
        "credit_risk": page.credit_risk,
        "flags": page.flags,
        "employment": employment_series(page.employment),
        "accounts_years": accounts_by_year(page.accounts),
        "auditor_notes": page.auditor_notes,
        "measure_types": measure_types,
        "default_measure": DEFAULT_MEASURE,
        "default_year": latest_measure_year(page.accounts),
        "member_can_screen": can_read_screening(request.member),  # the screening card loads itself (htmx)
    }
    return render(request, "companies/detail.html", context)


@member_required()
def benchmark(request, company_uuid: uuid.UUID):
    companies = client_for_member(request.member).companies
    measure = request.GET.get("measure") or DEFAULT_MEASURE
    year_text = request.GET.get("year", "").strip()
    try:
        measure_types = companies.measure_types()
    except ServiceError as exc:
        context = {"company_uuid": company_uuid, "measure": measure, "year": year_text, "error": service_error_text(exc)}
        return render(request, "companies/detail.html#benchmark", context)
    unit = unit_of(measure, measure_types)
    description = next((t.description for t in measure_types if t.key == measure), measure.replace("_", " "))
    context = {"company_uuid": company_uuid, "measure": measure, "measure_description": description,
               "unit": unit, "year": year_text}
    if not year_text:  # a company without accounts has no year to start from: the panel asks for one
        return render(request, "companies/detail.html#benchmark", context)
    if not (year_text.isascii() and year_text.isdigit()):  # "²".isdigit(), but int("²") fails
        context["error"] = "The year is a four-digit number, e.g. 2024."
        return render(request, "companies/detail.html#benchmark", context)
    try:
        result = companies.benchmark(
            str(company_uuid),
            measure=measure,
            year=int(year_text),
            round_digits=round_digits_for(measure, measure_types),
        )
    except ServiceBadRequest as exc:
        context["error"] = exc.detail
        return render(request, "companies/detail.html#benchmark", context)
    except ServiceError as exc:  # the panel says it in its place; the page stands
        context["error"] = service_error_text(exc)
        return render(request, "companies/detail.html#benchmark", context)
    context.update(
        benchmark=result,
        statistics=result.statistics,
        buckets=buckets_chart(result.buckets, unit),
        without_value=without_value_count(result.buckets),
        own_value=result.own_value,
        own_bucket_id=bucket_of(result.own_value, result.buckets) if result.own_value is not None else None,
    )
    return render(request, "companies/detail.html#benchmark", context)
