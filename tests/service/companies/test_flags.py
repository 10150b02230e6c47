"""GET /analysis/v1/company/{id}/company-flag-composite: the active flags."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from service.auth.models import AppRole
from service.companies import models as m
from service.companies.analysis import analysis_refresh
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

AUTH_QUERIES = 2


def url(identifier) -> str:
    return f"/analysis/v1/company/{identifier}/company-flag-composite"


@pytest.fixture
def company(db):
    """Negative equity in the latest accounts and an unsettled payment remark."""
    today = timezone.localdate()
    company = company_make(registration_date=date(2010, 1, 1))
    for year in range(today.year - 3, today.year):
        accounts_make(company=company, year=year, balance={"total_equity": Decimal("-250000")})
    payment_remark_make(company=company, amount="5000", registered=today - timedelta(days=30))
    analysis_refresh(company_uuids=[company.uuid])
    return company


def keys(response) -> list[str]:
    return [element["company_flag_type"]["company_flag_type_key"] for element in response.json()]


def test_it_returns_active_flags_with_their_type_most_severe_first(api, company):
    response = api.get(url(company.uuid), roles=["credit_check"])

    assert response.status_code == 200
    assert keys(response) == ["negative_total_equity", "payment_remarks"]
    element = response.json()[0]
    assert set(element) == {"uuid", "company", "company_flag", "company_flag_type", "app_url"}
    flag, flag_type = element["company_flag"], element["company_flag_type"]
    assert element["uuid"] == flag["uuid"]
    assert flag["company_uuid"] == str(company.uuid)
    assert flag["company_flag_type_uuid"] == flag_type["uuid"]
    assert flag["flag_context"]["total_equity"] == -250000
    assert flag["flag_end_date"] is None
    assert flag["flag_url"]
    assert flag_type["flag_rank"] == 5 and flag_type["persist_flag"] is False
    assert flag_type["app_role_uuid"] is None
    assert element["company"]["org_nr"] == company.org_nr


def test_the_payment_remarks_flag_needs_the_credit_check_role(api, company):
    assert keys(api.get(url(company.uuid))) == ["negative_total_equity"]

    with_role = api.get(url(company.uuid), roles=["credit_check"]).json()
    remarks_type = with_role[1]["company_flag_type"]
    assert remarks_type["app_role_uuid"] == str(AppRole.objects.get(key="credit_check").uuid)


def test_ended_flags_are_not_shown(api, company):
    m.CompanyFlag.objects.filter(company=company, company_flag_type__key="negative_total_equity").update(
        flag_end_date=timezone.now() - timedelta(seconds=1)
    )

    assert keys(api.get(url(company.uuid), roles=["credit_check"])) == ["payment_remarks"]


def test_flags_ending_in_the_future_are_shown(api, company):
    m.CompanyFlag.objects.filter(company=company, company_flag_type__key="negative_total_equity").update(
        flag_end_date=timezone.now() + timedelta(days=3)
    )

    assert "negative_total_equity" in keys(api.get(url(company.uuid)))


def test_unknown_and_malformed_identifiers(api, db):
    assert api.get(url("NO923609016")).status_code == 404
    assert api.get(url("NO92360901X")).status_code == 400


def test_it_runs_one_query(api, company, django_assert_max_num_queries):
    with django_assert_max_num_queries(AUTH_QUERIES + 1):  # the role a flag type needs comes in the same query
        assert api.get(url(company.uuid), roles=["credit_check"]).status_code == 200
