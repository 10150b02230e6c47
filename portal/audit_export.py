"""/members/audit/export.csv: the audit log as the audit page filters it, every record, as CSV.

The file an internal auditor or a regulator asks for, newest first as the page, streamed a
thousand records a call (portal.csv_export).
"""

from __future__ import annotations

import json

from django.http import StreamingHttpResponse

from portal.audit_fields import audit_changes, field_label
from portal.csv_export import csv_response, moment_cell, records_paged
from portal.service.organisation import AuditEvent
from vakt_format.national_ids import national_ids_masked_in

COLUMNS = (
    "When (Europe/Oslo)", "Who", "Via API user", "What", "Action key", "On", "Object type", "Object uuid",
    "Change", "Before (JSON)", "After (JSON)", "Record uuid",
)


def audit_csv_response(*, admin_client, filename: str, **filters) -> StreamingHttpResponse:
    """`filters`: the audit page's (admin_client.audit_events'). Raises the service's error when its
    first page cannot be read."""

    def page_at(offset: int, limit: int):
        page = admin_client.audit_events(limit=limit, offset=offset, **filters)
        return page.events, page.has_more

    events = records_paged(page_at, key=lambda event: event.uuid, what="Audit")
    return csv_response(filename=filename, columns=COLUMNS, rows=(_row(event) for event in events))


def _row(event: AuditEvent) -> list:
    return [
        moment_cell(event.at),
        event.actor_email,
        event.actor_api_user_name,
        event.action,
        event.action_key,
        event.object_label,
        event.object_type,
        event.object_uuid or "",
        _redaction_text(event) or "; ".join(_change_text(change) for change in audit_changes(event)),
        _json(event.before),
        _json(event.after),
        event.uuid,
    ]


def _change_text(change: dict) -> str:
    before, after, field = change["before"], change["after"], change["label"]
    if before is not None and after is not None:
        return f"{field}: {before} → {after}"
    if after is not None:
        return f"{field}: {after}"
    return f"{field}: removed {before}"


def _json(value) -> str:
    # As recorded, but a national id typed into a reason or comment masked as on the page.
    return "" if value is None else national_ids_masked_in(json.dumps(value, ensure_ascii=False, sort_keys=True))


def _redaction_text(event: AuditEvent) -> str:
    if not event.redacted_at:
        return ""
    fields = ", ".join(field_label(key) for key in dict.fromkeys([*(event.before or {}), *(event.after or {})]))
    return f"Values deleted {moment_cell(event.redacted_at)}, with the data they were about" + (f" ({fields})" if fields else "")
