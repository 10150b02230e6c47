"""Limit/offset pagination and the composite collection shape (spec §2.1, §4.7 rule 6).

    [{"elements": [...], "count": <total matching>, "has_more": bool}]

Collections default to 100 and allow up to 1000 per page; bad values are 400s
that name the parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from ninja import Schema

from service.errors import BadRequest, bad_field, field_error

DEFAULT_LIMIT = 100
MAX_LIMIT = 1000


@dataclass(frozen=True)
class Page:
    limit: int
    offset: int


def page_from(
    limit: int | None, offset: int | None, *, default: int = DEFAULT_LIMIT, maximum: int = MAX_LIMIT
) -> Page:
    limit = default if limit is None else limit
    offset = 0 if offset is None else offset
    errors = []
    if limit < 1 or limit > maximum:
        errors.append(field_error(["query", "limit"], f"must be between 1 and {maximum}"))
    if offset < 0:
        errors.append(field_error(["query", "offset"], "must be 0 or more"))
    if len(errors) == 1:
        raise bad_field(errors[0]["loc"], errors[0]["msg"])
    if errors:  # both bad: one 400 naming both
        raise BadRequest("Invalid values for limit, offset.", code="invalid_parameter", errors=errors)
    return Page(limit, offset)


class PageQuery(Schema):
    """The query parameters of a paged collection; endpoints with filters extend it."""

    limit: int | None = None
    offset: int | None = None

    def page(self) -> Page:
        return page_from(self.limit, self.offset)


def collection(elements: list, *, count: int, page: Page) -> list[dict]:
    """One page's elements, already rendered, in the spec's collection shape."""
    return [{"elements": elements, "count": count, "has_more": page.offset + len(elements) < count}]


def composite_collection(
    queryset: QuerySet, page: Page, render: Callable[[Any], dict], *, ordering: Iterable[str] = ("pk",)
) -> list[dict]:
    """One page of a queryset in the spec's collection shape, ordered stably by `ordering`."""
    ordered = queryset.order_by(*ordering)
    count = ordered.count()
    rows = ordered[page.offset : page.offset + page.limit]
    return collection([render(row) for row in rows], count=count, page=page)
