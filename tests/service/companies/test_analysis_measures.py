"""CompanyMeasureYearly computed by analysis_refresh."""

from datetime import date
from decimal import Decimal

import pytest

from service.companies import models as m
from service.companies.analysis import analysis_refresh
from service.companies.catalog import MEASURE_TYPES
from tests.service.companies.factories import accounts_make, company_make, employment_make

pytestmark = pytest.mark.django_db


def measures(company) -> dict[tuple[str, int], Decimal | None]:
    return {
        (row.company_measure_type.key, row.measure_year): row.measure_value
        for row in m.CompanyMeasureYearly.objects.filter(company=company).select_related("company_measure_type")
    }


def test_it_writes_every_catalogue_measure_for_each_year_with_company_accounts():
    company = company_make()
    accounts_make(company=company, year=2023, income={"total_operating_income": Decimal("8000000")})
    accounts_make(company=company, year=2024)

    analysis_refresh(company_uuids=[company.uuid])

    values = measures(company)
    assert {key for key, _ in values} == set(MEASURE_TYPES)
    assert {year for _, year in values} == {2023, 2024}
    assert values[("total_operating_income", 2024)] == Decimal("10000000")
    assert values[("operating_result", 2024)] == Decimal("1000000")
    assert values[("result_before_tax", 2024)] == Decimal("920000")
    assert values[("annual_result", 2024)] == Decimal("720000")
    assert values[("total_assets", 2024)] == Decimal("8000000")
    assert values[("total_equity", 2024)] == Decimal("3200000")
    assert values[("equity_ratio", 2024)] == Decimal("0.4")
    assert values[("return_on_assets", 2024)] == Decimal("0.1275")
    assert values[("return_on_equity", 2024)] == Decimal("0.225")
    assert values[("operating_margin", 2024)] == Decimal("0.1")
    assert values[("current_ratio", 2024)] == Decimal("2")
    assert values[("revenue_growth", 2024)] == Decimal("0.25")
    assert values[("revenue_growth", 2023)] is None


def test_it_uses_the_current_accounts_not_the_replaced_ones():
    company = company_make()
    old = accounts_make(company=company, year=2024, balance={"total_assets": Decimal("100")})
    accounts_make(company=company, year=2024, replaces=old, balance={"total_assets": Decimal("9000000")})

    analysis_refresh(company_uuids=[company.uuid])

    assert measures(company)[("total_assets", 2024)] == Decimal("9000000")


def test_group_accounts_are_not_used_even_without_company_accounts():
    company = company_make()
    accounts_make(company=company, year=2024, type_key="annual_corporate_group_accounts")

    analysis_refresh(company_uuids=[company.uuid])

    assert measures(company) == {}


def test_missing_statement_values_give_null_measures():
    company = company_make()
    accounts_make(company=company, year=2024, income={"annual_result": None}, balance=None)

    analysis_refresh(company_uuids=[company.uuid])

    values = measures(company)
    assert values[("annual_result", 2024)] is None
    assert values[("total_assets", 2024)] is None
    assert values[("equity_ratio", 2024)] is None
    assert values[("total_operating_income", 2024)] == Decimal("10000000")


def test_employees_come_from_the_period_covering_the_year_end():
    company = company_make(employees=99)
    employment_make(company=company, count=5, start=date(2020, 1, 1), end=date(2023, 6, 1))
    employment_make(company=company, count=12, start=date(2023, 6, 1), end=date(2025, 2, 1))
    employment_make(company=company, count=30, start=date(2025, 2, 1))
    for year in (2022, 2023, 2024, 2025):
        accounts_make(company=company, year=year)

    analysis_refresh(company_uuids=[company.uuid], today=date(2026, 8, 1))

    values = measures(company)
    assert [values[("employees", y)] for y in (2022, 2023, 2024, 2025)] == [5, 12, 12, 30]


def test_without_employment_history_the_register_count_goes_to_the_latest_year():
    company = company_make(employees=7)
    accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024)

    analysis_refresh(company_uuids=[company.uuid])

    values = measures(company)
    assert values[("employees", 2024)] == 7
    assert values[("employees", 2023)] is None


def test_it_updates_changed_values_in_place_and_deletes_years_without_accounts():
    company = company_make()
    accounts_2023 = accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024)
    analysis_refresh(company_uuids=[company.uuid])
    row = m.CompanyMeasureYearly.objects.get(company=company, company_measure_type__key="total_assets", measure_year=2024)

    m.AccountsBalanceSheet.objects.filter(accounts__company=company, accounts__accounting_year=2024).update(
        total_assets=Decimal("16000000")
    )
    accounts_2023.delete()
    analysis_refresh(company_uuids=[company.uuid])

    row.refresh_from_db()
    assert row.measure_value == Decimal("16000000")  # same row, same uuid
    assert {year for _, year in measures(company)} == {2024}
