"""Hand-written SQL reads whose rows come back as the model instances the ORM would build.

The four most used company reads (basic info, credit risk, flags, accounts) are one SQL
statement each, written out in full in their selectors: compiling the equivalent querysets
cost Django ~3 ms a request, more than the database's work, and every further round trip
costs the web process ~0.5 ms under load. A statement selects whole tables (`c.*, ot.*`),
or where an answer shows a few of a wide table's fields only those (`Only`, as
`QuerySet.only()`: the columns are named by `Only.select`, the other fields deferred);
`model_rows` cuts each row into one instance per table, in the order the caller names the
models, with Django's own converters, so the same SQL gives the same values on SQLite and
PostgreSQL and the shaping code reads `company.name` as after any ORM read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model
from django.db.models.base import ModelState


class _PreparedCursor(psycopg.Cursor):
    """Server-side binding, every statement prepared: PostgreSQL plans a query once per
    connection instead of on every request (planning the company query's fifteen joins
    takes ~11 ms, running it ~0.3 ms). Only these reads use it; the ORM keeps Django's
    client-side binding. Needs a direct connection (no transaction-pooling pgbouncer)."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        return super().execute(query, params, prepare=True, binary=binary)


@dataclass(frozen=True)
class Only:
    """Some fields of a model, as `QuerySet.only()` reads them: the instance defers the others
    (reading one costs a query, as after `.only()`)."""

    model: type[Model]
    fields: tuple[str, ...]

    def select(self, alias: str) -> str:
        """The select list for these fields of the table aliased `alias` (`c.uuid, c.name`)."""
        return ", ".join(f"{alias}.{field.column}" for field in self.concrete_fields())

    def concrete_fields(self) -> list:
        return [self.model._meta.get_field(name) for name in self.fields]


def _cursor(connection):
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

    def __init__(self, model: type[Model], fields: Sequence, names: Sequence[str], start: int, connection) -> None:
        by_column = {name: start + position for position, name in enumerate(names)}
        self.model = model
        self.attnames = [field.attname for field in fields]
        positions = [by_column[field.column] for field in fields]
        # one C call takes the model's values out of the row (a tuple even for one field)
        self.values = itemgetter(*positions) if len(positions) > 1 else lambda row: (row[positions[0]],)
        self.pk_position = by_column[model._meta.pk.column]
        self.converters = []
        for index, field in enumerate(fields):
            expression = field.get_col(model._meta.db_table)
            functions = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
            if functions:
                self.converters.append((index, functions, expression))

    def instance(self, row: Sequence, previous: dict, db) -> Model | None:
        """The instance of this model in `row`; `previous` holds each reader's last (pk, instance)."""
        pk = row[self.pk_position]
        if pk is None:
            return None  # nothing joined (a LEFT JOIN without a match)
        last = previous.get(self)
        if last is not None and last[0] == pk:
            return last[1]  # this table's row as on the row before (the company on every accounts row)
        values = self.values(row)
        if self.converters:
            values = list(values)
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
        previous[self] = (pk, instance)
        return instance


_readers: dict[tuple, list[_Reader]] = {}


def _readers_for(models: Sequence[type[Model] | Only], names: list[str], connection) -> list[_Reader]:
    readers, start = [], 0
    for part in models:
        only = isinstance(part, Only)
        model, fields = (part.model, part.concrete_fields()) if only else (part, part._meta.concrete_fields)
        width = len(fields)
        readers.append(_Reader(model, fields, names[start : start + width], start, connection))
        start += width
    if start != len(names):
        raise ValueError(f"the statement selects {len(names)} columns, the models have {start}")
    return readers


def model_rows(sql: str, params: Sequence, models: Sequence[type[Model] | Only]) -> list[tuple[Model | None, ...]]:
    """Run a SELECT of whole tables (`SELECT a.*, b.* ...`, in the order of `models`; an `Only`
    stands for its select list) and give each row as a tuple with one instance per model, None
    where a LEFT JOIN found nothing. A table's row repeated on consecutive rows (the company on
    every accounts row) is one instance; elsewhere equal rows are equal instances, as select_related gives."""
    # the connection itself, once: `django.db.connection` is a proxy, ~20 us an attribute
    db = connections[DEFAULT_DB_ALIAS]
    key = (db.vendor, sql, tuple(models))
    readers = _readers.get(key)
    with _cursor(db) as cursor:
        cursor.execute(sql, params)
        if readers is None:  # reading the description costs ~0.3 ms for a hundred columns: once per statement
            readers = _readers_for(models, [column[0] for column in cursor.description], db)
            if len(_readers) > 1000:  # statements differ only in their count of IN values: a bound, not a leak
                _readers.clear()
            _readers[key] = readers
        rows = cursor.fetchall()
    last: dict = {}
    return [tuple([reader.instance(row, last, db) for reader in readers]) for row in rows]
