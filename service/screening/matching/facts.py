"""Birth date, nationality and gender: evidence that confirms or rules out a name match.

Each function returns the adjustment added to the name score and a short note
for the reviewer. A birth year two or more years away from every listed one
subtracts enough to push even an identical name below the default threshold:
two people with a common name and different birth years are not the same person.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

SAME_DATE_BONUS = 0.05
CONSISTENT_PARTIAL_BONUS = 0.02  # only the year (or year and month) is known and agrees
SWAPPED_DAY_MONTH_BONUS = 0.02  # 1970-05-12 vs 1970-12-05: a common transcription slip
SAME_YEAR_OTHER_DAY_PENALTY = -0.10
ONE_YEAR_OFF_PENALTY = -0.10  # lists often give approximate years
DIFFERENT_YEAR_PENALTY = -0.40  # rules the name match out
SAME_NATIONALITY_BONUS = 0.02
DIFFERENT_NATIONALITY_PENALTY = -0.10
DIFFERENT_GENDER_PENALTY = -0.15


class Adjustment(NamedTuple):
    value: float
    note: str


NO_EVIDENCE = Adjustment(0.0, "")


class PartialDate(NamedTuple):
    year: int
    month: int | None
    day: int | None


@lru_cache(maxsize=100_000)  # lists repeat birth dates; parsed once per process
def parse_partial_date(text: str) -> PartialDate | None:
    """"1970", "1970-05" or "1970-05-12" (anything after the day is ignored)."""
    pieces = text.strip()[:10].split("-")
    try:
        numbers = [int(piece) for piece in pieces if piece]
    except ValueError:
        return None
    if not numbers or not 1000 <= numbers[0] <= 2999:
        return None
    month = numbers[1] if len(numbers) > 1 and 1 <= numbers[1] <= 12 else None
    day = numbers[2] if month and len(numbers) > 2 and 1 <= numbers[2] <= 31 else None
    return PartialDate(numbers[0], month, day)


def birth_date_adjustment(query: str | None, listed: list[str]) -> Adjustment:
    """The most favourable comparison of the query's birth date with any listed one."""
    query_date = parse_partial_date(query) if query else None
    if query_date is None:
        return NO_EVIDENCE
    listed_dates = [date for date in map(parse_partial_date, listed) if date]
    if not listed_dates:
        return NO_EVIDENCE
    return max((_compare_dates(query_date, date) for date in listed_dates), key=lambda a: a.value)


def _compare_dates(query: PartialDate, listed: PartialDate) -> Adjustment:
    years_apart = abs(query.year - listed.year)
    if years_apart == 1:
        return Adjustment(ONE_YEAR_OFF_PENALTY, f"born {query.year}, listed {listed.year}: one year apart")
    if years_apart > 1:
        return Adjustment(DIFFERENT_YEAR_PENALTY, f"born {query.year}, listed {listed.year}: different person")
    if query.month is None or listed.month is None:
        return Adjustment(CONSISTENT_PARTIAL_BONUS, f"same birth year {listed.year} (date only partly known)")
    if query.month == listed.month:
        if query.day is None or listed.day is None:
            return Adjustment(CONSISTENT_PARTIAL_BONUS, f"same birth month {listed.year}-{listed.month:02d}")
        if query.day == listed.day:
            return Adjustment(SAME_DATE_BONUS, "same birth date")
    elif query.day == listed.month and query.month == listed.day:
        return Adjustment(SWAPPED_DAY_MONTH_BONUS, "same birth date with day and month swapped")
    return Adjustment(SAME_YEAR_OTHER_DAY_PENALTY, f"same birth year {listed.year}, different day")


def nationality_adjustment(query: list[str], listed: list[str]) -> Adjustment:
    if not query or not listed:
        return NO_EVIDENCE
    # Compared in any case; shown as country codes are written (RU, not ru).
    shared = sorted(set(code.upper() for code in query) & set(code.upper() for code in listed))
    if shared:
        return Adjustment(SAME_NATIONALITY_BONUS, f"nationality {', '.join(shared)}, as listed")
    return Adjustment(
        DIFFERENT_NATIONALITY_PENALTY,
        f"nationality {', '.join(c.upper() for c in query)}, listed {', '.join(c.upper() for c in listed)}",
    )


def gender_adjustment(query: str | None, listed: str | None) -> Adjustment:
    if query and listed and query.lower() != listed.lower():
        return Adjustment(DIFFERENT_GENDER_PENALTY, f"gender {query}, listed {listed}")
    return NO_EVIDENCE
