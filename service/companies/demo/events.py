"""What happens to companies over time: register statuses, head-count changes, debts sent to collection."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from datetime import timezone as dt_timezone
from decimal import Decimal

from service.companies.demo.randomness import DemoRandom
from service.companies.demo.rows import DemoRows

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
    """1-4 periods with changing head counts, the open one holding today's count."""
    current = company["employees"]
    if not current:
        return
    periods = r.rng.randint(1, 4)
    starts = sorted({r.day_between(company["founded_date"], today) for _ in range(periods)})
    counts = [max(1, round(current * r.rng.uniform(0.5, 1.4))) for _ in starts[:-1]] + [current]
    previous = None
    for index, (start, count) in enumerate(zip(starts, counts)):
        end = starts[index + 1] if index + 1 < len(starts) else None
        rows.employment.append(
            {
                "uuid": r.uuid(),
                "company_id": company["uuid"],
                "employee_count": count,
                "employee_date": _moment(start),
                "from_date": _moment(start),
                "to_date": _moment(end) if end else None,
                "employee_count_from": previous,
                "employee_count_to": count,
            }
        )
        previous = count


def collection_add(r: DemoRandom, rows: DemoRows, *, company: dict, today: date, share: float = 0.05) -> None:
    """Debts sent to collection; those that went far enough became payment remarks."""
    if not r.chance(share):
        return
    for number in range(r.rng.randint(1, 3)):
        opened = r.day_between(max(company["founded_date"], today - timedelta(days=3 * 365)), today - timedelta(days=10))
        status = r.weighted(CASE_STATUSES)
        amount = Decimal(max(500, r.lognormal_int(15_000, 1.0)))
        creditor = r.company_name("AS")
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
