"""generate_demo's accounts read like real Norwegian companies', checked through the computed analysis
(highlights, measures, flags) over a generated population, and the flags' evidence fits the accounts."""

from __future__ import annotations

import statistics
from collections import defaultdict
from datetime import date
from decimal import Decimal

import pytest

from service.companies.analysis import analysis_refresh
from service.demo.companies.generate import demo_generate
from service.companies.importers.enheter import enheter_import
from service.companies.importers.group_ownership import group_ownership_import
from service.companies.models import (
    Accounts,
    AccountsHighlights,
    Company,
    CompanyEmployment,
    CompanyFlag,
    CompanyMeasureYearly,
    CompanyRole,
    PaymentRemark,
)
from tests.conftest import shared_file
from tests.service.companies.importers.conftest import csv_write, enheter_rows

TODAY = date(2025, 9, 1)
COMPANY = "annual_company_accounts"
GROUP = "annual_corporate_group_accounts"
# Operating margin medians a reader of Norwegian accounts expects, by NACE division or section.
MARGIN_MEDIANS = {"47": (0.01, 0.05), "IT and consulting": (0.05, 0.15), "M": (0.05, 0.15), "F": (0.02, 0.08), "L": (0.25, 0.65)}
# Revenue per employee (NOK), medians by section.
REVENUE_PER_EMPLOYEE = {"F": (1_500_000, 3_000_000), "G": (2_000_000, 6_000_000), "I": (600_000, 1_500_000), "M": (1_000_000, 2_200_000)}


@pytest.fixture
def demo(reference_data):
    demo_generate(companies=1000, seed=5, today=TODAY, refresh_analysis=False)
    analysis_refresh(today=TODAY)


def _current(type_key: str = COMPANY):
    return AccountsHighlights.objects.filter(accounts__replaced_by__isnull=True, accounts__accounts_type__key=type_key)


def _kind(code: str, path: str) -> str:
    return "IT and consulting" if code[:2] in ("62", "70") else code[:2] if code[:2] == "47" else path[0]


def test_it_keeps_ratios_in_the_ranges_of_real_companies(demo):
    rows = list(_current().values_list("return_on_assets", "equity_ratio", "revenue_growth", "operating_margin", "accounts__company__nace_code_1__code", "accounts__company__nace_code_1__path"))
    roa = [value for value, *_ in rows if value is not None]
    equity = [row[1] for row in rows if row[1] is not None]
    growth = [row[2] for row in rows if row[2] is not None]

    assert len(roa) > 1200
    assert sum(Decimal("-0.20") <= value <= Decimal("0.30") for value in roa) >= 0.9 * len(roa)
    assert sum(Decimal("0.10") <= value <= Decimal("0.60") for value in equity) >= 0.6 * len(equity)
    assert 0.02 <= sum(value < 0 for value in equity) / len(equity) <= 0.12  # some, not many, with negative equity
    assert sum(Decimal("-0.20") <= value <= Decimal("0.30") for value in growth) >= 0.97 * len(growth)
    margins = defaultdict(list)
    for *_, margin, code, path in rows:
        if margin is not None and code and not code.startswith("64.2"):
            margins[_kind(code, path)].append(float(margin))
    for kind, (low, high) in MARGIN_MEDIANS.items():
        assert len(margins[kind]) >= 20, kind
        assert low <= statistics.median(margins[kind]) <= high, (kind, statistics.median(margins[kind]))


def test_it_makes_revenue_fit_the_head_count_and_holdings_live_on_financial_income(demo):
    by_company_year = defaultdict(dict)
    for company, key, year, value, path in CompanyMeasureYearly.objects.filter(
        company_measure_type__key__in=("employees", "total_operating_income")
    ).values_list("company_id", "company_measure_type__key", "measure_year", "measure_value", "company__nace_code_1__path"):
        by_company_year[(company, year, (path or "?")[0])][key] = value
    per_employee = defaultdict(list)
    for (_, _, section), values in by_company_year.items():
        if values.get("employees") and values.get("total_operating_income") is not None:
            per_employee[section].append(float(values["total_operating_income"] / values["employees"]))
    for section, (low, high) in REVENUE_PER_EMPLOYEE.items():
        assert low <= statistics.median(per_employee[section]) <= high, section

    holdings = Accounts.objects.filter(accounts_type__key=COMPANY, replaced_by__isnull=True, company__nace_code_1__code__startswith="64.2")
    income = list(holdings.values_list("income_statement__financial_income", "income_statement__total_operating_income"))
    assert len(income) > 30
    assert sum(financial > operating for financial, operating in income) >= 0.7 * len(income)


def test_it_makes_group_accounts_the_members_added_up_with_the_shares_in_subsidiaries_eliminated(demo):
    checked = 0
    for group in Accounts.objects.filter(accounts_type__key=GROUP).select_related("balance_sheet", "company", "highlights"):
        year, members, holdings = group.accounting_year, [group.company_id], set()
        for member in members:  # grows while it is walked: the companies the parent owns, through any chain
            owned = CompanyRole.objects.filter(company_role_type__key="shareholder", holder_company_id=member).values_list("company_id", flat=True)
            if owned:
                holdings.add(member)
                members.extend(owned)
        own = {
            accounts.company_id: accounts.balance_sheet
            for accounts in Accounts.objects.filter(company_id__in=members, accounting_year=year, accounts_type__key=COMPANY, replaced_by__isnull=True).select_related("balance_sheet")
        }
        assert set(own) == set(members), "every member files for a year the group reports"
        shares = sum(own[holder].financial_fixed_assets for holder in holdings)
        parent = own[group.company_id]

        assert group.balance_sheet.total_equity == sum(sheet.total_equity for sheet in own.values()) - shares
        assert group.balance_sheet.total_assets == sum(sheet.total_assets for sheet in own.values()) - shares
        assert group.balance_sheet.share_capital == parent.share_capital
        # a holding parent's equity ratio is high; its group's is an operating business's
        assert parent.total_equity / parent.total_assets >= Decimal("0.3")
        assert Decimal("-0.5") <= group.highlights.equity_ratio <= Decimal("0.97")
        checked += 1
    assert checked > 10


def test_it_gives_flags_evidence_that_fits_the_accounts_shown(demo):
    missing = CompanyFlag.objects.filter(company_flag_type__key="missing_accounts")
    assert missing.exists()
    for flag in missing:
        context = flag.flag_context
        filed = set(Accounts.objects.filter(company=flag.company_id, accounts_type__key=COMPANY, replaced_by__isnull=True).values_list("accounting_year", flat=True))
        assert context["due_year"] == 2024 and context["due_year"] not in filed
        assert context["last_accounts_year"] == (max(filed) if filed else None)
        if filed:  # the years filed run up to the last one without a hole
            assert filed == set(range(min(filed), max(filed) + 1))
    # a company whose accounts show three years up to the due year is not flagged
    assert missing.count() < 0.1 * Company.objects.filter(organization_type__code__in=("AS", "ASA")).count()

    for flag in CompanyFlag.objects.filter(company_flag_type__key="negative_total_equity"):
        latest = Accounts.objects.filter(company=flag.company_id, accounts_type__key=COMPANY, replaced_by__isnull=True).order_by("-accounting_year").select_related("balance_sheet").first()
        assert latest.accounting_year == flag.flag_context["accounting_year"]
        assert latest.balance_sheet.total_equity == flag.flag_context["total_equity"] < 0
        assert latest.balance_sheet.total_liabilities > latest.balance_sheet.total_assets

    for remark in PaymentRemark.objects.select_related("company"):
        assert remark.creditor_name and remark.creditor_name != remark.company.name
        revenue = Accounts.objects.filter(company=remark.company_id, replaced_by__isnull=True, accounts_type__key=COMPANY).order_by("-accounting_year").values_list("income_statement__total_operating_income", flat=True).first()
        # never more than a few weeks' revenue (5% of the newest year's, a corrected year may be lower)
        assert 1_000 <= remark.amount <= max(Decimal(1_500), (revenue or Decimal(10**9)) * Decimal("0.075"))


def test_it_keeps_every_statement_adding_up(demo):
    for accounts in Accounts.objects.select_related("income_statement", "balance_sheet"):
        income, balance = accounts.income_statement, accounts.balance_sheet
        costs = income.cost_of_goods_sold + income.salary_costs + income.depreciation + income.other_operating_costs
        assert income.total_operating_costs == costs
        assert income.operating_result == income.total_operating_income - costs
        assert income.annual_result == income.operating_result + income.financial_income - income.financial_costs - income.tax
        assert balance.total_assets == balance.total_fixed_assets + balance.total_current_assets == balance.total_equity + balance.total_liabilities
        assert balance.total_equity == balance.share_capital + balance.retained_earnings
        assert balance.total_liabilities == balance.long_term_liabilities + balance.short_term_liabilities
        assert balance.short_term_liabilities >= 0 and balance.long_term_liabilities >= 0


def test_it_gives_the_real_registers_filing_companies_accounts_and_head_counts_that_end_at_the_registers(reference_data, tmp_path):
    header, rows = enheter_rows(shared_file("brreg/enheter-selection.csv"))
    sample = [row for row in rows if row["organisasjonsform.kode"] in ("AS", "ASA")][:300]
    enheter_import(path=csv_write(tmp_path / "enheter.csv", header, sample), refresh_analysis=False)
    enheter_import(path=shared_file("brreg/konsern-enheter.csv"), refresh_analysis=False)
    group_ownership_import(path=shared_file("brreg/konsern-roller.csv"), refresh_analysis=False)
    holders = set(CompanyRole.objects.filter(holder_company__isnull=False).values_list("holder_company_id", flat=True))
    holders |= set(Company.objects.filter(nace_code_1__code__startswith="64.2").values_list("uuid", flat=True))
    register_filers = list(Company.objects.filter(last_submitted_accounts_year__isnull=False, organization_type__code__in=("AS", "ASA")).values_list("uuid", "last_submitted_accounts_year", "employees"))

    summary = demo_generate(companies=50, seed=3, today=TODAY, refresh_analysis=False)
    analysis_refresh(today=TODAY)

    assert summary.register_companies == len(register_filers) > 200
    with_people = 0
    for company_uuid, register_year, employees in register_filers:
        years = set(Accounts.objects.filter(company=company_uuid, accounts_type__key=COMPANY, replaced_by__isnull=True).values_list("accounting_year", flat=True))
        assert max(years) >= register_year and years == set(range(min(years), max(years) + 1))
        if employees and company_uuid not in holders:
            periods = list(CompanyEmployment.objects.filter(company=company_uuid).order_by("from_date"))
            assert len(periods) >= 2 and periods[-1].to_date is None and periods[-1].employee_count == employees
            assert all(a.to_date == b.from_date for a, b in zip(periods, periods[1:]))
            assert periods[-1].employee_count_from == periods[-2].employee_count
            measured = dict(CompanyMeasureYearly.objects.filter(company=company_uuid, company_measure_type__key="employees").values_list("measure_year", "measure_value"))
            assert all(measured[year] is not None for year in years), "a head count for every year with accounts"
            with_people += 1
    assert with_people > 20
    # the real group: the listed parent files group accounts, its equity its own less the shares plus its subsidiaries'
    parent = Company.objects.get(org_nr="913748174")
    assert Accounts.objects.filter(company=parent, accounts_type__key=GROUP).exists()
    # a second run adds nothing twice
    assert demo_generate(companies=50, seed=3, today=TODAY, refresh_analysis=False).register_companies == 0
