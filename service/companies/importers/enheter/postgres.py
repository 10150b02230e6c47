"""The PostgreSQL writer: checked blocks go in by COPY, then a few set-based statements.

Each block is encoded in PostgreSQL's binary COPY format by pgpq (from the Arrow columns,
in Rust) and sent with psycopg's COPY (FORMAT binary); psycopg's queued writer sends it
from a thread of its own while the next block is checked. Binary, because parsing text
was most of the database's work: a row carries a dozen uuids and dates, and as text
COPY took PostgreSQL about three times as long (measured on 300,000 rows). Where the
rows go:

- a first load (an empty register, at least INITIAL_LOAD_MIN_ROWS rows): straight into
  the company table, stripped of its indexes and keys (bulk_load.py), with uuids drawn
  here; the schema and timestamps come from column defaults for the load's duration. The employment periods
  and risk statuses the new companies open are then inserted from the table in SQL. A
  company repeated in the file goes in at its first row; its later rows are written
  after the load as below, so the last one wins and each counts.
- otherwise: into the temporary table `_enheter_rows`, from which `INSERT ... ON CONFLICT
  DO UPDATE ... WHERE the values differ` writes new and changed companies (an unchanged
  one is not rewritten and keeps its update_timestamp), once per occurrence of a
  repeated organisation number, in file order; `_enheter_written` (uuid, created, new and
  previous head count and statuses) drives the history, with writer.py's rules.

New postal codes and countries come with the uuids references.py chose for them and are
created once the COPY is done (one created meanwhile by another import keeps its own
uuid, and the rows are pointed at it).
"""

from __future__ import annotations

import os
import queue
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from datetime import date, datetime

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from django.db import connection
from django.utils import timezone
from pgpq import ArrowToPostgresBinaryEncoder
from psycopg.copy import QueuedLibpqWriter

from service.companies.importers.analysis_hook import ALL_THRESHOLD, AffectedCompanies
from service.companies.importers.enheter.references import UUID_BYTES, EnhetReferences
from service.companies.importers.enheter.writer import COMPANY_FIELDS, STATUSES
from service.companies.importers.result import ImportResult
from service.companies.models import Company, CompanyEmployment, CompanyRiskStatus, CompanyRiskStatusType

ROWS = "_enheter_rows"
WRITTEN = "_enheter_written"
BEFORE = "_enheter_before"
# Memory for the upsert's sorts and hashes (this transaction only).
WORK_MEM = "128MB"
_HISTORY_COLUMNS = ["employees", *(flag for flag, _ in STATUSES.values())]
# A written company's values before: its history's, and its name (a renamed company is screened again).
_BEFORE_COLUMNS = [*_HISTORY_COLUMNS, "name"]
_ROW_COLUMNS = ["org_nr", *COMPANY_FIELDS]


def table_name(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


class PostgresWriter:
    def __init__(
        self,
        *,
        now: datetime,
        initial_load: Callable[[int], AbstractContextManager | None],
        min_rows: int,
        refs: EnhetReferences,
        result: ImportResult,
        affected: AffectedCompanies,
    ) -> None:
        self.now, self.initial_load, self.min_rows, self.refs = now, initial_load, min_rows, refs
        self.result, self.affected = result, affected
        self.ahead: list[pa.Table] = []  # blocks read before deciding how to load
        self.first_load: ExitStack | None = None
        self.decided = False
        self.seen = _Seen()  # organisation numbers loaded (first load)
        self.repeats: list[pa.Table] = []  # later rows of a company repeated in a first load
        self.loaded = 0
        self.copy: _BinaryCopy | None = None
        self.renamed: set[uuid.UUID] = set()  # stored companies whose name this import changed

    def write(self, rows: pa.Table) -> None:
        if not self.decided:
            # Read up to min_rows rows before deciding: a small file is not worth locking the tables for.
            self.ahead.append(rows)
            if sum(block.num_rows for block in self.ahead) >= self.min_rows:
                self._decide()
            return
        self._send(rows)

    def _copy_end(self) -> None:
        if self.copy is not None:
            self.copy.close()
            self.copy = None

    def abort(self, exc: BaseException) -> None:
        """The import failed (its transaction is rolled back): leave the COPY and the first load without
        finishing them."""
        for stack in (self.copy, self.first_load):
            if stack is not None:
                try:
                    stack.__exit__(type(exc), exc, exc.__traceback__)
                except BaseException:  # noqa: BLE001, S110 (the first failure is the one raised)
                    pass
        self.copy = self.first_load = None

    def finish(self) -> None:
        if not self.decided:
            self._decide()
        self._copy_end()
        self._references_create(table_name(Company) if self.first_load is not None else ROWS)
        if self.first_load is not None:
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {table_name(Company)} " + ", ".join(f"ALTER {c} DROP DEFAULT" for c in _DEFAULTS))
            history_write(now=self.now, today=timezone.localdate(self.now), source=table_name(Company))
            self.first_load.close()  # indexes and keys back
            self.result.tally(created=self.loaded, updated=0, unchanged=0)
            affected_add(self.affected, source=table_name(Company))
            if not self.repeats:
                return
            _rows_table_create()
            repeats = _BinaryCopy(ROWS, ["ordinal", *_ROW_COLUMNS])
            for rows in self.repeats:
                repeats.send(rows)
            repeats.close()
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {ROWS}")
        for occurrence in range(1, occurrences_number() + 1):
            counts = companies_write(occurrence=occurrence, now=self.now)
            self.result.tally(created=counts.created, updated=counts.updated, unchanged=counts.rows - counts.created - counts.updated)
            history_write(now=self.now, today=timezone.localdate(self.now))
            affected_add(self.affected)
            self.renamed |= renamed_companies()

    def _references_create(self, table: str) -> None:
        """The new postal codes and countries the rows point at; where another import created one meanwhile,
        the rows are pointed at that one."""
        for chosen, actual in self.refs.pending_create().items():
            with connection.cursor() as cursor:
                for column in ("business_postal_code_id", "postal_postal_code_id", "business_country_id", "postal_country_id"):
                    cursor.execute(f"UPDATE {table} SET {column} = %s WHERE {column} = %s", [actual, chosen])

    def _decide(self) -> None:
        self.decided = True
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL work_mem = %s", [WORK_MEM])
        loading = self.initial_load(sum(block.num_rows for block in self.ahead))
        if loading is not None:
            self.first_load = ExitStack()
            self.first_load.enter_context(loading)
            # The empty table is locked by this transaction, and the defaults go again before it ends.
            # (a literal: DDL takes no parameters; isoformat() has no quote to escape)
            stamp = f"'{self.now.isoformat()}'::timestamptz"
            defaults = {"org_nr_schema": "'NO'", "create_timestamp": stamp, "update_timestamp": stamp}
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {table_name(Company)} " + ", ".join(f"ALTER {c} SET DEFAULT {v}" for c, v in defaults.items()))
        else:
            _rows_table_create()
        for rows in self.ahead:
            self._send(rows)
        self.ahead = []

    def _send(self, rows: pa.Table) -> None:
        if self.first_load is not None:
            rows = self._first_occurrences(rows)
            rows = rows.append_column("uuid", _uuid4s(rows.num_rows))
            self.loaded += rows.num_rows
            columns, target = ["uuid", *_ROW_COLUMNS], table_name(Company)
        else:
            columns, target = ["ordinal", *_ROW_COLUMNS], ROWS
        if not rows.num_rows:
            return
        if self.copy is None:
            self.copy = _BinaryCopy(target, columns)
        self.copy.send(rows)

    def _first_occurrences(self, rows: pa.Table) -> pa.Table:
        """The rows of companies not loaded yet; the others are kept for after the load."""
        first = self.seen.first_time(pc.cast(rows.column("org_nr"), pa.int64()).to_numpy())
        if first.all():
            return rows
        self.repeats.append(rows.filter(pa.array(~first)))
        return rows.filter(pa.array(first))


class _Seen:
    """Organisation numbers seen so far, a bit each: a valid number is known by its first eight digits
    (the ninth is their check digit), so 12.5 MB hold them all."""

    def __init__(self) -> None:
        self.bits = np.zeros(10**8 // 8, dtype=np.uint8)

    def first_time(self, numbers: np.ndarray) -> np.ndarray:
        """Which of the numbers are seen for the first time (the first of a repeat within them counts)."""
        prefixes = numbers // 10
        byte, bit = prefixes >> 3, np.left_shift(1, prefixes & 7).astype(np.uint8)
        first = np.zeros(len(numbers), dtype=bool)
        first[np.unique(prefixes, return_index=True)[1]] = True
        first &= (self.bits[byte] & bit) == 0
        order = np.argsort(byte, kind="stable")
        ordered = byte[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        self.bits[ordered[starts]] |= np.bitwise_or.reduceat(bit[order], starts)
        return first


_DEFAULTS = ("org_nr_schema", "create_timestamp", "update_timestamp")


def _uuid4s(count: int) -> pa.Array:
    """`count` random (version 4) uuids as UUID_BYTES: a million cost PostgreSQL's gen_random_uuid() about
    5 s of the COPY's core, here a few milliseconds."""
    raw = np.frombuffer(os.urandom(16 * count), dtype=np.uint8).reshape(count, 16).copy()
    raw[:, 6] = (raw[:, 6] & 0x0F) | 0x40  # the version
    raw[:, 8] = (raw[:, 8] & 0x3F) | 0x80  # the variant
    return pa.Array.from_buffers(UUID_BYTES, count, [None, pa.py_buffer(raw.tobytes())])


class _BinaryCopy(ExitStack):
    """An open COPY (FORMAT binary) of `columns` into `table`, to be closed (or exited with the error).

    The binary format carries no types: each value must be what the column's type reads, so uuids go as
    their 16 bytes (a uuid reads exactly those), text as UTF-8, dates as days and whole numbers at the
    column's width (references.py and rules.py give the columns those Arrow types)."""

    def __init__(self, table: str, columns: list[str]) -> None:
        super().__init__()
        self.columns = columns
        self.encoder: ArrowToPostgresBinaryEncoder | None = None
        cursor = self.enter_context(connection.cursor())
        self.enter_context(connection.wrap_database_errors)
        raw = cursor.cursor
        self.copy = self.enter_context(
            raw.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN (FORMAT binary)", writer=_QueuedWriter(raw))
        )

    def send(self, rows: pa.Table) -> None:
        rows = rows.select(self.columns)
        if self.encoder is None:
            self.encoder = ArrowToPostgresBinaryEncoder(rows.schema)
            self.copy.write(self.encoder.write_header())
        for batch in rows.to_batches():
            self.copy.write(self.encoder.write_batch(batch))

    def close(self) -> None:
        if self.encoder is None:  # nothing sent: the header alone still makes an empty binary COPY
            self.encoder = ArrowToPostgresBinaryEncoder(pa.schema([]))
            self.copy.write(self.encoder.write_header())
        self.copy.write(self.encoder.finish())
        super().close()


class _QueuedWriter(QueuedLibpqWriter):
    """psycopg's queued COPY writer with a short queue: when the database falls behind, the reader waits
    instead of holding the file in memory."""

    def __init__(self, cursor) -> None:
        super().__init__(cursor)
        self._queue = queue.Queue(maxsize=64)


def _rows_table_create() -> None:
    types = {name: Company._meta.get_field(name).cast_db_type(connection) for name in _ROW_COLUMNS}
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {ROWS}")
        cursor.execute(
            f"CREATE TEMP TABLE {ROWS} (ordinal bigint, occurrence integer NOT NULL DEFAULT 1, "
            + ", ".join(f"{name} {kind}" for name, kind in types.items())
            + ") ON COMMIT DROP"
        )


def occurrences_number() -> int:
    """Number the occurrences of an organisation number repeated in `_enheter_rows`; the highest occurrence."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {ROWS} r SET occurrence = d.occurrence FROM ("
            f"SELECT ordinal, row_number() OVER (PARTITION BY org_nr ORDER BY ordinal) AS occurrence FROM {ROWS} "
            f"WHERE org_nr IN (SELECT org_nr FROM {ROWS} GROUP BY org_nr HAVING count(*) > 1)"
            ") d WHERE r.ordinal = d.ordinal AND d.occurrence > 1"
        )
        if not cursor.rowcount:
            return 1
        cursor.execute(f"SELECT max(occurrence) FROM {ROWS}")
        return cursor.fetchone()[0]


@dataclass
class RoundCounts:
    rows: int
    created: int
    updated: int


def companies_write(*, occurrence: int, now: datetime) -> RoundCounts:
    """One occurrence of each organisation number: insert, or update where a value differs."""
    company = table_name(Company)
    fields = list(COMPANY_FIELDS)
    columns = ["uuid", "org_nr_schema", "org_nr", *fields, "create_timestamp", "update_timestamp"]
    select = ", ".join(["gen_random_uuid()", "'NO'", "r.org_nr", *(f"r.{f}" for f in fields), "%(now)s", "%(now)s"])
    changed = f"({', '.join(f'{company}.{f}' for f in fields)}) IS DISTINCT FROM ({', '.join(f'EXCLUDED.{f}' for f in fields)})"
    differs = f"({', '.join(f'c.{f}' for f in fields)}) IS DISTINCT FROM ({', '.join(f'r.{f}' for f in fields)})"
    returned = ", ".join(_BEFORE_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {BEFORE}, {WRITTEN}")
        # This round's rows that need writing, new or differing from the stored company (with its values
        # before), found in one join: only they go on to the upsert (an unchanged million would each cost a
        # conflict probe there).
        cursor.execute(
            f"CREATE TEMP TABLE {BEFORE} ON COMMIT DROP AS SELECT r.ordinal, r.org_nr, c.org_nr IS NOT NULL AS stored, "
            f"{', '.join(f'c.{h}' for h in _BEFORE_COLUMNS)} "
            f"FROM {ROWS} r LEFT JOIN {company} c ON c.org_nr_schema = 'NO' AND c.org_nr = r.org_nr "
            f"WHERE r.occurrence = %(occurrence)s AND (c.org_nr IS NULL OR {differs})",
            {"occurrence": occurrence},
        )
        cursor.execute(
            f"CREATE TEMP TABLE {WRITTEN} ON COMMIT DROP AS WITH w AS ("
            f"INSERT INTO {company} ({', '.join(columns)}) SELECT {select} FROM {ROWS} r "
            f"JOIN {BEFORE} b ON b.ordinal = r.ordinal "
            f"ON CONFLICT (org_nr_schema, org_nr) DO UPDATE SET "
            + ", ".join(f"{f} = EXCLUDED.{f}" for f in [*fields, "update_timestamp"])
            + f" WHERE {changed} RETURNING uuid, org_nr, {returned}, "
            + ", ".join(f"{date_field}" for _, date_field in STATUSES.values())
            + ") SELECT w.*, NOT b.stored AS created, "
            + ", ".join(f"b.{h} AS before_{h}" for h in _BEFORE_COLUMNS)
            + f" FROM w JOIN {BEFORE} b ON b.org_nr = w.org_nr",
            {"now": now},
        )
        cursor.execute(
            f"SELECT (SELECT count(*) FROM {ROWS} WHERE occurrence = %s), count(*) FILTER (WHERE created), "
            f"count(*) FILTER (WHERE NOT created) FROM {WRITTEN}",
            [occurrence],
        )
        return RoundCounts(*cursor.fetchone())


def renamed_companies() -> set[uuid.UUID]:
    """The stored companies this round gave a new name."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT uuid FROM {WRITTEN} WHERE NOT created AND name IS DISTINCT FROM before_name")
        return {value for (value,) in cursor.fetchall()}


def history_write(*, now: datetime, today: date, source: str = WRITTEN) -> None:
    """Employment periods and risk statuses for what this round created or changed (writer.py's rules).
    `source` is `_enheter_written`, or after a first load the company table itself (all created)."""
    employment, statuses = table_name(CompanyEmployment), table_name(CompanyRiskStatus)
    created_only = source != WRITTEN
    with connection.cursor() as cursor:
        if not created_only:
            cursor.execute(
                f"UPDATE {employment} e SET to_date = %(now)s FROM {WRITTEN} w WHERE e.company_id = w.uuid "
                "AND NOT w.created AND w.employees IS DISTINCT FROM w.before_employees AND e.to_date IS NULL",
                {"now": now},
            )
        previous = "NULL" if created_only else "before_employees"
        changed = "true" if created_only else "(created OR employees IS DISTINCT FROM before_employees)"
        cursor.execute(
            f"INSERT INTO {employment} (uuid, company_id, employee_count, employee_date, from_date, to_date, "
            "employee_count_from, employee_count_to) SELECT gen_random_uuid(), uuid, employees, %(now)s, %(now)s, "
            f"NULL, {previous}, employees FROM {source} WHERE employees IS NOT NULL AND {changed}",
            {"now": now},
        )
        type_uuids = dict(CompanyRiskStatusType.objects.filter(key__in=STATUSES).values_list("key", "uuid"))
        if created_only:
            # Every status of a new company opens: one scan of the table for the three of them.
            values = ", ".join(f"(c.{flag}, c.{date_field}, %(type_{key})s::uuid)" for key, (flag, date_field) in STATUSES.items())
            cursor.execute(
                f"INSERT INTO {statuses} (uuid, company_id, company_risk_status_type_id, from_date, to_date) "
                f"SELECT gen_random_uuid(), c.uuid, s.type, coalesce(s.date, %(today)s), NULL FROM {source} c "
                f"CROSS JOIN LATERAL (VALUES {values}) s (flag, date, type) "
                f"WHERE ({' OR '.join(f'c.{flag}' for flag, _ in STATUSES.values())}) AND s.flag",
                {"today": today, **{f"type_{key}": type_uuids[key] for key in STATUSES}},
            )
            return
        for key, (flag, date_field) in STATUSES.items():
            cursor.execute(
                f"UPDATE {statuses} s SET to_date = %(today)s FROM {WRITTEN} w WHERE s.company_id = w.uuid "
                f"AND NOT w.created AND w.before_{flag} AND NOT w.{flag} "
                "AND s.company_risk_status_type_id = %(type)s AND s.to_date IS NULL",
                {"today": today, "type": type_uuids[key]},
            )
            cursor.execute(
                f"INSERT INTO {statuses} (uuid, company_id, company_risk_status_type_id, from_date, to_date) "
                f"SELECT gen_random_uuid(), uuid, %(type)s, coalesce({date_field}, %(today)s), NULL FROM {source} "
                f"WHERE {flag} AND (created OR NOT before_{flag})",
                {"today": today, "type": type_uuids[key]},
            )


def affected_add(affected: AffectedCompanies, *, source: str = WRITTEN) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT uuid FROM {source} LIMIT %s", [ALL_THRESHOLD + 1])
        affected.add(value if isinstance(value, uuid.UUID) else uuid.UUID(str(value)) for (value,) in cursor.fetchall())
