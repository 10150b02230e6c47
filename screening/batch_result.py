"""A batch job's result as its page shows it: each hit's listed name marked as on a case's page,
and for an admin the link that puts a person checked there under monitoring."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

from portal.service.batches import Batch, BatchHit, BatchResultRow
from screening.name_parts import NamePart, name_parts
from vakt_format import norwegian as no


@dataclass(frozen=True, slots=True)
class ShownRow:
    """A row of the result, with its hits as shown, and for an admin the link that puts a person
    checked here under monitoring (the approvals page's customer-person form, filled in, with the
    row's id as the customer reference)."""

    row: BatchResultRow
    hits: list[ShownHit]
    monitor_url: str = ""


@dataclass(frozen=True, slots=True)
class ShownHit:
    """A hit as the page shows it: the listed name with its words marked as on a case's page."""

    hit: BatchHit
    listed_parts: list[NamePart]


def shown_row(row: BatchResultRow, *, batch: Batch, can_monitor: bool) -> ShownRow:
    monitor_url = ""
    if can_monitor and row.type_key == "person":
        query = {"view": "persons", "full_name": row.name, "birth_date": row.birth_date, "nationalities": row.nationality,
                 "comment": f"Checked on the Batch screening page on {no.day(batch.completed_at)} ({batch.file_name})."}
        if row.reference.strip():  # the file's id: the uploader's own number for the customer
            query["customer_reference"] = row.reference.strip()
        monitor_url = f"{reverse('screening:approvals')}?{urlencode(query)}#person-form"
    return ShownRow(row, shown_hits(row), monitor_url)


def shown_hits(row: BatchResultRow) -> list[ShownHit]:
    return [
        ShownHit(hit, name_parts(hit.matched_name, hit.detail, side="listed") if hit.detail else [NamePart(hit.matched_name, "")])
        for hit in row.hits
    ]
