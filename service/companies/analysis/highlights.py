"""AccountsHighlights: ratios computed from one set of accounts' income statement and balance sheet.

Every ratio is null when an input is missing or its denominator is zero or (where a
negative base makes the ratio meaningless) negative; nothing here raises on bad data.
Definitions (docs/analysis.md):

    return_on_assets = (result_before_tax + financial_costs) / total_assets     total_assets > 0
    equity_ratio     = total_equity / total_assets                              total_assets > 0
    return_on_equity = annual_result / total_equity                             total_equity > 0
    operating_margin = operating_result / total_operating_income                total_operating_income > 0
    profit_margin    = annual_result / total_operating_income                   total_operating_income > 0
    current_ratio    = total_current_assets / short_term_liabilities            short_term_liabilities > 0
    debt_ratio       = total_liabilities / total_assets                         total_assets > 0
    revenue_growth   = (toi - toi_prev) / |toi_prev|                            toi_prev != 0

where toi_prev is the total operating income of the previous year's current accounts of
the same accounts type. Values are rounded half-even to 6 decimals; a ratio whose
magnitude reaches 10^13 (a degenerate denominator) is stored as null.
"""

from __future__ import annotations

import uuid
from decimal import ROUND_HALF_EVEN, Context, Decimal, InvalidOperation

from service.companies import models as m
from service.companies.analysis.bulk import upsert
from service.companies.analysis.facts import CompanyFacts, related_or_none

RATIO_FIELDS = (
    "return_on_assets",
    "return_on_equity",
    "equity_ratio",
    "operating_margin",
    "profit_margin",
    "current_ratio",
    "debt_ratio",
    "revenue_growth",
)
QUANTUM = Decimal("0.000001")
LIMIT = Decimal(10) ** 13
_CONTEXT = Context(prec=40)

Ratios = dict[str, Decimal | None]


def ratio(numerator, denominator, *, positive_denominator: bool = True) -> Decimal | None:
    """numerator / denominator rounded to 6 decimals, or None (missing input, zero or bad base)."""
    if numerator is None or denominator is None:
        return None
    numerator, denominator = Decimal(numerator), Decimal(denominator)
    if denominator == 0 or (positive_denominator and denominator < 0):
        return None
    try:
        value = _CONTEXT.divide(numerator, denominator).quantize(QUANTUM, rounding=ROUND_HALF_EVEN)
    except InvalidOperation:
        return None
    return None if abs(value) >= LIMIT else value


def _sum(*values) -> Decimal | None:
    if any(value is None for value in values):
        return None
    return sum((Decimal(value) for value in values), Decimal(0))


def highlights_compute(*, income, balance, previous_income=None) -> Ratios:
    """The ratios of one set of accounts; `income`/`balance` may be None (all their ratios null)."""

    def get(obj, name):
        return getattr(obj, name, None) if obj is not None else None

    total_assets = get(balance, "total_assets")
    toi = get(income, "total_operating_income")
    previous_toi = get(previous_income, "total_operating_income")
    growth = None
    if toi is not None and previous_toi is not None and previous_toi != 0:
        growth = ratio(Decimal(toi) - Decimal(previous_toi), abs(Decimal(previous_toi)))
    return {
        "return_on_assets": ratio(_sum(get(income, "result_before_tax"), get(income, "financial_costs")), total_assets),
        "return_on_equity": ratio(get(income, "annual_result"), get(balance, "total_equity")),
        "equity_ratio": ratio(get(balance, "total_equity"), total_assets),
        "operating_margin": ratio(get(income, "operating_result"), toi),
        "profit_margin": ratio(get(income, "annual_result"), toi),
        "current_ratio": ratio(get(balance, "total_current_assets"), get(balance, "short_term_liabilities")),
        "debt_ratio": ratio(get(balance, "total_liabilities"), total_assets),
        "revenue_growth": growth,
    }


def highlights_for(facts: CompanyFacts) -> dict[uuid.UUID, Ratios]:
    """The ratios of every accounts set of one company (replaced sets included), by accounts uuid."""
    current_by_type = {
        type_key: facts.current_accounts(type_key) for type_key in set(facts.accounts_type_key.values())
    }
    result: dict[uuid.UUID, Ratios] = {}
    for accounts in facts.accounts:
        previous = current_by_type[facts.accounts_type_key[accounts.uuid]].get(accounts.accounting_year - 1)
        result[accounts.uuid] = highlights_compute(
            income=related_or_none(accounts, "income_statement"),
            balance=related_or_none(accounts, "balance_sheet"),
            previous_income=related_or_none(previous, "income_statement") if previous is not None else None,
        )
    return result


def highlights_write(*, batch: list[CompanyFacts], computed: dict[uuid.UUID, Ratios]) -> int:
    """Upsert the highlights whose values changed; returns the number of rows written."""
    rows = []
    for facts in batch:
        for accounts in facts.accounts:
            values = computed[accounts.uuid]
            existing = accounts.highlights
            if existing is not None and all(_same(getattr(existing, f), values[f]) for f in RATIO_FIELDS):
                continue
            rows.append((accounts.uuid, *(values[f] for f in RATIO_FIELDS)))
    return upsert(
        model=m.AccountsHighlights,
        columns=["accounts_id", *RATIO_FIELDS],
        rows=rows,
        conflict=["accounts_id"],
        update=list(RATIO_FIELDS),
    )


def _same(stored, computed) -> bool:
    if stored is None or computed is None:
        return stored is None and computed is None
    return Decimal(stored) == computed
