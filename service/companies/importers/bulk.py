"""Bulk writes of plain row dicts (keyed by column attname), fast on PostgreSQL, portable elsewhere.

On PostgreSQL rows go in with COPY (psycopg formats them in C): straight into the
table for inserts, or into a temporary table and then `INSERT ... SELECT ... ON
CONFLICT DO UPDATE` for upserts. Building a million model instances and letting
the ORM render a million-row VALUES list costs several times more. Elsewhere
(SQLite in tests and `make run`) the ORM's bulk_create does the same job.

Rows must carry every column the table needs, including `uuid` and timestamps:
these paths skip the model's Python defaults.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection, transaction
from django.db.models import Model


def rows_insert(*, model: type[Model], rows: Sequence[dict]) -> None:
    if not rows:
        return
    if connection.vendor == "postgresql":
        _copy(model._meta.db_table, list(rows[0]), rows)
    else:
        model.objects.bulk_create([model(**row) for row in rows], batch_size=2000)


def rows_upsert(
    *, model: type[Model], rows: Sequence[dict], unique_fields: Sequence[str], update_fields: Sequence[str]
) -> None:
    """Insert rows, or update `update_fields` of the row already holding the same `unique_fields`."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            [model(**row) for row in rows],
            batch_size=2000,
            update_conflicts=True,
            unique_fields=unique_fields,
            update_fields=update_fields,
        )
        return
    table = model._meta.db_table
    columns = list(rows[0])
    staging = f"_upsert_{table}"
    column_list = ", ".join(_quote(c) for c in columns)
    conflict = ", ".join(_quote(_column(model, f)) for f in unique_fields)
    updates = ", ".join(f"{_quote(c)} = EXCLUDED.{_quote(c)}" for c in (_column(model, f) for f in update_fields))
    with transaction.atomic(), connection.cursor() as cursor:
        # ON COMMIT DROP: the staging table lives only as long as this transaction.
        cursor.execute(
            f"CREATE TEMP TABLE IF NOT EXISTS {_quote(staging)} ON COMMIT DROP AS "
            f"SELECT {column_list} FROM {_quote(table)} WITH NO DATA"
        )
        cursor.execute(f"TRUNCATE {_quote(staging)}")
        _copy(staging, columns, rows, cursor=cursor)
        cursor.execute(
            f"INSERT INTO {_quote(table)} ({column_list}) SELECT {column_list} FROM {_quote(staging)} "
            f"ON CONFLICT ({conflict}) DO UPDATE SET {updates}"
        )


def _copy(table: str, columns: list[str], rows: Sequence[dict], *, cursor=None) -> None:
    sql = f"COPY {_quote(table)} ({', '.join(_quote(c) for c in columns)}) FROM STDIN"
    if cursor is None:
        with connection.cursor() as own_cursor:
            _copy_rows(own_cursor, sql, columns, rows)
    else:
        _copy_rows(cursor, sql, columns, rows)


def _copy_rows(cursor, sql: str, columns: list[str], rows: Sequence[dict]) -> None:
    # The raw psycopg cursor: wrap its errors so a unique violation is Django's IntegrityError.
    with connection.wrap_database_errors, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row([row[c] for c in columns])


def _column(model: type[Model], name: str) -> str:
    return model._meta.get_field(name).column


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)
