"""Turning the service layer's typed answers into what the company page shows (no service calls here)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from django.utils import timezone

from portal.formatting import amount, day, decimal, percent
from portal.service.companies import Accounts, Bucket, EmploymentPeriod, MeasureType
from vakt_format.norwegian import millions

# Rounding asked of the sector benchmark per measure unit: ratios to 3 decimals,
# amounts to thousands of kroner, counts whole.
ROUND_DIGITS_BY_UNIT = {"ratio": 3, "NOK": -3, "count": 0}


def unit_of(measure_key: str, measure_types: Iterable[MeasureType]) -> str:
    return next((t.unit for t in measure_types if t.key == measure_key), "")


def round_digits_for(measure_key: str, measure_types: Iterable[MeasureType]) -> int:
    return ROUND_DIGITS_BY_UNIT.get(unit_of(measure_key, measure_types), 2)


def local_date(moment: datetime | None) -> str:
    """A timestamp as the calendar date in this deployment's time zone."""
    if moment is None:
        return ""
    return timezone.localtime(moment).date().isoformat() if timezone.is_aware(moment) else moment.date().isoformat()


def employment_series(periods: Iterable[EmploymentPeriod]) -> list[dict]:
    """One point per change: date (ISO, and as the axis shows it) and head count, oldest first (the chart's JSON)."""
    points = [
        {"date": local_date(p.from_date or p.reported_at), "count": p.count} for p in periods if p.count is not None
    ]
    for point in points:
        point["label"] = day(point["date"]) if point["date"] else ""
    return sorted(points, key=lambda p: p["date"])


def accounts_by_year(accounts: Iterable[Accounts]) -> list[Accounts]:
    """Current accounts per year and type, newest first; replaced sets are left out of the table."""
    by_key: dict[tuple, Accounts] = {}
    for row in accounts:
        if not row.replaced:
            by_key[(row.year, row.type_key)] = row
    return sorted(by_key.values(), key=lambda r: (-(r.year or 0), r.type_key))


def latest_measure_year(accounts: Iterable[Accounts]) -> int | None:
    years = [a.year for a in accounts if isinstance(a.year, int)]
    return max(years) if years else None


def edge_label(value, unit: str, *, in_millions: bool = False) -> str:
    """A bucket edge on the chart's axis: 41,6 %, 12,5 mill (kroner), 1 200."""
    if unit == "ratio":
        return percent(value)
    if unit == "NOK":
        return millions(value) if in_millions else amount(value)
    if unit == "count":
        return amount(value)
    return decimal(value, 2)


def buckets_chart(buckets: Sequence[Bucket], unit: str = "") -> list[dict]:
    """The histogram's JSON for static/js/charts.js: the numbered bars with their labels already in
    Norwegian format (the chart draws them as given). The bucket of companies without a value
    (id -1) is no bar: the page says how many there are instead."""
    shown = [b for b in buckets if b.id != -1 and b.name != "null"]
    edges = [abs(v) for b in shown for v in (b.lower, b.upper) if v is not None]
    in_millions = unit == "NOK" and bool(edges) and max(edges) >= 1_000_000

    def label(b: Bucket) -> str:
        lower = edge_label(b.lower, unit, in_millions=in_millions) if b.lower is not None else None
        upper = edge_label(b.upper, unit, in_millions=in_millions) if b.upper is not None else None
        if b.name == "underflow" or lower is None:
            return f"below {upper}"
        if b.name == "overflow" or upper is None:
            return f"above {lower}"
        return f"{lower} to {upper}"

    return [{"id": b.id, "label": label(b), "count": b.count} for b in shown]


def without_value_count(buckets: Sequence[Bucket]) -> int:
    return sum(b.count for b in buckets if b.id == -1 or b.name == "null")


def bucket_of(value, buckets: Sequence[Bucket]) -> int | None:
    """The bucket a value falls in, by the service's rule (docs/sector-benchmarking.md): a value on
    an edge goes to the bucket above it, except the last edge, which closes the last numbered
    bucket; underflow and overflow are strictly outside."""
    if value is None:
        return -1 if any(b.id == -1 for b in buckets) else None
    numbered = [b for b in buckets if b.name not in ("null", "underflow", "overflow")]
    for bucket in buckets:
        if bucket.name == "underflow" and bucket.upper is not None and value < bucket.upper:
            return bucket.id
        if bucket.name == "overflow" and bucket.lower is not None and value > bucket.lower:
            return bucket.id
        if bucket in numbered and bucket.lower <= value and (
            value < bucket.upper or (bucket is numbered[-1] and value == bucket.upper)
        ):
            return bucket.id
    return None
