"""A CSV file a person opens in a spreadsheet, read from the service a page at a time and streamed,
so a long list is never held in memory (the audit log, the case queue).

The first page is read before answering, so a service that does not answer is the caller's
ServiceError (an error page, not an empty file); one that stops answering later ends the file with
a line saying it is incomplete. The lists are read newest first by offset: a record made while the
file is being written shifts the pages by one, so a record already written (the previous page's)
is skipped rather than written twice.
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from django.http import StreamingHttpResponse
from django.utils import timezone

from portal.service import ServiceError
from vakt_format.spreadsheet import cell_text

logger = logging.getLogger(__name__)
PAGE_SIZE = 1000  # records a call: the service's largest page
FLUSH_BYTES = 64_000
INCOMPLETE_LINE = "INCOMPLETE: the service stopped answering; the records above are not all. Download again."

T = TypeVar("T")
Page = tuple[Sequence[T], bool]  # the records of one call, and whether more follow


class _Incomplete(Exception):
    pass


def records_paged(page_at: Callable[[int, int], Page], *, key: Callable[[T], Any], what: str) -> Iterator[T]:
    """Every record of `page_at(offset, limit)`, PAGE_SIZE a call; the first call is made at once."""
    first = page_at(0, PAGE_SIZE)

    def records() -> Iterator[T]:
        (items, has_more), offset, previous = first, 0, set()
        while True:
            yield from (item for item in items if key(item) not in previous)
            if not has_more or not items:
                return
            previous = {key(item) for item in items}
            offset += PAGE_SIZE
            try:
                items, has_more = page_at(offset, PAGE_SIZE)
            except ServiceError:
                logger.exception("%s export stopped after %s records", what, offset)
                raise _Incomplete from None

    return records()


def csv_response(*, filename: str, columns: Sequence[str], rows: Iterable[Sequence]) -> StreamingHttpResponse:
    """The rows as a download; every cell written as text a spreadsheet does not run as a formula."""
    response = StreamingHttpResponse(_lines(columns, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def moment_cell(value) -> str:
    """A moment on this deployment's clock, as a spreadsheet sorts it: "2026-11-27 09:41:13"."""
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S") if value else ""


def _lines(columns: Sequence[str], rows: Iterable[Sequence]) -> Iterator[str]:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    out.write("\ufeff")  # so Excel reads the file as UTF-8 (æ, ø, å)
    writer.writerow(columns)
    try:
        for row in rows:
            writer.writerow([cell_text(value) for value in row])
            if out.tell() > FLUSH_BYTES:
                yield out.getvalue()
                out.seek(0)
                out.truncate()
    except _Incomplete:
        writer.writerow([INCOMPLETE_LINE])
    yield out.getvalue()
