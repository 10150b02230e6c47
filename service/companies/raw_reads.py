"""Hand-written SQL reads whose rows come back as the model instances the ORM would build.

The four most used company reads (basic info, credit risk, flags, accounts) are one SQL
statement each, written out in full in their selectors: compiling the equivalent querysets
cost Django ~3 ms a request, more than the database's work, and every further round trip
costs the web process ~0.5 ms under load. A statement selects whole tables (`c.*, ot.*`);
`model_rows` cuts each row into one instance per table, in the order the caller names the
models, with Django's own converters, so the same SQL gives the same values on SQLite and
PostgreSQL and the shaping code reads `company.name` as after any ORM read.
"""

from __future__ import annotations

from collections.abc import Sequence

import psycopg
from django.db import connection, connections
from django.db.models import Model
from django.db.models.base import ModelState


class _PreparedCursor(psycopg.Cursor):
    """Server-side binding, every statement prepared: PostgreSQL plans a query once per
    connection instead of on every request (planning the company query's fifteen joins
    takes ~11 ms, running it ~0.3 ms). Only these reads use it; the ORM keeps Django's
    client-side binding. Needs a direct connection (no transaction-pooling pgbouncer)."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        return super().execute(query, params, prepare=True, binary=binary)


def _cursor():
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:
        # Django turns preparing off (None); a threshold no query reaches leaves the ORM's
        # queries unprepared (client-side binding never prepares anyway) and lets ours ask.
        raw.prepare_threshold = 2**31
    cursor = _PreparedCursor(raw)
    # Django's wrapper: query logging in tests, execute_wrappers, database error translation
    return connection.make_debug_cursor(cursor) if connection.queries_logged else connection.make_cursor(cursor)


class _Reader:
    """How one model's columns of a row become an instance: where each field's value sits in
    the row (found by column name, so a table's physical column order does not matter) and
    the converters the ORM would apply to it."""

    def __init__(self, model: type[Model], names: Sequence[str]) -> None:
        fields = model._meta.concrete_fields
        by_column = {name: position for position, name in enumerate(names)}
        self.model = model
        self.attnames = [field.attname for field in fields]
        self.positions = [by_column[field.column] for field in fields]
        self.pk_position = by_column[model._meta.pk.column]
        self.converters = []
        for index, field in enumerate(fields):
            expression = field.get_col(model._meta.db_table)
            functions = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
            if functions:
                self.converters.append((index, functions, expression))

    def instance(self, row: Sequence, start: int, previous: dict, db) -> Model | None:
        pk = row[start + self.pk_position]
        if pk is None:
            return None  # nothing joined (a LEFT JOIN without a match)
        if (start, pk) in previous:
            return previous[start, pk]  # the same row of this table again (the company on every accounts row)
        values = [row[start + position] for position in self.positions]
        for index, functions, expression in self.converters:
            value = values[index]
            for function in functions:
                value = function(value, expression, db)
            values[index] = value
        # What Model.from_db builds, without Model.__init__'s descriptor call per foreign key
        # (~30 us each, most of this read's time): the values go straight into the instance.
        instance = self.model.__new__(self.model)
        instance.__dict__.update(zip(self.attnames, values))
        instance._state = ModelState()
        instance._state.adding = False
        instance._state.db = db.alias
        previous[start, pk] = instance
        return instance


_readers: dict[tuple, list[tuple[int, _Reader]]] = {}


def _readers_for(models: Sequence[type[Model]], names: list[str]) -> list[tuple[int, _Reader]]:
    readers, start = [], 0
    for model in models:
        width = len(model._meta.concrete_fields)
        readers.append((start, _Reader(model, names[start : start + width])))
        start += width
    if start != len(names):
        raise ValueError(f"the statement selects {len(names)} columns, the models have {start}")
    return readers


def model_rows(sql: str, params: Sequence, models: Sequence[type[Model]]) -> list[tuple[Model | None, ...]]:
    """Run a SELECT of whole tables (`SELECT a.*, b.* ...`, in the order of `models`) and give
    each row as a tuple with one instance per model, None where a LEFT JOIN found nothing."""
    key = (connection.vendor, sql, tuple(models))
    readers = _readers.get(key)
    with _cursor() as cursor:
        cursor.execute(sql, params)
        if readers is None:  # reading the description costs ~0.3 ms for a hundred columns: once per statement
            readers = _readers_for(models, [column[0] for column in cursor.description])
            if len(_readers) > 1000:  # statements differ only in their count of IN values: a bound, not a leak
                _readers.clear()
            _readers[key] = readers
        rows = cursor.fetchall()
    seen: dict = {}
    db = connections[connection.alias]  # the connection itself: `connection` is a proxy, ~20 us an attribute
    return [tuple(reader.instance(row, start, seen, db) for start, reader in readers) for row in rows]
