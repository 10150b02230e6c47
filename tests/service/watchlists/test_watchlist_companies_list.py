"""GET /analysis/v1/watchlist/{watchlist_uuid}/company: the watchlist's companies as composites (spec §4.5)."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from service.companies.analysis import analysis_refresh
from service.watchlists.schemas import WatchlistCompanyOut
from tests.service.declared import assert_declared
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make
from tests.service.watchlists.helpers import companies_url, watchlist_make


@pytest.fixture
def troubled(db):
    """Negative equity in the latest accounts and an unsettled payment remark (a role-protected flag)."""
    today = timezone.localdate()
    company = company_make(name="Alfa Problem AS", registration_date=date(2010, 1, 1))
    for year in range(today.year - 3, today.year):
        accounts_make(company=company, year=year, balance={"total_equity": Decimal("-250000")})
    payment_remark_make(company=company, amount="5000", registered=today - timedelta(days=30))
    analysis_refresh(company_uuids=[company.uuid])
    return company


def test_it_lists_each_company_with_reference_risk_flags_and_date_added(api, troubled):
    plain = company_make(name="Beta Ren AS")
    before = timezone.now()
    watchlist_uuid = watchlist_make(api, "Kunder", [plain, troubled])
    after = timezone.now()

    response = api.get(companies_url(watchlist_uuid), roles=["credit_check"])

    assert response.status_code == 200
    first, second = response.json()
    assert set(first) == {
        "uuid", "watchlist_uuid", "added_timestamp", "company", "company_credit_risk", "company_flag_type_keys",
    }
    assert first["watchlist_uuid"] == watchlist_uuid
    added = parse_datetime(first["added_timestamp"])  # written to the millisecond
    assert before - timedelta(milliseconds=1) < added <= after
    assert first["company"]["uuid"] == str(troubled.uuid)
    assert first["company"]["org_nr"] == troubled.org_nr and first["company"]["org_nr_schema"] == "NO"
    assert first["company"]["app_url"].endswith(f"/companies/{troubled.uuid}/")
    assert first["company_credit_risk"]["risk_class"] in {"very_low", "low", "medium", "high", "very_high"}
    assert 0 <= first["company_credit_risk"]["risk_score"] <= 100
    assert first["company_flag_type_keys"] == ["negative_total_equity", "payment_remarks"]
    assert second["company"]["name"] == "Beta Ren AS"
    assert second["company_credit_risk"] is None  # never analysed
    assert second["company_flag_type_keys"] == []


def test_the_payment_remarks_flag_is_left_out_without_the_credit_check_role(api, troubled):
    watchlist_uuid = watchlist_make(api, "Kunder", [troubled])

    without_role = api.get(companies_url(watchlist_uuid)).json()

    assert without_role[0]["company_flag_type_keys"] == ["negative_total_equity"]


def test_an_ended_flag_is_not_listed(api, troubled):
    troubled.flags.filter(company_flag_type__key="negative_total_equity").update(
        flag_end_date=timezone.now() - timedelta(days=1)
    )
    watchlist_uuid = watchlist_make(api, "Kunder", [troubled])

    assert api.get(companies_url(watchlist_uuid), roles=["credit_check"]).json()[0]["company_flag_type_keys"] == [
        "payment_remarks"
    ]


def _queries(api, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert api.get(url, roles=["credit_check"]).status_code == 200
    return len(captured)


def test_the_number_of_queries_does_not_grow_with_the_companies(api, troubled):
    small = watchlist_make(api, "Liten", [troubled])
    many = [company_make() for _ in range(30)]
    analysis_refresh(company_uuids=[c.uuid for c in many])
    large = watchlist_make(api, "Stor", [troubled, *many])

    assert _queries(api, companies_url(large)) == _queries(api, companies_url(small))
    assert _queries(api, companies_url(large)) <= 6  # auth (2), the watchlist, the memberships, the flags


def test_it_is_an_empty_list_for_an_empty_watchlist(api):
    assert api.get(companies_url(watchlist_make(api, "Tom"))).json() == []


def test_the_answer_has_exactly_the_declared_shape(api, troubled):
    # The endpoint writes its JSON directly (api.py): this keeps answer and OpenAPI together.
    watchlist_uuid = watchlist_make(api, "Kunder", [troubled, company_make()])
    body = api.get(companies_url(watchlist_uuid), roles=["credit_check"]).json()

    assert_declared(list[WatchlistCompanyOut], body)


def test_without_credit_check_the_score_leaves_the_remark_factors_out(api, troubled):
    """The full score would tell a company with payment remarks from the same company without."""
    today = timezone.localdate()
    twin = company_make(name="Alfa Tvilling AS", registration_date=date(2010, 1, 1))
    for year in range(today.year - 3, today.year):
        accounts_make(company=twin, year=year, balance={"total_equity": Decimal("-250000")})
    analysis_refresh(company_uuids=[twin.uuid])
    watchlist_uuid = watchlist_make(api, "Kunder", [troubled, twin])

    def listed(roles=None) -> list[dict]:
        return [row["company_credit_risk"] for row in api.get(companies_url(watchlist_uuid), roles=roles).json()]

    def on_the_risk_endpoint(company, roles=None) -> dict:
        url = f"/analysis/v1/company/{company.uuid}/company-credit-risk-composite"
        risk = api.get(url, roles=roles).json()[0]["company_credit_risk"]
        return {"risk_score": risk["risk_score"], "risk_class": risk["risk_class"]}

    troubled_risk, twin_risk = listed()
    assert troubled_risk == twin_risk == on_the_risk_endpoint(troubled)
    troubled_full, twin_full = listed(roles=["credit_check"])
    assert troubled_full == on_the_risk_endpoint(troubled, roles=["credit_check"])
    assert troubled_full["risk_score"] > troubled_risk["risk_score"] and twin_full == twin_risk
