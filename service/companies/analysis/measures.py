"""CompanyMeasureYearly: one value per company, measure type (catalog.MEASURE_TYPES) and year.

Source: the company's CURRENT (not replaced) `annual_company_accounts` of each year.
Group accounts are deliberately not used, not even as a fallback: the measures feed
sector benchmarks of single companies, and a parent's consolidated figures would put
the whole group's revenue and assets into its sector as if they were its own.

A row is written for every measure type and every year that has current company
accounts; its value is null when the input is missing. Rows for years that no longer
have current company accounts are deleted. `employees` is the head count of the
employment period covering 31 December of the year; a company without any employment
history gets `Company.employees` for its latest accounts year only.
"""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal

from django.utils import timezone

from service.companies import models as m
from service.companies.analysis.bulk import upsert
from service.companies.analysis.facts import CompanyFacts, related_or_none
from service.companies.analysis.highlights import Ratios
from service.companies.catalog import MEASURE_TYPES

INCOME_MEASURES = ("total_operating_income", "operating_result", "result_before_tax", "annual_result")
BALANCE_MEASURES = ("total_assets", "total_equity")
RATIO_MEASURES = ("equity_ratio", "return_on_assets", "return_on_equity", "operating_margin", "current_ratio",
                  "revenue_growth")

MeasureKey = tuple[str, int]  # (measure type key, year)


def employees_at_year_end(facts: CompanyFacts, year: int) -> int | None:
    year_end = date(year, 12, 31)
    covering = [
        period
        for period in facts.employment
        if period.from_date <= year_end and (period.to_date is None or period.to_date > year_end)
    ]
    if covering:
        return max(covering, key=lambda period: period.from_date).employee_count
    return None


def measures_compute(facts: CompanyFacts, highlights: dict[uuid.UUID, Ratios]) -> dict[MeasureKey, Decimal | None]:
    values: dict[MeasureKey, Decimal | None] = {}
    current = facts.current_accounts()
    latest_year = max(current) if current else None
    for year, accounts in current.items():
        income = related_or_none(accounts, "income_statement")
        balance = related_or_none(accounts, "balance_sheet")
        for key in INCOME_MEASURES:
            values[(key, year)] = _dec(getattr(income, key, None) if income is not None else None)
        for key in BALANCE_MEASURES:
            values[(key, year)] = _dec(getattr(balance, key, None) if balance is not None else None)
        ratios = highlights[accounts.uuid]
        for key in RATIO_MEASURES:
            values[(key, year)] = ratios[key]
        employees = employees_at_year_end(facts, year)
        if employees is None and not facts.employment and year == latest_year:
            employees = facts.company.employees
        values[("employees", year)] = _dec(employees)
    unknown = {key for key, _ in values} - set(MEASURE_TYPES)
    assert not unknown, f"measures outside the catalogue: {unknown}"
    return values


def _dec(value) -> Decimal | None:
    return None if value is None else Decimal(value)


def measures_write(
    *,
    batch: list[CompanyFacts],
    computed: dict[uuid.UUID, dict[MeasureKey, Decimal | None]],
    contiguous: bool = False,
) -> int:
    """Upsert changed measures and delete measures whose year has no current company accounts."""
    type_uuid = dict(m.CompanyMeasureType.objects.values_list("key", "uuid"))
    type_key = {value: key for key, value in type_uuid.items()}
    ids = [facts.uuid for facts in batch]
    scope = {"company_id__gte": ids[0], "company_id__lte": ids[-1]} if contiguous else {"company_id__in": ids}
    existing: dict[tuple[uuid.UUID, str, int], tuple[uuid.UUID, Decimal | None]] = {}
    for row_uuid, company_id, measure_type_id, year, value in m.CompanyMeasureYearly.objects.filter(
        **scope
    ).values_list("uuid", "company_id", "company_measure_type_id", "measure_year", "measure_value"):
        existing[(company_id, type_key[measure_type_id], year)] = (row_uuid, value)

    now = timezone.now()
    rows, stale = [], []
    for facts in batch:
        for (key, year), value in computed[facts.uuid].items():
            old = existing.get((facts.uuid, key, year))
            if old is not None and _same(old[1], value):
                continue
            rows.append((facts.uuid, type_uuid[key], year, value, now))
    for (company_id, key, year), (row_uuid, _) in existing.items():
        if company_id in computed and (key, year) not in computed[company_id]:
            stale.append(row_uuid)
    upsert(
        model=m.CompanyMeasureYearly,
        columns=["company_id", "company_measure_type_id", "measure_year", "measure_value", "update_timestamp"],
        rows=rows,
        conflict=["company_id", "company_measure_type_id", "measure_year"],
        update=["measure_value", "update_timestamp"],
    )
    if stale:
        m.CompanyMeasureYearly.objects.filter(uuid__in=stale).delete()
    return len(rows) + len(stale)


def _same(stored, computed) -> bool:
    if stored is None or computed is None:
        return stored is None and computed is None
    return Decimal(stored) == Decimal(computed)
