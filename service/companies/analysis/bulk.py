"""Bulk upserts for the analysis: one statement per batch instead of one per row.

On PostgreSQL the rows travel as binary arrays into
`INSERT ... SELECT gen_random_uuid(), * FROM unnest(...) ON CONFLICT (...) DO UPDATE`,
bound server-side by psycopg (Django's client-side binding would quote each of the
hundreds of thousands of values in Python). Elsewhere (SQLite) Django's bulk_create
with update_conflicts does the same job.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.db import connection
from django.db.models import Model

_PG_TYPES = {
    "UUIDField": "uuid",
    "ForeignKey": "uuid",
    "OneToOneField": "uuid",
    "IntegerField": "integer",
    "DecimalField": "numeric",
    "DateTimeField": "timestamptz",
    "DateField": "date",
    "CharField": "text",
    "BooleanField": "boolean",
    "JSONField": "jsonb",
}


def is_postgresql() -> bool:
    return connection.vendor == "postgresql"


def upsert(
    *,
    model: type[Model],
    columns: Sequence[str],
    rows: Sequence[tuple],
    conflict: Sequence[str],
    update: Sequence[str],
    new_uuid: bool = True,
) -> int:
    """Insert `rows` (tuples in the order of `columns`, field names), updating `update` on conflict.

    `new_uuid`: the model's uuid primary key is generated for new rows (kept on update).
    """
    if not rows:
        return 0
    if is_postgresql():
        _pg_upsert(model, columns, rows, conflict, update, new_uuid)
    else:
        objects = []
        for row in rows:
            values = dict(zip(columns, row))
            if new_uuid:
                values["uuid"] = uuid.uuid4()
            objects.append(model(**values))
        model.objects.bulk_create(
            objects, batch_size=500, update_conflicts=True, unique_fields=list(conflict), update_fields=list(update)
        )
    return len(rows)


def _pg_upsert(model, columns, rows, conflict, update, new_uuid) -> None:
    import psycopg
    from psycopg.types.json import Jsonb

    meta = model._meta
    fields = [meta.get_field(name) for name in columns]
    db_columns = [field.column for field in fields]
    types = [_PG_TYPES[field.get_internal_type()] for field in fields]
    arrays = [list(values) for values in zip(*rows)]
    for index, field in enumerate(fields):
        if field.get_internal_type() == "JSONField":
            arrays[index] = [None if value is None else Jsonb(value) for value in arrays[index]]
    names = ", ".join(f'"{c}"' for c in db_columns)
    unnest = ", ".join(f"%s::{t}[]" for t in types)
    conflict_columns = ", ".join(f'"{meta.get_field(name).column}"' for name in conflict)
    updates = ", ".join(f'"{meta.get_field(name).column}" = EXCLUDED."{meta.get_field(name).column}"' for name in update)
    target = f'"uuid", {names}' if new_uuid else names
    select = f"gen_random_uuid(), {names}" if new_uuid else names
    sql = (
        f'INSERT INTO "{meta.db_table}" ({target}) SELECT {select} FROM unnest({unnest}) AS t({names}) '
        f"ON CONFLICT ({conflict_columns}) DO UPDATE SET {updates}"
    )
    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, arrays)
