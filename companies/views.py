"""Company pages: search, the company page, and its sector benchmark panel.

Everything comes from the service through the client; errors from it are
shown, never swallowed.
"""

from __future__ import annotations

import uuid

from django.http import Http404
from django.shortcuts import render

from companies.presenters import (
    accounts_by_year,
    address_of,
    bucket_of,
    employment_series,
    latest_measure_year,
    round_digits_for,
)
from portal.access import client_for_member, member_required
from portal.service import ServiceBadRequest, ServiceError, ServiceNotFound

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
            error = exc.detail
    context = {"query": query, "results": results, "error": error, "limit": SEARCH_LIMIT}
    template = "companies/search.html#results" if request.htmx else "companies/search.html"
    return render(request, template, context)


@member_required()
def detail(request, company_uuid: uuid.UUID):
    companies = client_for_member(request.member).companies
    identifier = str(company_uuid)
    try:
        company = companies.get(identifier)
    except ServiceNotFound:
        raise Http404("No such company.") from None
    accounts = companies.accounts(identifier)
    context = {
        "company": company,
        "address": address_of(company),
        "credit_risk": companies.credit_risk(identifier),
        "flags": companies.flags(identifier),
        "employment": employment_series(companies.employment(identifier)),
        "accounts_years": accounts_by_year(accounts),
        "auditor_notes": companies.auditor_notes(identifier),
        "measure_types": companies.measure_types(),
        "default_measure": DEFAULT_MEASURE,
        "default_year": latest_measure_year(accounts),
    }
    return render(request, "companies/detail.html", context)


@member_required()
def benchmark(request, company_uuid: uuid.UUID):
    companies = client_for_member(request.member).companies
    measure = request.GET.get("measure") or DEFAULT_MEASURE
    year_text = request.GET.get("year", "")
    context = {"company_uuid": company_uuid, "measure": measure, "year": year_text}
    if not year_text.isdigit():
        context["error"] = "Choose a year."
        return render(request, "companies/detail.html#benchmark", context)
    year = int(year_text)
    try:
        aggregate = companies.sector_aggregate(
            measure_year=year,
            company_measure_type_identifier=measure,
            benchmark_company_identifier=str(company_uuid),
            round_digits=round_digits_for(measure, companies.measure_types()),
        )
        own = companies.measures(str(company_uuid), year=year, types=[measure])
    except ServiceBadRequest as exc:
        context["error"] = exc.detail
        return render(request, "companies/detail.html#benchmark", context)
    own_value = own[0]["company_measure_yearly"]["measure_value"] if own else None
    buckets = aggregate["company_measure_yearly_buckets"] if aggregate else []
    context.update(
        aggregate=aggregate,
        buckets=buckets,
        own_value=own_value,
        own_bucket_id=bucket_of(own_value, buckets),
        statistics=aggregate["sector_measure_yearly_aggregate"] if aggregate else None,
    )
    return render(request, "companies/detail.html#benchmark", context)
