"""Loading an empty table fast on PostgreSQL: build its indexes once instead of row by row.

The company table carries 14 indexes and 10 foreign keys; maintaining them per
inserted row costs several times the COPY itself. For an initial load into an empty
table, its secondary indexes and foreign keys are dropped inside the load's
transaction and re-created from their own definitions (`pg_get_indexdef`,
`pg_get_constraintdef`) at the end: one sort per index and one join per foreign key.
DDL is transactional in PostgreSQL, so a failed load leaves the schema as it was. The
primary key and unique constraints stay (the upsert looks rows up by them). The table
is locked against other sessions for the duration.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.models import Model


class BulkLoadRefused(Exception):
    pass


@contextmanager
def table_bulk_load(model: type[Model]) -> Iterator[None]:
    """A transaction in which `model`'s empty table is loaded without per-row index upkeep."""
    if connection.vendor != "postgresql":
        raise BulkLoadRefused("a bulk load needs PostgreSQL")
    table = connection.ops.quote_name(model._meta.db_table)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        if model.objects.exists():
            raise BulkLoadRefused(f"a bulk load needs an empty {model._meta.db_table} table")
        cursor.execute(
            "SELECT c.relname, pg_get_indexdef(c.oid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE i.indrelid = %s::regclass AND NOT i.indisprimary AND NOT i.indisunique",
            [model._meta.db_table],
        )
        indexes = cursor.fetchall()
        cursor.execute(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = %s::regclass AND contype = 'f'",
            [model._meta.db_table],
        )
        foreign_keys = cursor.fetchall()
        _pending_checks_run(cursor)
        for name, _ in foreign_keys:
            cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {connection.ops.quote_name(name)}")
        for name, _ in indexes:
            cursor.execute(f"DROP INDEX {connection.ops.quote_name(name)}")
        yield
        _pending_checks_run(cursor)
        for _, definition in indexes:
            cursor.execute(definition)
        for name, definition in foreign_keys:
            cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {connection.ops.quote_name(name)} {definition}")


def _pending_checks_run(cursor) -> None:
    """Check the deferred foreign keys of rows written so far now: PostgreSQL refuses to alter a
    table that has pending trigger events. Then back to Django's deferred mode."""
    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    cursor.execute("SET CONSTRAINTS ALL DEFERRED")
