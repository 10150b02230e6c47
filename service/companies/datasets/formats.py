"""`response_file_type`: json (one array), jsonl (one element per line) and csv (flattened columns).

Each writer turns the row tuples of `query.plan_rows` into text as they come
and hands the server one buffer of about BUFFER_BYTES at a time, so a page of
100,000 rows is never held whole. Per-field writers are compiled once per
request from the plan (a closure per field), not looked up per value.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from json.encoder import encode_basestring

from service.companies.datasets.fields import CSV_WRITERS, JSON_WRITERS
from service.companies.datasets.query import Plan, PlannedEntity, PlannedField

BUFFER_BYTES = 256 * 1024

RowWriter = Callable[[tuple], str]


@dataclass(frozen=True)
class ResponseFormat:
    name: str
    content_type: str
    stream: Callable[[Plan, Iterable[tuple]], Iterator[bytes]]


# --- JSON elements ------------------------------------------------------------------------------


def _json_member(planned: PlannedField) -> RowWriter:
    """`"name":value` of one field, read from its column."""
    key = encode_basestring(planned.field.name) + ":"
    index, derive, write = planned.index, planned.field.derive, JSON_WRITERS[planned.field.type]
    if index is None:
        constant = key + "null"
        return lambda row: constant
    if derive is not None:

        def derived_member(row: tuple) -> str:
            value = derive(row[index])
            return key + ("null" if value is None else write(value))

        return derived_member

    def member(row: tuple) -> str:
        value = row[index]
        return key + ("null" if value is None else write(value))

    return member


def _json_object(planned: PlannedEntity) -> RowWriter:
    members = tuple(_json_member(field) for field in planned.fields)
    presence = planned.presence_index

    def entity_object(row: tuple) -> str:
        if presence is not None and row[presence] is None:
            return "null"
        return "{" + ",".join([member(row) for member in members]) + "}"

    return entity_object


def json_element_writer(plan: Plan) -> RowWriter:
    """One element as JSON text: the flat entity, or the composite of entities (and headline fields)."""
    if not plan.dataset.composite:
        return _json_object(plan.entities[0])
    parts = tuple(_json_member(field) for field in plan.headline) + tuple(
        _keyed(encode_basestring(entity.name) + ":", _json_object(entity)) for entity in plan.entities
    )

    def composite(row: tuple) -> str:
        return "{" + ",".join([part(row) for part in parts]) + "}"

    return composite


def _keyed(key: str, write: RowWriter) -> RowWriter:
    return lambda row: key + write(row)


# --- CSV cells -----------------------------------------------------------------------------------------


def csv_header(plan: Plan) -> list[str]:
    """`entity.field` columns for a composite (headline fields bare, first); bare field names for a plain dataset."""
    if not plan.dataset.composite:
        return [planned.field.name for planned in plan.entities[0].fields]
    return [planned.field.name for planned in plan.headline] + [
        f"{entity.name}.{planned.field.name}" for entity in plan.entities for planned in entity.fields
    ]


def _csv_cell(planned: PlannedField, presence: int | None) -> Callable[[tuple], str]:
    index, derive, write = planned.index, planned.field.derive, CSV_WRITERS[planned.field.type]

    def cell(row: tuple) -> str:
        if index is None or (presence is not None and row[presence] is None):
            return ""
        value = row[index] if derive is None else derive(row[index])
        return "" if value is None else write(value)

    return cell


def csv_cells_writer(plan: Plan) -> Callable[[tuple], list[str]]:
    cells = [_csv_cell(planned, None) for planned in plan.headline] + [
        _csv_cell(planned, entity.presence_index) for entity in plan.entities for planned in entity.fields
    ]
    return lambda row: [cell(row) for cell in cells]


# --- streams ---------------------------------------------------------------------------------------------


def _buffered(pieces: Iterable[str]) -> Iterator[bytes]:
    """Join small strings into buffers of about BUFFER_BYTES: one write per buffer, not per row."""
    buffer: list[str] = []
    size = 0
    for piece in pieces:
        buffer.append(piece)
        size += len(piece)
        if size >= BUFFER_BYTES:
            yield "".join(buffer).encode()
            buffer, size = [], 0
    if buffer:
        yield "".join(buffer).encode()


def stream_json(plan: Plan, rows: Iterable[tuple]) -> Iterator[bytes]:
    element = json_element_writer(plan)

    def pieces() -> Iterator[str]:
        separator = "[\n"
        for row in rows:
            yield separator
            yield element(row)
            separator = ",\n"
        yield "[]\n" if separator == "[\n" else "\n]\n"

    return _buffered(pieces())


def stream_jsonl(plan: Plan, rows: Iterable[tuple]) -> Iterator[bytes]:
    element = json_element_writer(plan)
    return _buffered(element(row) + "\n" for row in rows)


def stream_csv(plan: Plan, rows: Iterable[tuple]) -> Iterator[bytes]:
    cells = csv_cells_writer(plan)

    def pieces() -> Iterator[str]:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180 line ends
        writer.writerow(csv_header(plan))
        for row in rows:
            writer.writerow(cells(row))
            if out.tell() >= BUFFER_BYTES:
                yield out.getvalue()
                out.seek(0)
                out.truncate()
        yield out.getvalue()

    return _buffered(pieces())


FORMATS: dict[str, ResponseFormat] = {
    "json": ResponseFormat("json", "application/json", stream_json),
    "jsonl": ResponseFormat("jsonl", "application/x-ndjson", stream_jsonl),
    "csv": ResponseFormat("csv", "text/csv; charset=utf-8", stream_csv),
}
