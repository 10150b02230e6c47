"""Keyset pagination for change feeds: rows after a position (update_timestamp, uuid).

    ?update_timestamp=GTE:2021-05-01&after_update_timestamp=<t>&after_uuid=<u>

Rows are then ordered by the root entity's `update_timestamp`, ties by its primary key,
and a page holds only rows strictly after `(t, u)`. The next page starts after the last
row written: its `update_timestamp` and `uuid`. Unlike `offset`, a page costs the same
however deep the feed is, and rows updated while the feed is walked are not skipped:
their new timestamp puts them ahead of the position, so they come again, as changes should.
The first page starts after `0001-01-01T00:00:00Z` and the zero uuid (or the feed's start).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from service.companies.datasets.fields import FieldType, parse_value
from service.companies.datasets.schema import Dataset
from service.errors import BadRequest, bad_field, field_error

AFTER_TIMESTAMP = "after_update_timestamp"
AFTER_KEY = "after_uuid"
KEYSET_PARAMETERS = (AFTER_TIMESTAMP, AFTER_KEY)
TIMESTAMP_FIELD = "update_timestamp"


@dataclass(frozen=True)
class Keyset:
    timestamp_path: str
    after_timestamp: Any  # an aware datetime
    after_key: Any  # a UUID

    @property
    def ordering(self) -> tuple[str, str]:
        return (self.timestamp_path, "pk")


def keyset_from(
    *, dataset: Dataset, after_update_timestamp: str | None, after_uuid: str | None, offset: int | None
) -> Keyset | None:
    """The position to page after, None without one; a 400 naming the parameter for a bad one."""
    if after_update_timestamp is None and after_uuid is None:
        return None
    missing = [name for name, value in zip(KEYSET_PARAMETERS, (after_update_timestamp, after_uuid)) if value is None]
    if missing:
        given = next(name for name in KEYSET_PARAMETERS if name not in missing)
        raise bad_field(["query", missing[0]], f"is needed with {given}: together they are the position to page after")
    if offset is not None:
        raise bad_field(["query", "offset"], f"cannot be combined with {AFTER_TIMESTAMP} and {AFTER_KEY}")
    timestamp_field = dataset.root.field_named(TIMESTAMP_FIELD)
    if timestamp_field is None or timestamp_field.path is None:
        detail = f"Dataset {dataset.name} has no {TIMESTAMP_FIELD}; page it with limit and offset."
        raise BadRequest(detail, code="invalid_parameter", errors=[field_error(["query", AFTER_TIMESTAMP], detail)])
    after_timestamp = _typed(AFTER_TIMESTAMP, FieldType.DATETIME, after_update_timestamp)
    after_key = _typed(AFTER_KEY, FieldType.UUID, after_uuid)
    return Keyset(timestamp_path=timestamp_field.path, after_timestamp=after_timestamp, after_key=after_key)


def keyset_apply(queryset: QuerySet, keyset: Keyset) -> QuerySet:
    """Rows strictly after the position in (update_timestamp, pk) order."""
    path, after = keyset.timestamp_path, keyset.after_timestamp
    return queryset.filter(Q(**{f"{path}__gt": after}) | Q(**{path: after, "pk__gt": keyset.after_key}))


def _typed(parameter: str, field_type: FieldType, raw: str) -> Any:
    try:
        return parse_value(field_type=field_type, raw=raw)
    except ValueError as exc:
        hint = " (in a URL, write the offset's + as %2B)" if field_type is FieldType.DATETIME and " " in raw else ""
        raise bad_field(["query", parameter], f"{exc}{hint}") from None
