"""`response_file_type`: json (one array), jsonl (one element per line) and csv (flattened columns).

Each writer turns the row tuples of `query.plan_rows` into text as they come
and hands the server one buffer of about BUFFER_BYTES at a time, so a page of
100,000 rows is never held whole.

Rows are written in two steps, both compiled once per request from the plan:
every column is turned into text once (a row repeats the accounts uuid in four
entities and the company's page in five), then each entity is a %-template
filled with its fields' texts. That keeps the per-row work to a few C-level
calls per column instead of Python calls per field.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring
from operator import itemgetter

from service.companies.datasets.fields import CSV_WRITERS, JSON_WRITERS
from service.companies.datasets.query import Plan, PlannedEntity, PlannedField

BUFFER_BYTES = 256 * 1024

RowWriter = Callable[[tuple], str]


@dataclass(frozen=True)
class ResponseFormat:
    name: str
    content_type: str
    stream: Callable[[Plan, Iterable[tuple]], Iterator[bytes]]


# --- row values as texts ------------------------------------------------------------------------


class _RowTexts:
    """Turns a row into the list of texts its fields are filled from: one per column, then one per derived value.

    `slot(planned)` says where a field's text is in that list (None: the field is always null).
    """

    def __init__(self, plan: Plan, *, writers: dict, null: str, text: Callable[[str], str]) -> None:
        self.column_writers = tuple(
            writers[field_type] if field_type is not None else _unused for field_type in plan.column_types
        )
        self.null, self.text = null, text
        self.derived: dict[tuple, int] = {}  # (derive, column) -> slot; equal links are built once
        for planned in _all_fields(plan):
            if planned.field.derive is not None and planned.index is not None:
                key = (planned.field.derive, planned.index)
                self.derived.setdefault(key, len(plan.columns) + len(self.derived))

    def slot(self, planned: PlannedField) -> int | None:
        if planned.index is None:
            return None
        if planned.field.derive is None:
            return planned.index
        return self.derived[(planned.field.derive, planned.index)]

    def of(self, row: tuple) -> list[str]:
        null = self.null
        texts = [null if value is None else write(value) for write, value in zip(self.column_writers, row)]
        for derive, index in self.derived:
            value = derive(row[index])
            texts.append(null if value is None else self.text(value))
        return texts


def _unused(value: object) -> str:
    return ""  # a column read only by derived fields: its own text is never written


def _all_fields(plan: Plan) -> Iterator[PlannedField]:
    yield from plan.headline
    for entity in plan.entities:
        yield from entity.fields


def _picker(slots: Sequence[int]) -> Callable[[list[str]], tuple]:
    """texts -> the tuple of texts at `slots` (itemgetter, which returns a bare value for one slot)."""
    if not slots:
        return lambda texts: ()
    if len(slots) == 1:
        only = slots[0]
        return lambda texts: (texts[only],)
    return itemgetter(*slots)


# --- JSON ---------------------------------------------------------------------------------------------


def _json_template(fields: Sequence[PlannedField], row_texts: _RowTexts) -> tuple[str, list[int]]:
    """`{"name":%s,...}` and the slots that fill it; always-null fields are written into the template."""
    members, slots = [], []
    for planned in fields:
        key = encode_basestring(planned.field.name).replace("%", "%%")
        slot = row_texts.slot(planned)
        if slot is None:
            members.append(f"{key}:null")
        else:
            members.append(f"{key}:%s")
            slots.append(slot)
    return "{" + ",".join(members) + "}", slots


@dataclass(frozen=True)
class _JsonObject:
    template: str
    pick: Callable[[list[str]], tuple]
    presence: int | None

    def render(self, row: tuple, texts: list[str]) -> str:
        if self.presence is not None and row[self.presence] is None:
            return "null"
        return self.template % self.pick(texts)


def _json_object(entity: PlannedEntity, row_texts: _RowTexts) -> _JsonObject:
    template, slots = _json_template(entity.fields, row_texts)
    return _JsonObject(template, _picker(slots), entity.presence_index)


def json_element_writer(plan: Plan) -> RowWriter:
    """One element as JSON text: the flat entity, or the composite of entities (after its headline fields)."""
    row_texts = _RowTexts(plan, writers=JSON_WRITERS, null="null", text=encode_basestring)
    if not plan.dataset.composite:
        flat = _json_object(plan.entities[0], row_texts)
        return lambda row: flat.render(row, row_texts.of(row))
    headline_template, headline_slots = _json_template(plan.headline, row_texts)
    headline = _picker(headline_slots)
    objects = tuple(_json_object(entity, row_texts) for entity in plan.entities)
    entity_keys = [encode_basestring(entity.name).replace("%", "%%") + ":%s" for entity in plan.entities]
    template = "{" + ",".join(([headline_template[1:-1]] if plan.headline else []) + entity_keys) + "}"

    def composite(row: tuple) -> str:
        texts = row_texts.of(row)
        return template % (headline(texts) + tuple([part.render(row, texts) for part in objects]))

    return composite


# --- CSV ---------------------------------------------------------------------------------------------------


def csv_header(plan: Plan) -> list[str]:
    """`entity.field` columns for a composite (headline fields bare, first); bare field names for a plain dataset."""
    if not plan.dataset.composite:
        return [planned.field.name for planned in plan.entities[0].fields]
    return [planned.field.name for planned in plan.headline] + [
        f"{entity.name}.{planned.field.name}" for entity in plan.entities for planned in entity.fields
    ]


def csv_cells_writer(plan: Plan) -> Callable[[tuple], tuple]:
    """row -> the cells of the header's columns; an absent entity's cells are all empty."""
    row_texts = _RowTexts(plan, writers=CSV_WRITERS, null="", text=str)
    empty_slot = len(plan.columns) + len(row_texts.derived)  # an extra "" at the end stands for always-null fields

    def picker(fields: Sequence[PlannedField]) -> Callable[[list[str]], tuple]:
        return _picker([empty_slot if row_texts.slot(f) is None else row_texts.slot(f) for f in fields])

    groups = [(None, picker(plan.headline), ())] if plan.headline else []
    groups += [(entity.presence_index, picker(entity.fields), ("",) * len(entity.fields)) for entity in plan.entities]

    def cells(row: tuple) -> tuple:
        texts = row_texts.of(row)
        texts.append("")
        out: tuple = ()
        for presence, pick, absent in groups:
            out += absent if presence is not None and row[presence] is None else pick(texts)
        return out

    return cells


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
