"""generate_demo: the same seed gives the same companies and figures; the data has the promised shapes."""

from __future__ import annotations

import io
from datetime import date

from django.core.management import call_command
from django.db.models import Q
from stdnum.no import orgnr

from service.demo.companies.enheter_csv import HEADER
from service.demo.companies.generate import demo_generate
from service.demo.companies.org_numbers import org_numbers
from service.companies.importers.enheter import enheter_import
from service.companies.models import (
    Accounts,
    AccountsIncomeStatement,
    Company,
    CompanyRiskStatus,
    CompanyRole,
    PaymentRemark,
    Person,
)
from tests.service.companies.importers.conftest import enheter_rows

TODAY = date(2025, 9, 1)
COMPANIES = 300


def _generate(seed: int = 11):
    return demo_generate(companies=COMPANIES, seed=seed, today=TODAY, refresh_analysis=False)


def _snapshot() -> dict:
    return {
        "companies": sorted(Company.objects.values_list("org_nr", "name", "employees", "founded_date", "is_bankrupt")),
        "accounts": sorted(
            AccountsIncomeStatement.objects.values_list(
                "accounts__company__org_nr", "accounts__accounting_year", "accounts__accounts_type__key", "total_operating_income", "annual_result"
            )
        ),
        "owners": sorted(
            CompanyRole.objects.filter(company_role_type__key="shareholder").values_list("company__org_nr", "holder_person__full_name", "holder_company__org_nr", "share_percentage"),
            key=repr,
        ),
    }


def test_the_same_seed_gives_the_same_companies_and_figures(reference_data):
    _generate()
    first = _snapshot()
    Company.objects.all().delete()
    Person.objects.all().delete()

    summary = _generate()

    assert summary.companies == COMPANIES
    assert _snapshot() == first
    assert len(first["companies"]) == COMPANIES


def test_a_rerun_adds_nothing_twice_and_another_seed_gives_other_companies(reference_data):
    _generate()
    again = _generate()
    assert (again.companies, again.skipped) == (0, COMPANIES)

    other = _generate(seed=12)
    assert other.companies == COMPANIES and Company.objects.count() == 2 * COMPANIES


def test_org_numbers_are_valid_and_unique():
    numbers = [number for _, number in zip(range(20000), org_numbers(5))]

    assert len(set(numbers)) == len(numbers)
    assert all(orgnr.is_valid(number) and number[0] in "89" for number in numbers)


def test_the_demo_has_the_shapes_the_analysis_needs(reference_data):
    _generate()

    # person -> holding AS -> operating AS, the person owning 25% or more: a beneficial owner through a chain
    holdings = CompanyRole.objects.filter(company_role_type__key="shareholder", holder_company__isnull=False).values("holder_company")
    assert CompanyRole.objects.filter(
        company_role_type__key="shareholder", company__in=holdings, holder_person__isnull=False, share_percentage__gte=25
    ).exists()
    assert CompanyRole.objects.filter(company_role_type__key="shareholder", holder_person__isnull=False, share_percentage__gte=25).count() > COMPANIES / 2
    for key in ("board_chair", "board_member", "ceo", "signature_right", "procuration"):
        assert CompanyRole.objects.filter(company_role_type__key=key).exists(), key
    assert Accounts.objects.filter(replaced_by__isnull=False).exists()
    assert Accounts.objects.filter(replaced_by__isnull=False, audited_flag=False).exists()
    assert Accounts.objects.filter(accounts_type__key="annual_corporate_group_accounts", corporate_group_accounts_flag=True).exists()
    assert Accounts.objects.filter(balance_sheet__total_equity__lt=0).exists()
    assert AccountsIncomeStatement.objects.filter(total_sales__isnull=True, total_operating_income__isnull=False).exists()
    years = Accounts.objects.filter(accounts_type__key="annual_company_accounts", replaced_by__isnull=True).values_list("company", "accounting_year")
    per_company = {}
    for company, year in years:
        per_company.setdefault(company, set()).add(year)
    assert max(len(y) for y in per_company.values()) == 6 and sum(len(y) >= 3 for y in per_company.values()) > len(per_company) / 2
    assert PaymentRemark.objects.filter(collection_case__isnull=False).exists()
    assert CompanyRiskStatus.objects.filter(company__is_bankrupt=True, company_risk_status_type__key="bankrupt").exists()
    assert Company.objects.filter(Q(employment__employee_count_from__isnull=False)).exists()
    assert Company.objects.values("business_municipality").distinct().count() > 50
    assert Company.objects.values("nace_code_1").distinct().count() > 100
    assert Company.objects.filter(organization_type__code="AS").count() > Company.objects.filter(organization_type__code="ENK").count()
    assert all(orgnr.is_valid(number) for number in Company.objects.values_list("org_nr", flat=True))
    assert Person.objects.exclude(national_identification_number="").exists()


def test_the_enheter_csv_has_the_register_header_and_imports_cleanly(reference_data, tmp_path):
    path = tmp_path / "enheter.csv"

    call_command("generate_demo", "--enheter-csv", str(path), "--companies", "400", "--seed", "3", stdout=io.StringIO())

    header, rows = enheter_rows(path)
    assert header == list(HEADER) and len(rows) == 400
    result = enheter_import(path=path, refresh_analysis=False)
    assert (result.created, result.rejected, result.warnings) == (400, [], {})
    assert Company.objects.filter(is_bankrupt=True).exists()
