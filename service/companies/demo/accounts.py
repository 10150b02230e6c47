"""Annual accounts that look like a Norwegian company's: a few years of a business that
grows or shrinks, small companies leaving revenue lines out, some with negative equity,
some unaudited, some replaced (with or without significant changes), and group accounts
for group parents.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from service.companies.demo.randomness import DemoRandom

SALARY_PER_EMPLOYEE = 650_000
REVENUE_PER_EMPLOYEE = 1_600_000
AUDIT_EXEMPT_REVENUE = 7_000_000  # small AS may opt out of audit under this revenue and 10 employees


@dataclass
class Figures:
    income: dict[str, Decimal | None]
    balance: dict[str, Decimal | None]


def _money(value: float) -> Decimal:
    return Decimal(round(value))


def figures_for_year(r: DemoRandom, *, revenue: float, employees: int, equity_ratio: float, small: bool) -> Figures:
    other_income = revenue * r.rng.uniform(0, 0.05)
    total_income = revenue + other_income
    salary = employees * SALARY_PER_EMPLOYEE * r.rng.uniform(0.8, 1.25)
    cost_of_goods = revenue * r.rng.uniform(0.15, 0.55)
    depreciation = revenue * r.rng.uniform(0.01, 0.05)
    other_costs = revenue * r.rng.uniform(0.05, 0.25)
    total_costs = salary + cost_of_goods + depreciation + other_costs
    operating_result = total_income - total_costs
    financial_income = revenue * r.rng.uniform(0, 0.01)
    total_assets = max(50_000.0, revenue * r.rng.uniform(0.4, 1.4))
    financial_costs = total_assets * (1 - equity_ratio) * r.rng.uniform(0.01, 0.05) if equity_ratio < 1 else 0.0
    before_tax = operating_result + financial_income - financial_costs
    tax = max(0.0, before_tax * 0.22)
    income = {
        "total_sales": _money(revenue),
        "other_operating_income": _money(other_income),
        "total_operating_income": _money(total_income),
        "cost_of_goods_sold": _money(cost_of_goods),
        "salary_costs": _money(salary),
        "depreciation": _money(depreciation),
        "other_operating_costs": _money(other_costs),
        "total_operating_costs": _money(total_costs),
        "operating_result": _money(operating_result),
        "financial_income": _money(financial_income),
        "financial_costs": _money(financial_costs),
        "result_before_tax": _money(before_tax),
        "tax": _money(tax),
        "annual_result": _money(before_tax - tax),
    }
    if small and r.chance(0.5):
        # Small companies may report only the total.
        income["total_sales"] = income["other_operating_income"] = None
    equity = total_assets * equity_ratio
    fixed = total_assets * r.rng.uniform(0.1, 0.6)
    current = total_assets - fixed
    liabilities = total_assets - equity
    long_term = max(0.0, liabilities * r.rng.uniform(0, 0.6))
    share_capital = 30_000.0 if small else max(30_000.0, equity * 0.1)
    balance = {
        "intangible_assets": _money(fixed * 0.05),
        "tangible_fixed_assets": _money(fixed * 0.75),
        "financial_fixed_assets": _money(fixed * 0.2),
        "total_fixed_assets": _money(fixed),
        "inventory": _money(current * 0.2),
        "receivables": _money(current * 0.4),
        "cash_and_bank": _money(current * 0.4),
        "total_current_assets": _money(current),
        "total_assets": _money(total_assets),
        "share_capital": _money(share_capital),
        "retained_earnings": _money(equity - share_capital),
        "total_equity": _money(equity),
        "long_term_liabilities": _money(long_term),
        "short_term_liabilities": _money(liabilities - long_term),
        "total_liabilities": _money(liabilities),
        "total_equity_and_liabilities": _money(total_assets),
    }
    return Figures(income, balance)


def figures_changed(r: DemoRandom, figures: Figures, *, significant: bool) -> Figures:
    """A corrected set: key figures moved by more than 10% when significant, else by a few percent."""
    factor = r.rng.uniform(1.12, 1.35) if significant else r.rng.uniform(1.005, 1.03)
    if r.chance(0.5):
        factor = 2 - factor
    scaled = ("total_operating_income", "total_sales", "operating_result", "result_before_tax", "annual_result", "tax")
    income = {k: (v * Decimal(str(round(factor, 4)))).quantize(Decimal(1)) if v is not None and k in scaled else v for k, v in figures.income.items()}
    return Figures(income, dict(figures.balance))


def figures_sum(parts: list[Figures]) -> Figures:
    """Consolidated figures of a group: the members' lines added up (intra-group items ignored)."""

    def add(name: str, section: str) -> Decimal | None:
        values = [getattr(part, section)[name] for part in parts if getattr(part, section)[name] is not None]
        return sum(values, Decimal(0)) if values else None

    first = parts[0]
    return Figures(
        {name: add(name, "income") for name in first.income},
        {name: add(name, "balance") for name in first.balance},
    )


def accounts_years(r: DemoRandom, *, today: date, founded: date) -> list[int]:
    """3-6 consecutive years ending with the newest filed year (last year's, or the year before's);
    fewer for a company founded since, none for one founded after it."""
    newest = today.year - 1 if today.month > 6 and r.chance(0.85) else today.year - 2
    count = r.rng.randint(3, 6)
    first = max(founded.year, newest - count + 1)
    return list(range(first, newest + 1))
