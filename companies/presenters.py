"""Turning API answers into what the company page shows (no service calls here)."""

from __future__ import annotations

from collections import defaultdict

from django.utils import timezone
from django.utils.dateparse import parse_datetime

# Rounding asked of the sector benchmark per measure unit: ratios to 3 decimals,
# amounts to thousands of kroner, counts whole.
ROUND_DIGITS_BY_UNIT = {"ratio": 3, "NOK": -3, "count": 0}


def round_digits_for(measure_key: str, measure_types: list[dict]) -> int:
    unit = next((t.get("unit") for t in measure_types if t.get("company_measure_type_key") == measure_key), None)
    return ROUND_DIGITS_BY_UNIT.get(unit or "", 2)


def local_date(timestamp: str | None) -> str:
    """An API timestamp as the calendar date in this deployment's time zone."""
    moment = parse_datetime(timestamp or "")
    if moment is None:
        return (timestamp or "")[:10]
    return timezone.localtime(moment).date().isoformat() if timezone.is_aware(moment) else moment.date().isoformat()


def address_of(company: dict, kind: str = "business") -> dict | None:
    """The company's address of a kind, flattened for display."""
    for address in company.get("addresses") or []:
        if address.get("address_type_key") == kind:
            postal = address.get("geo_postal_code") or {}
            municipality = address.get("geo_municipality") or {}
            return {
                "street": address.get("address") or "",
                "postal_code": postal.get("code", ""),
                "postal_place": postal.get("place_name", ""),
                "municipality": municipality.get("name", ""),
                "county": (address.get("geo_subdivision") or {}).get("name", ""),
            }
    return None


def employment_series(elements: list[dict]) -> list[dict]:
    """One point per change: date and head count, oldest first (for the chart)."""
    points = [
        {"date": local_date(e.get("from_date") or e.get("employee_date")), "count": e.get("employee_count")}
        for e in elements
        if e.get("employee_count") is not None
    ]
    return sorted(points, key=lambda p: p["date"])


def accounts_by_year(elements: list[dict]) -> list[dict]:
    """Current accounts per year and type, newest first; replaced sets are left out of the table."""
    rows = []
    for element in elements:
        accounts = element.get("accounts") or {}
        rows.append(
            {
                "year": accounts.get("accounting_year"),
                "type": (element.get("accounts_type") or {}).get("accounts_type_key", ""),
                "accounts": accounts,
                "income": element.get("accounts_income_statement") or {},
                "balance": element.get("accounts_balance_sheet") or {},
                "highlights": element.get("accounts_highlights") or {},
                "replaced": bool(accounts.get("replaced_by_accounts_uuid")),
            }
        )
    by_key: dict[tuple, dict] = defaultdict(dict)
    for row in rows:
        if not row["replaced"]:
            by_key[(row["year"], row["type"])] = row
    return sorted(by_key.values(), key=lambda r: (-(r["year"] or 0), r["type"]))


def latest_measure_year(elements: list[dict]) -> int | None:
    years = [(e.get("accounts") or {}).get("accounting_year") for e in elements]
    years = [y for y in years if isinstance(y, int)]
    return max(years) if years else None


def bucket_of(value, buckets: list[dict]) -> int | None:
    """The bucket a value falls in, by the service's rule (docs/sector-benchmarking.md): a value on
    an edge goes to the bucket above it, except the last edge, which closes the last numbered
    bucket; underflow and overflow are strictly outside."""
    if value is None:
        return -1 if any(b["bucket_id"] == -1 for b in buckets) else None
    numbered = [b for b in buckets if b["bucket_name"] not in ("null", "underflow", "overflow")]
    for bucket in buckets:
        name, lower, upper = bucket["bucket_name"], bucket["bucket_lower_bound"], bucket["bucket_upper_bound"]
        if name == "underflow" and upper is not None and value < upper:
            return bucket["bucket_id"]
        if name == "overflow" and lower is not None and value > lower:
            return bucket["bucket_id"]
        if bucket in numbered and lower <= value and (value < upper or (bucket is numbered[-1] and value == upper)):
            return bucket["bucket_id"]
    return None
