"""Field types of the datasets: parsing a query value for one, and writing a value out.

Parsing is strict (a bad value is a 400 naming the parameter, raised by the
caller from `ValueError`). Writing is hand-rolled JSON per value because the
standard encoder cannot write a Decimal as an exact JSON number, and the
datasets stream far too many rows to go through dicts and an encoder anyway.
"""

from __future__ import annotations

import datetime as dt
import enum
import json
import re
import uuid
from decimal import Decimal, InvalidOperation
from json.encoder import encode_basestring  # the C-accelerated string quoter json.dumps uses
from typing import Any

from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone


class FieldType(enum.Enum):
    UUID = "uuid"
    STRING = "string"
    INT = "integer"
    DECIMAL = "decimal"
    DATE = "date"
    DATETIME = "datetime"
    BOOL = "boolean"
    JSON = "json"


ORDERED_TYPES = frozenset(
    {FieldType.STRING, FieldType.INT, FieldType.DECIMAL, FieldType.DATE, FieldType.DATETIME}
)

_INT = re.compile(r"[+-]?\d+")
_TRUE = frozenset({"true", "1", "yes"})
_FALSE = frozenset({"false", "0", "no"})


def parse_value(*, field_type: FieldType, raw: str) -> Any:
    """The query string `raw` as a value of `field_type`; ValueError with a readable reason if it is not one."""
    if field_type is FieldType.STRING:
        return raw
    if field_type is FieldType.INT:
        if not _INT.fullmatch(raw.strip()):
            raise ValueError(f"{raw!r} is not an integer")
        return int(raw)
    if field_type is FieldType.DECIMAL:
        try:
            value = Decimal(raw.strip())
        except InvalidOperation:
            raise ValueError(f"{raw!r} is not a number") from None
        if not value.is_finite():
            raise ValueError(f"{raw!r} is not a finite number")
        return value
    if field_type is FieldType.DATE:
        try:
            return dt.date.fromisoformat(raw.strip())
        except ValueError:
            raise ValueError(f"{raw!r} is not a date (YYYY-MM-DD)") from None
    if field_type is FieldType.DATETIME:
        return _parse_datetime(raw)
    if field_type is FieldType.BOOL:
        lowered = raw.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ValueError(f"{raw!r} is not a boolean (true or false)")
    if field_type is FieldType.UUID:
        try:
            return uuid.UUID(raw.strip())
        except ValueError:
            raise ValueError(f"{raw!r} is not a UUID") from None
    raise ValueError(f"fields of type {field_type.value} cannot be compared with a value")


def check_column_range(*, value: Any, column: models.Field | None) -> None:
    """ValueError when `value` cannot be held by `column`: it could never match, and the database
    would refuse it (PostgreSQL: numeric overflow) or compare it against a wrapped value.

    Ranges are the Django ones (the same on every database), not what SQLite happens to accept."""
    if column is None or value is None:
        return
    if isinstance(value, int) and not isinstance(value, bool):
        low, high = BaseDatabaseOperations.integer_field_ranges.get(
            column.get_internal_type(), BaseDatabaseOperations.integer_field_ranges["BigIntegerField"]
        )
        if not low <= value <= high:
            raise ValueError(f"{value} is out of range: the column holds {low} to {high}")
    elif isinstance(value, Decimal) and isinstance(column, models.DecimalField):
        whole = column.max_digits - column.decimal_places
        _, digits, exponent = value.normalize().as_tuple()
        if len(digits) + exponent > whole and value != 0:
            raise ValueError(f"{value} is out of range: the column holds at most {whole} digits before the point")
        if -exponent > column.decimal_places:
            raise ValueError(f"{value} has too many decimals: the column holds {column.decimal_places}")


def _parse_datetime(raw: str) -> dt.datetime:
    """ISO 8601 date or date-time; a date means its midnight and a missing offset the service's time zone."""
    text = raw.strip()
    try:
        if len(text) == 10:
            value = dt.datetime.combine(dt.date.fromisoformat(text), dt.time())
        else:
            value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{raw!r} is not a date or an ISO 8601 timestamp") from None
    if timezone.is_naive(value):
        value = timezone.make_aware(value)
    try:
        value.astimezone(dt.timezone.utc)  # how it is stored and compared: the edges of year 1 and 9999 overflow
    except OverflowError:
        raise ValueError(f"{raw!r} is out of range in UTC (years 1 to 9999)") from None
    return value


# --- writing values ---------------------------------------------------------------------


def _json_quoted(value: Any) -> str:
    return f'"{value}"'


def _json_iso(value: Any) -> str:
    return f'"{value.isoformat()}"'


def _json_bool(value: Any) -> str:
    return "true" if value else "false"


def _json_any(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))


# None is handled by the caller, so these only ever see real values.
# str(Decimal) of a database decimal is a valid JSON number ("1234.50", "-0.000001", "1E-7").
JSON_WRITERS = {
    FieldType.UUID: _json_quoted,
    FieldType.STRING: encode_basestring,
    FieldType.INT: str,
    FieldType.DECIMAL: str,
    FieldType.DATE: _json_iso,
    FieldType.DATETIME: _json_iso,
    FieldType.BOOL: _json_bool,
    FieldType.JSON: _json_any,
}


def _csv_iso(value: Any) -> str:
    return value.isoformat()


CSV_WRITERS = {
    FieldType.UUID: str,
    FieldType.STRING: str,
    FieldType.INT: str,
    FieldType.DECIMAL: str,
    FieldType.DATE: _csv_iso,
    FieldType.DATETIME: _csv_iso,
    FieldType.BOOL: _json_bool,
    FieldType.JSON: _json_any,
}
