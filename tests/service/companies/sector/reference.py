"""The test oracle: the expected sector aggregate, computed independently from the raw measures.

Nothing here imports the service's sector package. numpy gives the statistics
(np.quantile `linear`, np.mean, np.median, np.std with ddof=0); the bucket
layout is worked out again with Fractions by trying every candidate width, and
the buckets are filled value by value.
"""

from __future__ import annotations

import math
import uuid
from decimal import Decimal
from fractions import Fraction

import numpy as np

from .builders import MISSING

MANTISSAS = (Fraction(1), Fraction(2), Fraction(5, 2), Fraction(5))


def _fraction_of(value: float) -> Fraction:
    """The documented reading of a double: its value at 15 significant digits."""
    return Fraction(Decimal(f"{value:.15g}"))


def expected_layout(
    *, lower: float, upper: float, round_digits: int, max_buckets: int
) -> tuple[Fraction, Fraction, int]:
    """(start, width, count) of the numbered buckets."""
    low, high = _fraction_of(lower), _fraction_of(upper)
    unit = Fraction(10) ** -round_digits
    widths = {mantissa * Fraction(10) ** exponent for exponent in range(-round_digits - 1, 40) for mantissa in MANTISSAS}
    candidates = sorted(width for width in widths if width >= unit and (width / unit).denominator == 1)
    for width in candidates:
        start = math.floor(low / width) * width
        count = max(1, math.ceil((high - start) / width))
        if count <= max_buckets:
            return start, width, count
    start, end = math.floor(low / unit) * unit, math.ceil(high / unit) * unit
    return start, max(end - start, unit), 1


def round_half_up(value: float, round_digits: int) -> float:
    unit = Fraction(10) ** -round_digits
    scaled = _fraction_of(value) / unit
    whole = math.floor(abs(scaled) + Fraction(1, 2))
    return float(math.copysign(whole, scaled) * unit) + 0.0


def expected_aggregate(
    *,
    measures: dict[uuid.UUID, object],
    lower_percentile: float = 0.1,
    upper_percentile: float = 0.9,
    round_digits: int = 0,
    max_number_of_buckets: int = 10,
    number_of_highest: int = 3,
    number_of_lowest: int = 3,
) -> dict:
    """Unrounded statistics (`raw`), rounded boundaries, buckets and the ranked company uuids.

    `measures` maps each company of the filtered set to its value (Decimal-like),
    None (row without a value) or MISSING (no row).
    """
    present = {company: float(Decimal(str(v))) for company, v in measures.items() if v is not None and v is not MISSING}
    values = np.array(list(present.values()), dtype=float)
    total, not_null = len(measures), len(values)
    zero_imputed = np.concatenate([values, np.zeros(total - not_null)])
    raw = {
        "average_value": float(np.mean(values)) if not_null else None,
        "median_value": float(np.median(values)) if not_null else None,
        "min_value": float(np.min(values)) if not_null else None,
        "max_value": float(np.max(values)) if not_null else None,
        "standard_deviation": float(np.std(values, ddof=0)) if not_null else None,
        "average_zero_imputed": float(np.mean(zero_imputed)) if total else None,
        "median_zero_imputed": float(np.median(zero_imputed)) if total else None,
        "standard_deviation_zero_imputed": float(np.std(zero_imputed, ddof=0)) if total else None,
        "lower_percentile_value": None,
        "upper_percentile_value": None,
    }
    buckets = [{"bucket_id": -1, "bucket_name": "null", "bounds": (None, None), "count": total - not_null}]
    lower_bound = upper_bound = number_of_buckets = None
    if not_null:
        p_low, p_high = (float(q) for q in np.quantile(values, [lower_percentile, upper_percentile], method="linear"))
        raw["lower_percentile_value"], raw["upper_percentile_value"] = p_low, p_high
        start, width, number_of_buckets = expected_layout(
            lower=p_low, upper=p_high, round_digits=round_digits, max_buckets=max_number_of_buckets
        )
        edges = [float(start + width * i) for i in range(number_of_buckets + 1)]
        lower_bound, upper_bound = edges[0], edges[-1]
        counts = [0] * (number_of_buckets + 2)  # underflow, 1..n, overflow
        for value in values:
            if value < edges[0]:
                counts[0] += 1
            elif value > edges[-1]:
                counts[-1] += 1
            else:
                bucket = next(i for i in range(1, number_of_buckets + 1) if value < edges[i] or i == number_of_buckets)
                counts[bucket] += 1
        buckets.append({"bucket_id": 0, "bucket_name": "underflow", "bounds": (None, edges[0]), "count": counts[0]})
        for i in range(1, number_of_buckets + 1):
            bounds = (edges[i - 1], edges[i])
            buckets.append({"bucket_id": i, "bucket_name": str(i), "bounds": bounds, "count": counts[i]})
        overflow_id = number_of_buckets + 1
        buckets.append(
            {"bucket_id": overflow_id, "bucket_name": "overflow", "bounds": (edges[-1], None), "count": counts[-1]}
        )
    else:
        buckets.append({"bucket_id": 0, "bucket_name": "underflow", "bounds": (None, None), "count": 0})
        buckets.append({"bucket_id": 1, "bucket_name": "overflow", "bounds": (None, None), "count": 0})
    for bucket in buckets:
        bucket["percentage_of_total"] = 100.0 * bucket["count"] / total if total else None
        bucket["percentage_of_not_null"] = (
            100.0 * bucket["count"] / not_null if not_null and bucket["bucket_id"] != -1 else None
        )
    highest = sorted(present, key=lambda company: (-present[company], company))[:number_of_highest]
    lowest = sorted(present, key=lambda company: (present[company], company))[:number_of_lowest]
    return {
        "total_count": total,
        "not_null_count": not_null,
        "null_count": total - not_null,
        "raw": raw,
        "lower_percentile": lower_bound,
        "upper_percentile": upper_bound,
        "number_of_buckets": number_of_buckets,
        "buckets": buckets,
        "highest": [(str(company), present[company]) for company in highest],
        "lowest": [(str(company), present[company]) for company in lowest],
    }


def assert_rounded(actual: float | None, raw: float | None, round_digits: int) -> None:
    """`actual` is `raw` rounded to `round_digits`: on the rounding grid and within half a unit of it.

    A tolerance, not equality, because the service may add floats in another order
    than numpy here does, which can move a value sitting exactly on a half unit.
    """
    if raw is None:
        assert actual is None
        return
    assert actual is not None
    unit = Fraction(10) ** -round_digits
    assert (Fraction(Decimal(repr(actual))) / unit).denominator == 1, f"{actual} is not a multiple of {unit}"
    slack = float(unit) / 2 * (1 + 1e-9) + 1e-9 * abs(raw)
    assert abs(actual - raw) <= slack, f"{actual} is not {raw} rounded to {round_digits} digits"


def assert_matches(body: dict, expected: dict, *, round_digits: int) -> None:
    """Compare every field of a response composite with the oracle."""
    aggregate = body["sector_measure_yearly_aggregate"]
    for name in ("total_count", "not_null_count", "null_count", "lower_percentile", "upper_percentile"):
        assert aggregate[name] == expected[name], name
    for name, raw in expected["raw"].items():
        assert_rounded(aggregate[name], raw, round_digits)
    assert body["company_measure_yearly_filters"]["number_of_buckets"] == expected["number_of_buckets"]
    buckets = body["company_measure_yearly_buckets"]
    assert [b["bucket_id"] for b in buckets] == [b["bucket_id"] for b in expected["buckets"]]
    for bucket, wanted in zip(buckets, expected["buckets"], strict=True):
        assert bucket["bucket_name"] == wanted["bucket_name"]
        assert (bucket["bucket_lower_bound"], bucket["bucket_upper_bound"]) == wanted["bounds"], wanted["bucket_name"]
        assert bucket["company_count"] == wanted["count"], wanted["bucket_name"]
        for name, key in (("company_percentage_of_total", "percentage_of_total"),
                          ("company_percentage_of_not_null", "percentage_of_not_null")):  # fmt: skip
            if wanted[key] is None:
                assert bucket[name] is None
            else:
                assert bucket[name] == wanted[key] or math.isclose(bucket[name], wanted[key], rel_tol=1e-12)
    for name, key in (("highest_company_measure_yearly_composites", "highest"),
                      ("lowest_company_measure_yearly_composites", "lowest")):  # fmt: skip
        ranked = [
            (item["company"]["uuid"], item["company_measure_yearly"]["measure_value"]) for item in aggregate[name]
        ]
        assert ranked == expected[key], name
        for item in aggregate[name]:
            assert item["company_measure_yearly"]["company_uuid"] == item["company"]["uuid"]
