"""GET /analysis/v1/company/{id}/accounts-composite."""

from decimal import Decimal

import pytest

from service.companies import models as m
from service.companies.analysis import analysis_refresh
from tests.service.companies.factories import accounts_make, company_make

AUTH_QUERIES = 2


def url(identifier) -> str:
    return f"/analysis/v1/company/{identifier}/accounts-composite"


@pytest.fixture
def company(db):
    company = company_make()
    accounts_make(company=company, year=2022)
    accounts_make(company=company, year=2023, income={"total_operating_income": Decimal("8000000")})
    replaced = accounts_make(company=company, year=2024, balance={"total_assets": Decimal("7000000")})
    accounts_make(company=company, year=2024, replaces=replaced, audited=False)
    accounts_make(company=company, year=2024, type_key="annual_corporate_group_accounts", balance=None)
    analysis_refresh(company_uuids=[company.uuid])
    return company


def shape(response) -> list[tuple]:
    return [
        (e["accounts"]["accounting_year"], e["accounts_type"]["accounts_type_key"], e["accounts"]["replaced_by_accounts_uuid"] is None)
        for e in response.json()
    ]


def test_it_returns_accounts_with_statements_and_highlights(api, company):
    response = api.get(url(company.uuid), {"accounting_years": "2024", "accounts_type_identifier": "annual_company_accounts"})

    assert response.status_code == 200
    elements = response.json()
    current = next(e for e in elements if e["accounts"]["replaced_by_accounts_uuid"] is None)
    assert set(current) == {
        "accounts", "accounts_highlights", "accounts_income_statement", "accounts_balance_sheet", "company", "accounts_type",
    }
    accounts = current["accounts"]
    assert accounts["company_uuid"] == str(company.uuid)
    assert accounts["accounting_from_date"] == "2024-01-01" and accounts["accounting_to_date"] == "2024-12-31"
    assert accounts["audited_flag"] is False and accounts["corporate_group_accounts_flag"] is False
    assert accounts["accounts_type_uuid"] == current["accounts_type"]["uuid"]
    income = current["accounts_income_statement"]
    assert income["accounts_uuid"] == accounts["uuid"] and income["currency_code"] == "NOK"
    assert income["total_operating_income"] == 10000000.0 and income["annual_result"] == 720000.0
    assert income["company_uuid"] == str(company.uuid) and income["accounts_type_uuid"] == accounts["accounts_type_uuid"]
    balance = current["accounts_balance_sheet"]
    assert balance["total_assets"] == 8000000.0 and balance["accounting_year"] == 2024
    highlights = current["accounts_highlights"]
    assert highlights["return_on_assets"] == pytest.approx((920000 + 100000) / 8000000)
    assert highlights["revenue_growth"] == pytest.approx(0.25)
    assert highlights["accounting_year"] == 2024
    assert current["company"]["uuid"] == str(company.uuid)


def test_replaced_accounts_are_included_and_point_at_their_successor(api, company):
    elements = api.get(url(company.uuid), {"accounting_years": "2024", "accounts_type_identifier": "annual_company_accounts"}).json()

    assert len(elements) == 2
    replaced = next(e for e in elements if e["accounts"]["replaced_by_accounts_uuid"])
    current = next(e for e in elements if not e["accounts"]["replaced_by_accounts_uuid"])
    assert replaced["accounts"]["replaced_by_accounts_uuid"] == current["accounts"]["uuid"]
    assert replaced["accounts_balance_sheet"]["total_assets"] == 7000000.0


def test_without_filters_it_returns_every_year_and_type_newest_first(api, company):
    years = [row[0] for row in shape(api.get(url(company.uuid)))]

    assert years == [2024, 2024, 2024, 2023, 2022]
    assert ("annual_corporate_group_accounts" in {row[1] for row in shape(api.get(url(company.uuid)))})


def test_a_missing_statement_is_null(api, company):
    [group] = api.get(url(company.uuid), {"accounts_type_identifier": "annual_corporate_group_accounts"}).json()

    assert group["accounts_balance_sheet"] is None
    assert group["accounts"]["corporate_group_accounts_flag"] is True
    assert group["accounts_highlights"]["equity_ratio"] is None


def test_it_filters_by_years_list_and_type_uuid(api, company):
    type_uuid = m.AccountsType.objects.get(key="annual_company_accounts").uuid

    response = api.get(url(company.uuid), {"accounting_years": "2022, 2023", "accounts_type_identifier": str(type_uuid)})

    assert shape(response) == [(2023, "annual_company_accounts", True), (2022, "annual_company_accounts", True)]


@pytest.mark.parametrize("years", ["2024,abc", "20x4", "-2024", "99999"])
def test_bad_years_are_400_naming_the_field(api, company, years):
    response = api.get(url(company.uuid), {"accounting_years": years})

    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["query", "accounting_years"]


@pytest.mark.parametrize("identifier", ["annual_accounts", "8c6b2f0e-1111-4a4a-9999-1234567890ab"])
def test_unknown_accounts_type_is_400_naming_the_field(api, company, identifier):
    response = api.get(url(company.uuid), {"accounts_type_identifier": identifier})

    assert response.status_code == 400
    body = response.json()
    assert body["errors"][0]["loc"] == ["query", "accounts_type_identifier"]
    assert "annual_company_accounts" in body["errors"][0]["msg"]


def test_unknown_and_malformed_identifiers(api, db):
    assert api.get(url("NO923609016")).status_code == 404
    assert api.get(url("NO92360901")).status_code == 400


def test_it_runs_a_fixed_number_of_queries(api, company, django_assert_max_num_queries):
    with django_assert_max_num_queries(AUTH_QUERIES + 1):
        assert api.get(url(company.uuid)).status_code == 200
    with django_assert_max_num_queries(AUTH_QUERIES + 2):  # + the accounts type
        assert api.get(url(f"NO{company.org_nr}"), {"accounts_type_identifier": "annual_company_accounts"}).status_code == 200


def test_a_company_without_accounts_has_an_empty_list(api, db):
    assert api.get(url(company_make().uuid)).json() == []
