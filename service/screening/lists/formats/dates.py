"""Partial birth dates as ISO strings: "1970", "1970-05" or "1970-05-12".

Lists rarely know a full date. The convention every parser follows:

* a date known to the year or month is written to that precision;
* "circa", "approximately" keep the stated date (the matcher allows a
  tolerance on years anyway);
* a range is written as every year it covers when it spans at most
  `MAX_EXPANDED_YEARS` years, else as its two end years; a range inside one
  year or month ("01 Jan 1960 to 31 Dec 1960") collapses to that year or month.
"""

from __future__ import annotations

import re
from datetime import date

MAX_EXPANDED_YEARS = 10

_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip

_ISO = re.compile(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:T.*)?")
_DAY_FIRST = re.compile(r"(\d{1,2})[/.](\d{1,2})[/.](\d{4})")
_WORDS = re.compile(r"(?:(\d{1,2})\s+)?(?:([A-Za-z]+)\.?\s+)?(\d{4})")


def partial_date(year: int | str, month: int | str | None = None, day: int | str | None = None) -> str | None:
    """The ISO form of a date known to year, month or day; None if impossible."""
    try:
        year_number = int(year)
        month_number = int(month) if month not in (None, "", "0", "00") else None
        day_number = int(day) if day not in (None, "", "0", "00") and month_number else None
    except ValueError:
        return None
    if not 1000 <= year_number <= 2999:
        return None
    if month_number is None:
        return f"{year_number:04d}"
    if not 1 <= month_number <= 12:
        return None
    if day_number is None:
        return f"{year_number:04d}-{month_number:02d}"
    try:
        return date(year_number, month_number, day_number).isoformat()
    except ValueError:
        return None


def parse_iso(text: str | None) -> str | None:
    """Read "1970", "1970-05", "1970-05-12"; a time part is dropped."""
    match = _ISO.fullmatch((text or "").strip())
    return partial_date(*match.groups()) if match else None


def parse_day_first(text: str | None) -> str | None:
    """`parse_iso`, or the European "12/05/1970" that EU exports have used."""
    if match := _DAY_FIRST.fullmatch((text or "").strip()):
        day, month, year = match.groups()
        return partial_date(year, month, day)
    return parse_iso(text)


def parse_words(text: str | None) -> str | None:
    """Read dates written out as "01 Jan 1960", "Jan 1960", "Nov. 1973",
    "August 1961" or "1960"."""
    value = (text or "").strip().rstrip(".")
    match = _WORDS.fullmatch(value)
    if match is None:
        return None
    day, month_word, year = match.groups()
    if month_word is None:
        return partial_date(year) if day is None else None
    month = month_number(month_word)
    return partial_date(year, month, day) if month else None


def month_number(word: str) -> int | None:
    """1-12 for a month name or its abbreviation ("Jan", "Sept", "August")."""
    word = word.lower().rstrip(".")
    if len(word) < 3:
        return None
    for number, name in enumerate(_MONTH_NAMES, start=1):
        if name.startswith(word):
            return number
    return None


def year_span(first: int, last: int) -> list[str]:
    """Every year of a short range, or its two ends when it is long."""
    first, last = min(first, last), max(first, last)
    if last - first <= MAX_EXPANDED_YEARS:
        return [f"{year:04d}" for year in range(first, last + 1)]
    return [f"{first:04d}", f"{last:04d}"]


def date_span(start: str, end: str) -> list[str]:
    """A range between two partial ISO dates, as the module docstring says."""
    if start == end:
        return [start]
    if start[:7] == end[:7] and len(start) >= 7 and len(end) >= 7:
        return [start[:7]]
    if start[:4] == end[:4]:
        return [start[:4]]
    return year_span(int(start[:4]), int(end[:4]))
