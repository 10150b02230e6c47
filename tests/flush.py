"""The committing tests' flush, made cheap. Hundreds of tests commit for real (the dashboard's
screening tests, the browser tests) and Django empties every table after each, then sends
post_migrate, which fills the catalogue tables again (service/key_rows.py) and the content
types and permissions.

- On PostgreSQL Django's flush is one TRUNCATE of all ~80 tables: about 0.3 s a test, as every
  table and index gets a new file. Deleting the few rows a test leaves takes about 15 ms. The
  foreign keys Django makes are deferrable, so the rows go in any order and the constraints are
  checked at the flush's commit. A table with a trigger of its own (the audit log's append-only
  one refuses a DELETE) is still truncated: TRUNCATE fires no row trigger.
- On both, the content types and permissions are kept: only post_migrate writes them, and it
  would write every row again.

The result is Django's: every other table empty, sequences as they were (a test that asks for
`reset_sequences` gets Django's TRUNCATE ... RESTART IDENTITY)."""

from __future__ import annotations

from django.db.backends.postgresql.base import DatabaseWrapper as PostgresqlWrapper
from django.db.backends.sqlite3.base import DatabaseWrapper as SqliteWrapper

PostgresqlOperations = PostgresqlWrapper.ops_class
SqliteOperations = SqliteWrapper.ops_class

KEPT = {"django_content_type", "auth_permission"}
_postgresql_truncating_flush = PostgresqlOperations.sql_flush
_sqlite_flush = SqliteOperations.sql_flush


def postgresql_deleting_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    tables = [table for table in tables if table not in KEPT]
    if reset_sequences or not tables:
        return _postgresql_truncating_flush(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    with self.connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal"
        )
        triggered = {name for (name,) in cursor.fetchall()}
    truncated = [table for table in tables if table in triggered]
    statements = []
    if truncated:  # first: TRUNCATE is refused on a table with deferred checks pending
        statements.append(f"TRUNCATE {', '.join(self.quote_name(table) for table in truncated)} CASCADE;")
    statements.append("SET CONSTRAINTS ALL DEFERRED;")
    statements += [f"DELETE FROM {self.quote_name(table)};" for table in tables if table not in triggered]
    return statements


def sqlite_keeping_flush(self, style, tables, **options):
    return _sqlite_flush(self, style, [table for table in tables if table not in KEPT], **options)


def install() -> None:
    PostgresqlOperations.sql_flush = postgresql_deleting_flush
    SqliteOperations.sql_flush = sqlite_keeping_flush
