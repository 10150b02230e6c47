"""Parsing one field of a source row; a bad value rejects the row with a reason naming the field."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation


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
    try:
        return int(text)
    except ValueError:
        raise RowRejected(f"{field} is not a whole number: {text!r}") from None


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
