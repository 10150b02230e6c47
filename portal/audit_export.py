"""/members/audit/export.csv: the audit log as the audit page filters it, every record, as CSV.

The file an internal auditor or a regulator asks for. Read from the service a thousand records
a call and streamed, so a long log is never held in memory. Newest first, as the page; a record
made while the file is being written shifts the pages by one, so a record already written
(the previous page's) is skipped rather than written twice.
"""

from __future__ import annotations

import csv
import io
import json
import logging
from collections.abc import Iterator

from django.http import StreamingHttpResponse
from django.utils import timezone

from portal.formatting import key_words, recorded_text
from portal.service import ServiceError
from portal.service.organisation import AuditEvent
from vakt_format.spreadsheet import cell_text

logger = logging.getLogger(__name__)
EXPORT_PAGE_SIZE = 1000
COLUMNS = (
    "When (Europe/Oslo)", "Who", "Via API user", "What", "Action key", "On", "Object type", "Object uuid",
    "Change", "Before (JSON)", "After (JSON)", "Record uuid",
)


def audit_csv_response(*, admin_client, filename: str, action_key: str, created_from, created_to) -> StreamingHttpResponse:
    """The first page is read before answering, so a service that does not answer is the caller's
    ServiceError (an error page, not an empty file); one that stops answering later ends the file
    with a line saying it is incomplete."""

    def page_at(offset: int):
        return admin_client.audit_events(
            limit=EXPORT_PAGE_SIZE, offset=offset, action_key=action_key, created_from=created_from, created_to=created_to
        )

    first = page_at(0)

    def events() -> Iterator[AuditEvent]:
        page, offset, previous = first, 0, set()
        while True:
            yield from (event for event in page.events if event.uuid not in previous)
            if not page.has_more or not page.events:
                return
            previous = {event.uuid for event in page.events}
            offset += EXPORT_PAGE_SIZE
            try:
                page = page_at(offset)
            except ServiceError:
                logger.exception("Audit export stopped after %s records", offset)
                raise _Incomplete from None

    response = StreamingHttpResponse(_lines(events()), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class _Incomplete(Exception):
    pass


def _lines(events: Iterator[AuditEvent]) -> Iterator[str]:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    out.write("\ufeff")  # so Excel reads the file as UTF-8 (æ, ø, å)
    writer.writerow(COLUMNS)
    try:
        for event in events:
            writer.writerow([cell_text(value) for value in _row(event)])
            if out.tell() > 64_000:
                yield out.getvalue()
                out.seek(0)
                out.truncate()
    except _Incomplete:
        writer.writerow(["INCOMPLETE: the service stopped answering; the records above are not all. Download again."])
    yield out.getvalue()


def _row(event: AuditEvent) -> list:
    return [
        timezone.localtime(event.at).strftime("%Y-%m-%d %H:%M:%S") if event.at else "",
        event.actor_email,
        event.actor_api_user_name,
        event.action,
        event.action_key,
        event.object_label,
        event.object_type,
        event.object_uuid or "",
        "; ".join(_change_text(change) for change in audit_changes(event)),
        _json(event.before),
        _json(event.after),
        event.uuid,
    ]


def audit_changes(event: AuditEvent) -> list[dict]:
    """The fields a record names, leaving out those an update kept as they were."""
    before, after = event.before or {}, event.after or {}
    keys = list(dict.fromkeys([*before, *after]))
    changed = [key for key in keys if not (event.before and event.after and before.get(key) == after.get(key))]
    return [{"key": key, "before": before.get(key), "after": after.get(key)} for key in changed]


def _change_text(change: dict) -> str:
    before, after, field = change["before"], change["after"], key_words(change["key"])
    if before is not None and after is not None:
        return f"{field}: {recorded_text(before)} → {recorded_text(after)}"
    if after is not None:
        return f"{field}: {recorded_text(after)}"
    return f"{field}: removed {recorded_text(before)}"


def _json(value) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)
