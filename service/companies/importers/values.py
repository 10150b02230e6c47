"""Parsing one field of a source row; a bad value rejects the row with a reason naming the field.

`WHITESPACE` is what str.strip() removes, for column-wise trimming (enheter/rules.py) to
remove the same.
"""

from __future__ import annotations

import sys
from decimal import Decimal, InvalidOperation

# Every character str.strip() removes.
WHITESPACE = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
INT_MIN, INT_MAX = -(2**31), 2**31 - 1  # an IntegerField


class RowRejected(Exception):
    """The row cannot be imported; the message is the reason shown to the operator."""


def text_value(value: str | None, *, field: str, max_length: int) -> str:
    text = (value or "").strip()
    if len(text) > max_length:
        raise RowRejected(f"{field} is longer than {max_length} characters")
    return text


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
