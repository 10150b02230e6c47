"""AccountsHighlights computed by analysis_refresh, checked against ratios recomputed here."""

from decimal import Decimal

import pytest

from service.companies import models as m
from service.companies.analysis import analysis_refresh
from service.companies.analysis.highlights import highlights_compute, ratio
from tests.service.companies.factories import HEALTHY_BALANCE, HEALTHY_INCOME, accounts_make, company_make

pytestmark = pytest.mark.django_db


def q(value: float) -> Decimal:
    return Decimal(str(round(value, 6))).quantize(Decimal("0.000001"))


def test_it_computes_every_ratio_from_the_statements():
    company = company_make()
    accounts_make(company=company, year=2023, income={"total_operating_income": Decimal("8000000")})
    accounts = accounts_make(company=company, year=2024)

    analysis_refresh(company_uuids=[company.uuid])

    h = m.AccountsHighlights.objects.get(accounts=accounts)
    inc, bal = HEALTHY_INCOME, HEALTHY_BALANCE
    assert h.return_on_assets == q(float(inc["result_before_tax"] + inc["financial_costs"]) / float(bal["total_assets"]))
    assert h.return_on_assets == Decimal("0.127500")  # (920000 + 100000) / 8000000
    assert h.equity_ratio == q(3_200_000 / 8_000_000)
    assert h.return_on_equity == q(720_000 / 3_200_000)
    assert h.operating_margin == q(1_000_000 / 10_000_000)
    assert h.profit_margin == q(720_000 / 10_000_000)
    assert h.current_ratio == q(4_000_000 / 2_000_000)
    assert h.debt_ratio == q(4_800_000 / 8_000_000)
    assert h.revenue_growth == q((10_000_000 - 8_000_000) / 8_000_000)


def test_it_gives_null_for_missing_inputs_and_zero_denominators():
    company = company_make()
    accounts = accounts_make(
        company=company,
        year=2024,
        income={"financial_costs": None, "total_operating_income": Decimal(0)},
        balance={"total_assets": Decimal(0), "short_term_liabilities": None, "total_equity": Decimal("-5")},
    )

    analysis_refresh(company_uuids=[company.uuid])

    h = m.AccountsHighlights.objects.get(accounts=accounts)
    assert h.return_on_assets is None  # financial costs missing (and total assets zero)
    assert h.equity_ratio is None and h.debt_ratio is None  # total assets zero
    assert h.operating_margin is None and h.profit_margin is None  # no operating income
    assert h.current_ratio is None  # short-term liabilities missing
    assert h.return_on_equity is None  # negative equity makes ROE meaningless
    assert h.revenue_growth is None  # no previous year


def test_it_writes_null_highlights_for_accounts_without_statements():
    company = company_make()
    accounts = accounts_make(company=company, year=2024, income=None, balance=None)

    analysis_refresh(company_uuids=[company.uuid])

    h = m.AccountsHighlights.objects.get(accounts=accounts)
    assert all(getattr(h, f) is None for f in ("return_on_assets", "equity_ratio", "revenue_growth"))


def test_revenue_growth_uses_the_current_previous_year_of_the_same_type():
    company = company_make()
    old = accounts_make(company=company, year=2023, income={"total_operating_income": Decimal("1000")})
    accounts_make(company=company, year=2023, income={"total_operating_income": Decimal("5000000")}, replaces=old)
    accounts_make(
        company=company, year=2023, type_key="annual_corporate_group_accounts",
        income={"total_operating_income": Decimal("50000000")},
    )
    accounts = accounts_make(company=company, year=2024)

    analysis_refresh(company_uuids=[company.uuid])

    assert m.AccountsHighlights.objects.get(accounts=accounts).revenue_growth == q((10_000_000 - 5_000_000) / 5_000_000)


def test_negative_previous_revenue_gives_growth_against_its_magnitude():
    assert highlights_compute(
        income=type("I", (), {"total_operating_income": Decimal(50)})(),
        balance=None,
        previous_income=type("I", (), {"total_operating_income": Decimal(-100)})(),
    )["revenue_growth"] == Decimal("1.500000")


def test_ratio_guards_degenerate_values():
    assert ratio(None, 1) is None
    assert ratio(1, None) is None
    assert ratio(1, 0) is None
    assert ratio(1, -2) is None
    assert ratio(1, -2, positive_denominator=False) == Decimal("-0.500000")
    assert ratio(Decimal("1e15"), Decimal("0.01")) is None  # would not fit the column


def test_a_second_refresh_writes_nothing_when_nothing_changed():
    company = company_make()
    accounts_make(company=company, year=2024)
    analysis_refresh(company_uuids=[company.uuid])

    summary = analysis_refresh(company_uuids=[company.uuid])

    assert summary.rows_written == {"risk_statuses": 0, "highlights": 0, "measures": 0, "flags": 0, "credit_risk": 0}


def test_a_refresh_of_everything_runs_in_batches_with_a_fixed_number_of_queries(django_assert_max_num_queries):
    companies = [company_make() for _ in range(12)]
    for company in companies:
        accounts_make(company=company, year=2023)
        accounts_make(company=company, year=2024)

    with django_assert_max_num_queries(4 * 22):  # 3 batches of 5 companies + the empty keyset probe
        summary = analysis_refresh(batch_size=5)

    assert summary.batches == 3 and summary.companies == 12
    assert m.AccountsHighlights.objects.count() == 24
