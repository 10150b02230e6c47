"""Numbers, money, percentages and dates as a Norwegian reader expects them.

    amount(1234567)       -> "1 234 567"      (thousands split by a no-break space)
    kroner(45000)         -> "45 000 kr"
    percent(Decimal("0.1234")) -> "12,3 %"    (a ratio in, one decimal, decimal comma)
    decimal(1.5, 2)       -> "1,50"
    day(date(2024, 6, 15)) -> "15.06.2024"
    partial_day("1966-03") -> "03.1966"   (a partial birth date; a whole one as day() writes it)
    moment(<2026-11-26 10:25 UTC>) -> "26.11.2026 11:25"   (on the deployment's clock)
    file_size(6042)       -> "5,9 kB"         (1024 bytes a kB, one decimal)
    percents_in_text("Owns 31.0% of X (62.0% × 50.0%)") -> "Owns 31,0 % of X (62,0 % × 50,0 %)"

A moment (an aware datetime) is shown on the deployment's calendar and clock: a flag that
began at midnight in Oslo, 23:00 UTC the day before, is that day. Django sets the process's
time zone (TZ) from TIME_ZONE, so `astimezone()` converts to it without importing Django.

The separator is U+00A0 (no-break space), not the narrow U+202F: the PDFs use the
standard Helvetica font, whose WinAnsi encoding has the one but not the other.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

NBSP = "\u00a0"
DASH = "–"  # shown for a missing value
DAY_FORMAT = "%d.%m.%Y"  # how a day is written, and typed into the dashboard's date fields


def _quantize(value, places: int) -> Decimal:
    return Decimal(str(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def decimal(value, places: int = 1) -> str:
    if value is None:
        return DASH
    number = _quantize(value, places)
    sign = "-" if number < 0 else ""
    whole, _, fraction = f"{abs(number):f}".partition(".")
    grouped = f"{int(whole):,}".replace(",", NBSP)
    return sign + grouped + ("," + fraction if fraction else "")


def amount(value) -> str:
    """Whole units: kroner have no stray decimals in a report."""
    return decimal(value, 0)


def kroner(value) -> str:
    return DASH if value is None else f"{amount(value)}{NBSP}kr"


def percent(ratio) -> str:
    """A ratio (0.123) as a percentage with one decimal (12,3 %)."""
    return DASH if ratio is None else f"{decimal(Decimal(str(ratio)) * 100, 1)}{NBSP}%"


_PERCENT_IN_TEXT = re.compile(r"(?<![\d.,])(\d+)(?:\.(\d+))?%")


def percents_in_text(text: str) -> str:
    """The percentages of an English sentence the service wrote ("Owns 31.0% of X", "at least 25%")
    in the Norwegian form, with the decimals they were written with ("31,0 %", "25 %")."""

    def norwegian(match: re.Match) -> str:
        whole, fraction = match.group(1), match.group(2) or ""
        return f"{decimal(Decimal(f'{whole}.{fraction or 0}'), len(fraction))}{NBSP}%"

    return _PERCENT_IN_TEXT.sub(norwegian, text or "")


_TYPED_DAY = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")
_TYPED_MONTH = re.compile(r"(\d{1,2})\.(\d{4})")


def partial_day_iso(value: str) -> str:
    """A birth date as Norwegians write it (14.03.1966, 03.1966) in the ISO form of a partial date
    (1966-03-14, 1966-03); anything else as given, for the reader of ISO dates to judge."""
    value = value.strip()
    if day := _TYPED_DAY.fullmatch(value):
        return f"{day[3]}-{int(day[2]):02d}-{int(day[1]):02d}"
    if month := _TYPED_MONTH.fullmatch(value):
        return f"{month[2]}-{int(month[1]):02d}"
    return value


def partial_day(value: str) -> str:
    """A partial ISO date (a birth date on a list or in a screening file) as Norwegians write it, the
    inverse of partial_day_iso: 1966-03-14 -> 14.03.1966, 1966-03 -> 03.1966, 1966 -> 1966; "" stays ""."""
    value = (value or "").strip()
    if len(value) == 10:
        return day(value)
    if len(value) == 7 and value[4] == "-":
        return f"{value[5:]}.{value[:4]}"
    return value


def _local(value: datetime) -> datetime:
    return value.astimezone() if value.tzinfo is not None else value  # naive: already local


def day(value) -> str:
    if value is None:
        return DASH
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value[:10])
        except ValueError:
            return value
    if isinstance(value, datetime):
        value = _local(value).date()
    return value.strftime(DAY_FORMAT)


def moment(value) -> str:
    """Day and time, "26.11.2026 11:25"; a date alone is shown as its day."""
    if not isinstance(value, datetime):
        return day(value)
    return f"{_local(value):{DAY_FORMAT} %H:%M}"


def file_size(size) -> str:
    """A file's size: "830 byte", "5,9 kB", "1,2 MB" (1024 bytes a kB, as the browser counts)."""
    if size is None:
        return DASH
    if size < 1024:
        return f"{amount(size)}{NBSP}byte"
    for unit in ("kB", "MB"):
        size = Decimal(size) / 1024
        if size < 1024 or unit == "MB":
            return f"{decimal(size, 1)}{NBSP}{unit}"


def millions(value) -> str:
    """Axis labels: 12 500 000 -> "12,5 mill"."""
    return DASH if value is None else f"{decimal(Decimal(str(value)) / 1_000_000, 1)}{NBSP}mill"
