"""The pure arithmetic of the sector aggregate, on hand-worked examples."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest

from service.companies.sector.statistics import bucket_counts, bucket_layout, ranked_indices, round_value, summarize


@pytest.mark.parametrize(
    ("lower", "upper", "round_digits", "max_buckets", "expected"),
    [
        (1.9, 9.1, 0, 10, ("1", "1", 9)),
        (1.9, 9.1, 0, 5, ("0", "2", 5)),  # 1 needs 9; 2 from 0 reaches 10 in 5
        (1.9, 9.1, 0, 3, ("0", "5", 2)),  # 2.5 is finer than a whole unit: skipped
        (0.1, 4.9, 0, 2, ("0", "5", 1)),  # even where two buckets of 2.5 would do
        (1.9, 9.1, 1, 4, ("0", "2.5", 4)),  # 2.5 is a multiple of 0.1
        (3011.6, 19333.2, -3, 10, ("2000", "2000", 9)),
        (-0.083, 0.181, 2, 10, ("-0.1", "0.05", 6)),
        (5, 5, 0, 10, ("5", "1", 1)),  # rule 4: one bucket of the rounding unit
        (0.123456, 0.123456, 2, 10, ("0.12", "0.01", 1)),
        (0, 0, -2, 10, ("0", "100", 1)),
        (-7, -3, 0, 1, ("-10", "10", 1)),  # one bucket, both below zero: a nice width still fits
        (-3, 4, 0, 1, ("-3", "7", 1)),  # one bucket across zero: the range rounded outward
        (-0.25, 0.44, 1, 1, ("-0.3", "0.8", 1)),  # ... outward to the rounding unit
        (-0.01, 1.23456789012345e30, 2, 1, ("-0.01", "1234567890123450000000000000000.01", 1)),  # to the cent
        (-1000, 0, 0, 10, ("-1000", "100", 10)),  # the widest value below zero sets the widths to try
        (0, 1000, 0, 10, ("0", "100", 10)),
        (-0.003, 0.003, 0, 10, ("-1", "1", 2)),  # values far finer than the unit: a width of the unit
        (0.29999999999999993, 0.7, 1, 10, ("0.3", "0.1", 4)),  # float noise is read as the 0.3 it stands for
    ],
)
def test_it_lays_out_buckets_with_the_smallest_nice_width(lower, upper, round_digits, max_buckets, expected):
    layout = bucket_layout(
        lower_value=lower, upper_value=upper, round_digits=round_digits, max_number_of_buckets=max_buckets
    )

    start, width, count = expected
    assert (layout.start, layout.width, layout.count) == (Decimal(start), Decimal(width), count)
    slack = Decimal("1e-9")
    assert layout.start <= Decimal(repr(lower)) + slack and layout.end >= Decimal(repr(upper)) - slack


def test_it_refuses_a_layout_without_buckets():
    with pytest.raises(ValueError, match="^max_number_of_buckets must be at least 1$"):
        bucket_layout(lower_value=0, upper_value=1, round_digits=0, max_number_of_buckets=0)


def test_it_counts_buckets_with_closed_lower_bounds_and_a_closed_last_bucket():
    values = np.array([-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 2.0, 2.5])

    underflow, numbered, overflow = bucket_counts(
        sorted_values=values, edges=[Decimal(0), Decimal(1), Decimal(2)]
    )

    assert (underflow, numbered, overflow) == (1, [2, 4], 1)


@pytest.mark.parametrize(
    ("value", "round_digits", "expected"),
    [
        (2.5, 0, 3.0),
        (-2.5, 0, -3.0),  # half away from zero
        (0.125, 2, 0.13),
        (0.24999999999999997, 1, 0.3),  # the 0.25 it stands for
        (1234.5, -2, 1200.0),
        (1250, -2, 1300.0),
        (-0.04, 1, 0.0),  # never -0.0
        (None, 2, None),
    ],
)
def test_it_rounds_half_away_from_zero(value, round_digits, expected):
    rounded = round_value(value, round_digits=round_digits)

    assert rounded == expected
    assert rounded is None or str(rounded) != "-0.0"


def test_it_ranks_by_value_and_breaks_ties_by_key():
    values = np.array([3.0, 7.0, 7.0, 1.0, 7.0, 1.0])
    keys = np.array([[0, 5], [0, 9], [0, 2], [1, 0], [0, 4], [0, 1]], dtype=np.uint64)

    assert ranked_indices(values=values, tie_keys=keys, count=3, highest=True) == [2, 4, 1]
    assert ranked_indices(values=values, tie_keys=keys, count=3, highest=False) == [5, 3, 0]
    assert ranked_indices(values=values, tie_keys=keys, count=10, highest=False) == [5, 3, 0, 2, 4, 1]
    assert ranked_indices(values=values, tie_keys=keys, count=0, highest=True) == []
    no_keys = np.zeros((0, 2), dtype=np.uint64)
    assert ranked_indices(values=np.array([]), tie_keys=no_keys, count=5, highest=True) == []  # an empty sector


def test_it_rounds_values_beyond_the_default_decimal_precision():
    # 28 digits (Python's default context) are not enough for 10^30 to the cent; the rounding must not fail.
    assert round_value(1.23456789012345e30, round_digits=2) == 1.23456789012345e30
    assert round_value(-9.87654321e40, round_digits=4) == -9.87654321e40


def test_it_summarizes_values_with_companies_without_one_counted_as_zero():
    summary = summarize(values=np.array([5.0]), null_count=1)

    assert (summary.total_count, summary.not_null_count, summary.null_count) == (2, 1, 1)
    assert (summary.average_value, summary.median_value, summary.min_value, summary.max_value) == (5, 5, 5, 5)
    assert summary.standard_deviation == 0
    assert (summary.average_zero_imputed, summary.median_zero_imputed) == (2.5, 2.5)
    assert summary.standard_deviation_zero_imputed == 2.5


def test_a_sector_without_values_has_no_statistics_of_values():
    only_nulls = summarize(values=np.array([]), null_count=3)
    empty = summarize(values=np.array([]), null_count=0)

    value_statistics = ("average_value", "median_value", "min_value", "max_value", "standard_deviation")
    assert [getattr(only_nulls, name) for name in value_statistics] == [None] * 5
    assert (only_nulls.average_zero_imputed, only_nulls.median_zero_imputed) == (0, 0)
    assert only_nulls.standard_deviation_zero_imputed == 0
    assert [getattr(empty, name) for name in value_statistics] == [None] * 5
    assert (empty.average_zero_imputed, empty.median_zero_imputed, empty.standard_deviation_zero_imputed) == (
        None,
        None,
        None,
    )
    assert (empty.total_count, empty.not_null_count, empty.null_count) == (0, 0, 0)
