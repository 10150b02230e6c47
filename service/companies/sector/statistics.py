"""The arithmetic of a sector aggregate: statistics, percentiles, rounding and the bucket layout.

Pure numpy and Decimal, no Django, no database: the service fetches the filtered
values once and everything here works on whole arrays. The definitions are the
ones in docs/sector-benchmarking.md:

- values are compared and averaged as IEEE doubles (float64), as PostgreSQL's
  `percentile_cont` does;
- percentiles are numpy's `linear` method (= `percentile_cont`) over non-null values;
- standard deviations are population ones (ddof=0): the filtered set is the
  whole peer group, not a sample of it;
- zero-imputed statistics treat every company without a value as a zero;
- round_digits rounds half away from zero after taking the value to 15
  significant digits (what a double holds reliably), so float noise such as
  0.24999999999999997 rounds like the 0.25 it stands for;
- buckets have a "nice" width (1, 2, 2.5 or 5 times a power of ten, never finer
  than 10^-round_digits), the smallest that covers the lower and upper
  percentile in at most max_number_of_buckets buckets, and start at the lower
  percentile rounded down to a multiple of that width. Every numbered bucket
  is [lower, upper) except the last, which is [lower, upper]; underflow is
  strictly below the first bound and overflow strictly above the last.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal, localcontext

import numpy as np

NICE_MANTISSAS = (Decimal(1), Decimal(2), Decimal("2.5"), Decimal(5))
SIGNIFICANT_DIGITS = 15
# Enough digits for any measure (24 digits, 6 decimals) divided by any width.
_DECIMAL_PRECISION = 80


# --- rounding ------------------------------------------------------------------------------------


def decimal_of(value: float) -> Decimal:
    """The decimal a double stands for: its value at 15 significant digits."""
    return Decimal(format(value, f".{SIGNIFICANT_DIGITS}g"))


def round_unit(*, round_digits: int) -> Decimal:
    """10^-round_digits: 0.01 for 2, 1 for 0, 100 for -2."""
    return Decimal(1).scaleb(-round_digits)


def round_value(value: float | None, *, round_digits: int) -> float | None:
    """Round half away from zero to `round_digits` decimals (negative: tens, hundreds, ...)."""
    if value is None:
        return None
    with localcontext(prec=_DECIMAL_PRECISION):
        rounded = decimal_of(value).quantize(round_unit(round_digits=round_digits), rounding=ROUND_HALF_UP)
    return float(rounded) + 0.0  # + 0.0 turns -0.0 into 0.0


# --- summary statistics ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """Statistics over the non-null values and with the nulls as zeros, unrounded."""

    total_count: int
    not_null_count: int
    null_count: int
    average_value: float | None
    median_value: float | None
    min_value: float | None
    max_value: float | None
    standard_deviation: float | None
    average_zero_imputed: float | None
    median_zero_imputed: float | None
    standard_deviation_zero_imputed: float | None


def summarize(*, values: np.ndarray, null_count: int) -> Summary:
    """`values` are the non-null values (any order); `null_count` companies have none."""
    not_null_count = int(values.size)
    total_count = not_null_count + null_count
    present = not_null_count > 0
    zero_imputed = np.concatenate([values, np.zeros(null_count)]) if total_count else values
    return Summary(
        total_count=total_count,
        not_null_count=not_null_count,
        null_count=null_count,
        average_value=float(np.mean(values)) if present else None,
        median_value=float(np.median(values)) if present else None,
        min_value=float(np.min(values)) if present else None,
        max_value=float(np.max(values)) if present else None,
        standard_deviation=float(np.std(values)) if present else None,
        average_zero_imputed=float(np.mean(zero_imputed)) if total_count else None,
        median_zero_imputed=float(np.median(zero_imputed)) if total_count else None,
        standard_deviation_zero_imputed=float(np.std(zero_imputed)) if total_count else None,
    )


def percentiles(*, values: np.ndarray, fractions: list[float]) -> list[float]:
    """numpy's `linear` method, the same definition as PostgreSQL's percentile_cont."""
    return [float(v) for v in np.quantile(values, fractions, method="linear")]


# --- the bucket layout ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class BucketLayout:
    """`count` numbered buckets of `width` from `start`; bounds are exact decimals."""

    start: Decimal
    width: Decimal
    count: int

    @property
    def end(self) -> Decimal:
        return self.start + self.width * self.count

    @property
    def edges(self) -> list[Decimal]:
        return [self.start + self.width * i for i in range(self.count + 1)]


def _nice_widths(*, unit: Decimal, reach: Decimal) -> Iterator[Decimal]:
    """1, 2, 2.5 and 5 times powers of ten that are multiples of `unit` (itself a power of ten),
    ascending from `unit` to 5 times the first power of ten past `reach`."""
    for exponent in range(unit.adjusted(), reach.adjusted() + 2):
        for mantissa in NICE_MANTISSAS:
            width = mantissa.scaleb(exponent)
            if width % unit == 0:
                yield width


def _buckets_needed(*, lower: Decimal, upper: Decimal, width: Decimal) -> tuple[Decimal, int]:
    start = (lower / width).to_integral_value(rounding=ROUND_FLOOR) * width
    count = int(((upper - start) / width).to_integral_value(rounding=ROUND_CEILING))
    return start, max(1, count)


def bucket_layout(
    *, lower_value: float, upper_value: float, round_digits: int, max_number_of_buckets: int
) -> BucketLayout:
    """The smallest nice width that covers [lower_value, upper_value] in at most the allowed buckets.

    Equal percentiles (identical data points, benchmark rule 4) need no special
    case: they give one bucket of width 10^-round_digits.
    """
    if max_number_of_buckets < 1:
        raise ValueError("max_number_of_buckets must be at least 1")
    with localcontext(prec=_DECIMAL_PRECISION):
        lower, upper = decimal_of(lower_value), decimal_of(upper_value)
        unit = round_unit(round_digits=round_digits)
        # Past twice the largest magnitude every width gives the same one or two buckets.
        reach = 2 * max(abs(lower), abs(upper), unit)
        for width in _nice_widths(unit=unit, reach=reach):
            start, count = _buckets_needed(lower=lower, upper=upper, width=width)
            if count <= max_number_of_buckets:
                return BucketLayout(start=start, width=width, count=count)
        # Only with one bucket allowed and zero strictly inside the range: zero is an edge
        # of every nice width, so the one bucket spans the range rounded outward instead.
        start = (lower / unit).to_integral_value(rounding=ROUND_FLOOR) * unit
        end = (upper / unit).to_integral_value(rounding=ROUND_CEILING) * unit
        return BucketLayout(start=start, width=max(end - start, unit), count=1)


def bucket_counts(*, sorted_values: np.ndarray, edges: list[Decimal]) -> tuple[int, list[int], int]:
    """(underflow, numbered bucket counts, overflow) of ascending values; the last bucket is closed."""
    bounds = np.array([float(edge) for edge in edges])
    below = np.searchsorted(sorted_values, bounds, side="left")
    up_to_last = int(np.searchsorted(sorted_values, bounds[-1], side="right"))
    cumulative = np.append(below[:-1], up_to_last)
    numbered = np.diff(cumulative).tolist()
    return int(below[0]), numbered, int(sorted_values.size - up_to_last)


# --- top and bottom --------------------------------------------------------------------------------


def ranked_indices(*, values: np.ndarray, tie_keys: np.ndarray, count: int, highest: bool) -> list[int]:
    """Indices of the `count` highest (or lowest) values; equal values in ascending `tie_keys` order.

    `tie_keys` is an (n, k) integer array compared column by column (a uuid as two
    big-endian uint64 halves). Only the candidates at or past the cut are sorted.
    """
    count = min(count, int(values.size))
    if count <= 0:
        return []
    ascending = -values if highest else values
    cut = np.partition(ascending, count - 1)[count - 1]
    candidates = np.flatnonzero(ascending <= cut)
    sort_keys = [tie_keys[candidates, column] for column in reversed(range(tie_keys.shape[1]))]
    order = np.lexsort([*sort_keys, ascending[candidates]])
    return candidates[order[:count]].tolist()
