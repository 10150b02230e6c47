"""What happens to companies over time: register statuses, head-count changes, debts sent to collection."""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta
from datetime import timezone as dt_timezone
from decimal import Decimal

from service.demo.companies.randomness import DemoRandom
from service.demo.companies.rows import DemoRows

# status key -> (share of companies, Company flag, Company date)
STATUSES = {
    "bankrupt": (0.015, "is_bankrupt", "bankrupt_date"),
    "under_liquidation": (0.01, "is_under_liquidation", "under_liquidation_date"),
    "forced_dissolution": (0.004, "is_under_forced_dissolution", "forced_dissolution_date"),
}
CASE_STATUSES = {"open": 40, "settled": 30, "legal_collection": 20, "written_off": 10}


def _moment(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=dt_timezone.utc)


def statuses_add(r: DemoRandom, rows: DemoRows, *, company: dict, risk_types: dict, today: date) -> None:
    """At most one register status, set on the company and opened as a CompanyRiskStatus."""
    for key, (share, flag, date_field) in STATUSES.items():
        if r.chance(share):
            since = r.day_between(max(company["founded_date"], today - timedelta(days=3 * 365)), today)
            company[flag], company[date_field] = True, since
            rows.risk_statuses.append(
                {"uuid": r.uuid(), "company_id": company["uuid"], "company_risk_status_type_id": risk_types[key], "from_date": since, "to_date": None}
            )
            return


def employment_add(r: DemoRandom, rows: DemoRows, *, company: dict, today: date) -> None:
    """For a company without accounts: 1-3 periods of head counts near today's, the open one holding it."""
    current = company["employees"]
    if not current:
        return
    starts = sorted({r.day_between(company["founded_date"], today) for _ in range(r.rng.randint(1, 3))})
    counts = [max(1, round(current * r.rng.uniform(0.75, 1.2))) for _ in starts[:-1]] + [current]
    _periods_add(rows, company=company, periods=list(zip(starts, counts)))


def employment_history_add(
    r: DemoRandom, rows: DemoRows, *, company: dict, counts: dict[int, int], today: date, until: datetime | None = None
) -> None:
    """Head counts that follow the accounts: `counts[year]` holds on 31 December of each year, and
    today's count (the company's) from a day after the newest year. With `until` (the start of a
    period already stored, e.g. the register's), the history ends that day and today's count is
    left to that period."""
    current = company["employees"]
    if not current:
        return
    periods = []
    for year, count in sorted(counts.items()):
        start = max(company["founded_date"], date(year, 1, 1)) if not periods else date(year, 1, 1) + timedelta(days=r.rng.randint(0, 330))
        if start.year == year and (not periods or periods[-1][1] != count):
            periods.append((start, count))
    if until is None and periods[-1][1] != current:
        periods.append((r.day_between(date(max(counts) + 1, 1, 1), today), current))
    periods = [(start, count) for start, count in periods if until is None or _moment(start) < until]
    _periods_add(rows, company=company, periods=periods, until=until)


def _periods_add(rows: DemoRows, *, company: dict, periods: list[tuple[date, int]], until: datetime | None = None) -> None:
    previous = None
    for index, (start, count) in enumerate(periods):
        end = _moment(periods[index + 1][0]) if index + 1 < len(periods) else until
        rows.employment.append(
            {
                "uuid": uuid_of(company, start),
                "company_id": company["uuid"],
                "employee_count": count,
                "employee_date": _moment(start),
                "from_date": _moment(start),
                "to_date": end,
                "employee_count_from": previous,
                "employee_count_to": count,
            }
        )
        previous = count


def uuid_of(company: dict, start: date) -> uuid.UUID:
    """An employment period's uuid from its company and start: deterministic without drawing from the Random."""
    return uuid.uuid5(company["uuid"], f"employment-{start.isoformat()}")


# Who Norwegian companies' unpaid debts are owed to, and how large such claims usually are (NOK, median).
PUBLIC_CREDITORS = {
    "Skatteetaten": (45, 60_000),  # VAT, employer's contributions, withholding tax
    "Statens innkrevingssentral": (10, 15_000),
    "NAV": (3, 25_000),
}
SUPPLIER_WORDS = (
    "Byggvare", "Engros", "Leasing", "Finans", "Eiendom", "Transport", "Energi", "Kontorservice", "Maskin",
    "Revisjon", "Regnskap", "Elektro", "IT-Drift", "Vekst", "Renhold",
)


def _creditor(r: DemoRandom) -> tuple[str, float]:
    if r.chance(0.45):
        name = r.weighted({name: weight for name, (weight, _) in PUBLIC_CREDITORS.items()})
        return name, PUBLIC_CREDITORS[name][1]
    return f"{r.pick(r.last_names)} {r.pick(SUPPLIER_WORDS)} AS".upper(), 20_000


def collection_add(
    r: DemoRandom, rows: DemoRows, *, company: dict, today: date, share: float = 0.05, revenue: float | None = None
) -> None:
    """Debts sent to collection (owed to the tax office, the state's collection agency or a supplier,
    never more than a few weeks' revenue); those that went far enough became payment remarks."""
    if not r.chance(share):
        return
    for number in range(r.rng.randint(1, 3)):
        opened = r.day_between(max(company["founded_date"], today - timedelta(days=3 * 365)), today - timedelta(days=10))
        status = r.weighted(CASE_STATUSES)
        creditor, median = _creditor(r)
        amount = max(1_500, r.lognormal_int(median, 0.9))
        amount = round(amount, -2) if amount >= 10_000 else amount
        if revenue:
            amount = min(amount, max(1_500, round(revenue * 0.05)))
        amount = Decimal(amount)
        closed = r.day_between(opened, today) if status in ("settled", "written_off") else None
        case = {
            "uuid": r.uuid(),
            "debtor_company_id": company["uuid"],
            "creditor_name": creditor,
            "case_reference": f"INK-{opened:%Y}-{company['org_nr']}-{number + 1}",
            "amount": amount,
            "currency_code": "NOK",
            "opened_date": opened,
            "closed_date": closed,
            "status": status,
        }
        rows.collection_cases.append(case)
        if status == "settled" or (status == "open" and not r.chance(0.4)):
            continue
        registered = min(today, opened + timedelta(days=r.rng.randint(30, 120)))
        rows.payment_remarks.append(
            {
                "uuid": r.uuid(),
                "company_id": company["uuid"],
                "collection_case_id": case["uuid"],
                "remark_type": {"open": "debt_collection", "legal_collection": "legal_collection"}.get(status, "distraint"),
                "registered_date": registered,
                "amount": amount,
                "currency_code": "NOK",
                "creditor_name": creditor,
                "settled_date": closed if status == "written_off" and r.chance(0.3) else None,
            }
        )
