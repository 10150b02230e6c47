"""Parsing one field of a source row; a bad value rejects the row with a reason naming the field.

The rules are deliberately narrow (ASCII digits, dates only as YYYY-MM-DD, whole numbers
that fit a 32-bit column) so that the set-based Enhetsregisteret path can apply exactly
the same ones in SQL (enheter/set_based.py); `WHITESPACE` is what str.strip() removes.
"""

from __future__ import annotations

import re
import sys
from datetime import date
from decimal import Decimal, InvalidOperation

# Every character str.strip() removes, for SQL's btrim to remove the same.
WHITESPACE = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
INT_MIN, INT_MAX = -(2**31), 2**31 - 1  # an IntegerField
_INT = re.compile(r"[+-]?[0-9]+")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class RowRejected(Exception):
    """The row cannot be imported; the message is the reason shown to the operator."""


def text_value(value: str | None, *, field: str, max_length: int) -> str:
    text = (value or "").strip()
    if len(text) > max_length:
        raise RowRejected(f"{field} is longer than {max_length} characters")
    return text


def date_value(value: str | None, *, field: str) -> date | None:
    text = (value or "").strip()
    if not text:
        return None
    try:
        if not _DATE.fullmatch(text):
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise RowRejected(f"{field} is not a date (YYYY-MM-DD): {text!r}") from None


def bool_value(value: str | None, *, field: str) -> bool:
    text = (value or "").strip().lower()
    if text in ("", "false"):
        return False
    if text == "true":
        return True
    raise RowRejected(f"{field} is not true or false: {value!r}")


def int_value(value: str | None, *, field: str) -> int | None:
    text = (value or "").strip()
    if not text:
        return None
    if not _INT.fullmatch(text):
        raise RowRejected(f"{field} is not a whole number: {text!r}")
    number = int(text)
    if not INT_MIN <= number <= INT_MAX:
        raise RowRejected(f"{field} is out of range: {text!r}")
    return number


def decimal_value(value: str | None, *, field: str) -> Decimal | None:
    text = (value or "").strip()
    if not text:
        return None
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise RowRejected(f"{field} is not a number: {text!r}") from None
    if not number.is_finite():
        raise RowRejected(f"{field} is not a finite number: {text!r}")
    return number
