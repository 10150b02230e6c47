"""Partial birth dates: precision kept, ranges expanded or reduced to their ends."""

from __future__ import annotations

from service.screening.lists.formats.dates import (
    MAX_EXPANDED_YEARS,
    date_span,
    parse_day_first,
    parse_iso,
    parse_words,
    year_span,
)


def test_it_keeps_the_precision_a_list_gives():
    assert [parse_iso(text) for text in ("1970", "1970-5", "1970-05-12T00:00:00")] == ["1970", "1970-05", "1970-05-12"]
    assert [parse_words(text) for text in ("01 Jan 1960", "Sept 1970", "August 1961", "1960")] == [
        "1960-01-01",
        "1970-09",
        "1961-08",
        "1960",
    ]
    assert parse_day_first("12/05/1970") == "1970-05-12"


def test_it_refuses_impossible_or_unreadable_dates():
    assert [parse_iso(text) for text in ("1970-13", "1970-02-30", "abc", "")] == [None, None, None, None]
    assert [parse_words(text) for text in ("31 Feb 1960", "Foo 1960", "30-35 years old")] == [None, None, None]


def test_it_expands_short_ranges_and_keeps_the_ends_of_long_ones():
    assert year_span(1957, 1959) == ["1957", "1958", "1959"]
    assert year_span(1940, 1940 + MAX_EXPANDED_YEARS + 1) == ["1940", "1951"]


def test_it_reduces_a_range_within_a_year_or_month():
    assert date_span("1960-01-01", "1960-12-31") == ["1960"]
    assert date_span("1970-02-01", "1970-02-28") == ["1970-02"]
    assert date_span("1953-01-01", "1954-12-31") == ["1953", "1954"]
