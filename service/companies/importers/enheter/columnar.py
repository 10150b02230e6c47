"""An Enhetsregisteret CSV read, checked and mapped column by column (PostgreSQL).

The set-based path (staging.py, set_based.py) copies the file into a staging table of
text and checks it in SQL, where each field of each row costs its own function calls
(~17-30 s for a million rows). Here the file is read by pyarrow's CSV reader in blocks
of some 10,000 rows, and every rule of mapping.py runs on whole columns at once with
pyarrow.compute and numpy (trim, lengths, the mod-11 check, dates, whole numbers,
flags, reference codes by hash lookups), so a rule costs one pass over a column in C.
The accepted rows are encoded as PostgreSQL binary COPY fields (16-byte uuids,
big-endian integers, dates as days since 2000-01-01), a column at a time, and copied
while the next block is checked: the database stores one block on one core while
Python checks the next on the other. Rejected rows get their reason from mapping.py
itself, warnings and new postal codes and countries follow mapping.py's order.

Where the rows go:

- a first load (an empty register, at least INITIAL_LOAD_MIN_ROWS rows): straight into
  the company table, stripped of its indexes and keys (bulk_load.py), with new uuids;
  the employment periods and risk statuses the new companies open are gathered in
  temporary files on the way and copied after them;
- otherwise: into set_based.py's `_enheter_rows` table, whose upsert compares them
  with the stored companies (unchanged ones are not written) and keeps the history.

A file this path cannot take as it is goes the set-based way, after the work done so
far is rolled back to a savepoint: JSON, a row with the wrong number of fields or a
broken quote, bytes that are not UTF-8 or NUL, a repeated column name, and in a first
load an organisation number repeated in the file (written once per occurrence, which
the upsert does). A quoted field over several lines is fine: lines are then counted
again by Python's csv module, only for the rows the report names.
"""

from __future__ import annotations

import io
import itertools
import logging
import os
import queue
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
from django.db import connection, transaction
from psycopg.copy import QueuedLibpqWriter

from service.companies.importers.analysis_hook import AffectedCompanies
from service.companies.importers.csv_rows import csv_rows
from service.companies.importers.enheter.mapping import ADDRESSES, enhet_checked
from service.companies.importers.enheter.records import (
    ADDRESS_LINE_SEPARATOR,
    COLUMNS,
    STATUS_DATE_COLUMNS,
)
from service.companies.importers.enheter.references import (
    NACE_UNSPECIFIED,
    EnhetReferences,
)
from service.companies.importers.enheter.set_based import (
    ROWS,
    affected_add,
    companies_write,
    history_write,
    occurrences_number,
    table_name,
)
from service.companies.importers.enheter.staging import LineBreaks, csv_header
from service.companies.importers.enheter.writer import STATUSES
from service.companies.importers.result import (
    WARNING_LINES_KEPT,
    ImportResult,
    RejectedRow,
    WarningGroup,
)
from service.companies.importers.source import (
    progress_advance,
    progress_bar,
    text_source_open,
)
from service.companies.importers.values import INT_MAX, INT_MIN, WHITESPACE, RowRejected
from service.companies.models import (
    Company,
    CompanyEmployment,
    CompanyRiskStatus,
    CompanyRiskStatusType,
    GeoCountry,
    GeoPostalCode,
)

logger = logging.getLogger(__name__)

# pyarrow's read block. Its streaming reader reads up to 32 blocks ahead, so blocks are small; they are
# checked in groups of BATCH_ROWS rows, each check a pass over a whole column.
BLOCK_BYTES = 1 << 20
BATCH_ROWS = 10_000
_STRING = pa.string()
_NULL = pa.scalar(None, _STRING)
_WEIGHTS = np.array([3, 2, 7, 6, 5, 4, 3, 2, 1], dtype=np.int64)  # mod 11 of the organisation number
_POWERS = 10 ** np.arange(8, -1, -1, dtype=np.int64)
_FLAGS = {"is_bankrupt": "konkurs", "is_under_liquidation": "underAvvikling", "is_under_forced_dissolution": "underTvangsavviklingEllerTvangsopplosning"}
_DATES = {
    "registration_date": "registreringsdatoenhetsregisteret",
    "founded_date": "stiftelsesdato",
    "bankrupt_date": "konkursdato",
    "under_liquidation_date": "underAvviklingDato",
}
# Columns not trimmed as a whole: the organisation number (spaces go first), address lines ("/n" first),
# place and country names (only a new postal code or country needs them).
_UNSTRIPPED = {"organisasjonsnummer", *(f"{block}.{c}" for block in ADDRESSES.values() for c in ("adresse", "poststed", "land"))}
# The company table's columns in the order of the COPY.
_COPY_COLUMNS = [
    "uuid", "org_nr_schema", "org_nr", "name", "business_address", "postal_address", "website", "employees",
    "registration_date", "founded_date", "last_submitted_accounts_year", "parent_org_nr",
    "bankrupt_date", "is_under_liquidation", "under_liquidation_date", "forced_dissolution_date",
    "organization_type_id", "nace_code_1_id", "nace_code_2_id", "nace_code_3_id",
    "business_municipality_id", "business_postal_code_id", "business_country_id", "postal_municipality_id",
    "postal_postal_code_id", "postal_country_id", "is_under_forced_dissolution", "is_bankrupt",
]  # fmt: skip
# Left to a column default for the COPY: a timestamp parsed a million times costs a second.
_TIMESTAMP_COLUMNS = ("create_timestamp", "update_timestamp")
# set_based.py's `_enheter_rows` (the columns its upsert reads), when the register is not empty
_STAGED_COLUMNS = {
    "ordinal": "bigint", "ok": "boolean", "occurrence": "integer", "org_nr": "text", "name": "text",
    "organization_type_id": "uuid", "nace_code_1_id": "uuid", "nace_code_2_id": "uuid", "nace_code_3_id": "uuid",
    "business_address": "text", "business_municipality_id": "uuid", "business_postal_code_id": "uuid",
    "business_country_id": "uuid", "postal_address": "text", "postal_municipality_id": "uuid",
    "postal_postal_code_id": "uuid", "postal_country_id": "uuid", "website": "text", "employees": "integer",
    "registration_date": "date", "founded_date": "date", "last_submitted_accounts_year": "integer",
    "parent_org_nr": "text", "is_bankrupt": "boolean", "bankrupt_date": "date", "is_under_liquidation": "boolean",
    "under_liquidation_date": "date", "is_under_forced_dissolution": "boolean", "forced_dissolution_date": "date",
}  # fmt: skip


class Unsuitable(Exception):
    """The file needs the general set-based path; what was done is rolled back."""


class _Lookup:
    """A code -> uuid dict for whole columns: codes found by a hash lookup, uuids as 16 bytes each."""

    def __init__(self, mapping: dict) -> None:
        self.keys = pa.array(list(mapping), _STRING)
        self.uuids = [str(value) for value in mapping.values()]
        self.table = np.frombuffer(b"".join(uuid.UUID(u).bytes for u in self.uuids), dtype=np.uint8).reshape(-1, 16)

    def find(self, codes: pa.Array) -> np.ndarray:
        """Each code's position in the table, -1 where unknown (or null)."""
        return pc.fill_null(pc.index_in(codes, value_set=self.keys), -1).to_numpy().astype(np.int64)


@dataclass
class _Warnings:
    """result.warn's grouping with ordinals instead of lines (lines are known at the end)."""

    groups: dict[str, WarningGroup] = field(default_factory=dict)

    def add(self, ordinal: int, message: str) -> None:
        group = self.groups.setdefault(message, WarningGroup(message))
        group.count += 1
        if len(group.lines) < WARNING_LINES_KEPT:
            group.lines.append(ordinal)


@dataclass
class _Load:
    refs: EnhetReferences
    rows: int = 0  # rows read so far (the next row's ordinal)
    written: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)  # (ordinal, reason)
    warnings: _Warnings = field(default_factory=_Warnings)
    numbers: list[np.ndarray] = field(default_factory=list)  # the accepted organisation numbers, per block
    history: _History | None = None
    lookups: dict[str, _Lookup] = field(default_factory=dict)
    new_countries: dict[str, tuple[str, str]] = field(default_factory=dict)  # code -> (uuid, name)
    new_postal_codes: dict[str, tuple[str, str, str, object]] = field(default_factory=dict)  # key -> (uuid, code, place, municipality)

    def lookup(self, name: str) -> _Lookup:
        if name not in self.lookups:
            self.lookups[name] = _Lookup(getattr(self.refs, name))
        return self.lookups[name]


def columnar_import(
    *,
    path: Path,
    quiet: bool,
    now: datetime,
    initial_load: Callable[[int], AbstractContextManager | None],
    min_rows: int,
) -> tuple[ImportResult, AffectedCompanies] | None:
    """The import of a CSV; None when the file is not one for this path (then nothing is written and
    the set-based path takes over)."""
    savepoint = transaction.savepoint()
    try:
        done = _load(path=path, quiet=quiet, now=now, initial_load=initial_load, min_rows=min_rows)
    except Unsuitable as exc:
        transaction.savepoint_rollback(savepoint)
        logger.info("%s: the general set-based path instead (%s)", path.name, exc)
        return None
    except BaseException:
        transaction.savepoint_rollback(savepoint)
        raise
    if done is None:
        transaction.savepoint_rollback(savepoint)
    else:
        transaction.savepoint_commit(savepoint)
    return done


def _load(*, path, quiet, now, initial_load, min_rows) -> tuple[ImportResult, AffectedCompanies] | None:
    empty_register = not Company.objects.exists()
    result = ImportResult(source=path.name)
    affected = AffectedCompanies()
    with text_source_open(path) as source:
        if source.head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"[":
            return None  # JSON
        header = csv_header(source, path.name)
        if len(set(header)) != len(header):
            return None  # a repeated column name: the csv module's rows decide which one counts
        with progress_bar(total=source.size, description=path.name, quiet=quiet) as bar:
            stream = _CheckedStream(source, bar)
            batches = _batches(stream, header)
            load = _Load(refs=EnhetReferences.load(), history=_History(now))
            try:
                # Read up to min_rows rows before deciding: a small file is not worth locking the tables for.
                ahead: list[_Mapped | None] = []
                for batch in batches:
                    ahead.append(_batch_map(batch, load))
                    if load.rows >= min_rows:
                        break
                rest = (_batch_map(batch, load) for batch in batches)
                loading = initial_load(load.rows) if empty_register else None
                if loading is not None:
                    with loading:
                        _copy(
                            (_company_rows(mapped, load) for mapped in itertools.chain(_taken(ahead), rest)),
                            table=table_name(Company), columns=_COPY_COLUMNS, timestamps=now,
                        )  # fmt: skip
                        stream.check()
                        _duplicates_check(load.numbers)
                        started = time.perf_counter()
                        _references_create(load)
                        load.history.copy()
                        logger.debug("%s: %d companies in; history in %.1f s", path.name, load.written, time.perf_counter() - started)
                    result.tally(created=load.written, updated=0, unchanged=0)
                    affected_add(affected, source=table_name(Company))
                else:
                    _staged_apply(itertools.chain(_taken(ahead), rest), stream, load, now, result, affected)
            finally:
                batches.close()  # (stops the reading thread)
                load.history.close()
        named = {ordinal for ordinal, _ in load.rejected}
        named.update(ordinal for group in load.warnings.groups.values() for ordinal in group.lines)
        lines = _lines_of(named, physical_lines=stream.lines(), rows=load.rows, path=path)
    result.rows_read = load.rows
    result.rejected.extend(RejectedRow(lines[ordinal], reason) for ordinal, reason in load.rejected)
    for message, group in load.warnings.groups.items():
        result.warnings[message] = WarningGroup(message, group.count, [lines[o] for o in group.lines])
    return result, affected


def _taken(items: list) -> Iterator:
    """The list's items, each let go as it is taken."""
    while items:
        yield items.pop(0)


def _staged_apply(mapped: Iterator[_Mapped | None], stream, load: _Load, now: datetime, result: ImportResult, affected) -> None:
    """A register that has companies: the accepted rows, checked and mapped, go into set_based.py's
    `_enheter_rows`, and its upsert compares them with the stored companies (unchanged ones are not
    written), writes the history and counts."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL work_mem = %s", [_WORK_MEM])
        cursor.execute(f"DROP TABLE IF EXISTS {ROWS}")
        cursor.execute(
            f"CREATE TEMP TABLE {ROWS} ("
            + ", ".join(f"{column} {kind}" for column, kind in _STAGED_COLUMNS.items())
            + ") ON COMMIT DROP"
        )
    _copy((_staged_rows(rows) for rows in mapped), table=ROWS, columns=list(_STAGED_COLUMNS))
    stream.check()
    _references_create(load, rows_table=ROWS)
    numbers = np.sort(np.concatenate(load.numbers)) if load.numbers else np.empty(0, dtype=np.int64)
    repeated = len(numbers) > 1 and bool((numbers[1:] == numbers[:-1]).any())
    last = occurrences_number() if repeated else 1
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {ROWS}")
    for occurrence in range(1, last + 1):
        counts = companies_write(occurrence=occurrence, now=now, ids_in_rows=True)
        result.tally(created=counts.created, updated=counts.updated, unchanged=counts.rows - counts.created - counts.updated)
        history_write(now=now, today=now.date())
        affected_add(affected)


class _CheckedStream(io.RawIOBase):
    """The file's bytes on their way to pyarrow: line breaks counted, UTF-8 and NUL checked, progress shown."""

    def __init__(self, source, bar) -> None:
        self.source, self.bar = source, bar
        self.breaks = LineBreaks()
        self.partial = b""  # a UTF-8 sequence cut by the end of the last chunk
        self.problem = ""

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        chunk = self.source.binary.read(size)
        self.breaks.add(chunk)
        if b"\x00" in chunk:
            self.problem = self.problem or "a NUL byte"
        if not self.problem:
            self._utf8_check(chunk)
        progress_advance(self.bar, self.source)
        return chunk

    def _utf8_check(self, chunk: bytes) -> None:
        """The whole file, unread columns too, must be UTF-8 as the other paths require. Checked by
        pyarrow's validation, which lets go of the GIL (Python's decoder would hold it)."""
        data = self.partial + chunk if self.partial else chunk
        end = len(data)
        for back in range(1, min(4, end) + 1):
            byte = data[end - back]
            if byte < 0x80:
                break
            if byte >= 0xC0:  # the lead byte of the last sequence: complete?
                if (2 if byte < 0xE0 else 3 if byte < 0xF0 else 4) > back:
                    end -= back
                break
        self.partial = data[end:]
        if not chunk and self.partial:
            self.problem = "bytes that are not UTF-8"
            return
        try:
            pa.array([data[:end] if end < len(data) else data], _BINARY).cast(_STRING)
        except pa.ArrowInvalid:
            self.problem = "bytes that are not UTF-8"

    def check(self) -> None:
        if self.problem:
            raise Unsuitable(self.problem)

    def lines(self) -> int:
        return self.breaks.lines()


def _batches(stream: _CheckedStream, header: list[str]) -> Iterator[pa.RecordBatch]:
    try:
        reader = pa_csv.open_csv(
            stream,
            read_options=pa_csv.ReadOptions(column_names=header, block_size=BLOCK_BYTES),
            parse_options=pa_csv.ParseOptions(newlines_in_values=True),
            convert_options=pa_csv.ConvertOptions(
                include_columns=list(COLUMNS), column_types=dict.fromkeys(COLUMNS, _STRING), strings_can_be_null=False
            ),
        )
    except pa.ArrowInvalid as exc:  # the first block already has a row with the wrong number of fields ...
        raise Unsuitable(str(exc).splitlines()[0]) from None
    # pyarrow parses a block when asked for it: a thread of our own asks ahead (pyarrow lets go of the GIL
    # meanwhile), so parsing runs beside the checks of the previous group.
    groups: queue.Queue = queue.Queue(maxsize=1)
    stop = threading.Event()

    def put(item) -> None:
        while not stop.is_set():
            try:
                groups.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def read() -> None:
        group: list[pa.RecordBatch] = []
        rows = 0
        try:
            while not stop.is_set():
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    break
                group.append(batch)
                rows += batch.num_rows
                if rows >= BATCH_ROWS:
                    put(_combined(group))
                    group, rows = [], 0
            if group:
                put(_combined(group))
            put(None)
        except BaseException as exc:  # noqa: BLE001 (whatever it is, the consumer raises it)
            put(exc)

    thread = threading.Thread(target=read, name="enheter-csv-reader", daemon=True)
    thread.start()
    try:
        while (item := groups.get()) is not None:
            if isinstance(item, pa.ArrowInvalid):  # a row with the wrong number of fields, a broken quote ...
                raise Unsuitable(str(item).splitlines()[0])
            if isinstance(item, BaseException):
                raise item
            stream.check()
            yield item
    finally:
        stop.set()
        thread.join()


def _combined(batches: list[pa.RecordBatch]) -> pa.RecordBatch:
    if len(batches) == 1:
        return batches[0]
    return pa.Table.from_batches(batches).combine_chunks().to_batches()[0]


def _copy(data: Iterator[memoryview | bytes], *, table: str, columns, timestamps: datetime | None = None) -> None:
    """Binary COPY of the rows into `table`. `timestamps`: the company table's create and update
    timestamps, given by a column default for the COPY's duration."""
    sql = f"COPY {table} ({', '.join(columns)}) FROM STDIN (FORMAT binary)"
    with connection.wrap_database_errors, connection.cursor() as cursor:
        if timestamps is not None:
            # The empty table is locked by this transaction, and the defaults go again before it ends.
            # (a literal: DDL takes no parameters; isoformat() has no quote to escape)
            stamp = f"'{timestamps.isoformat()}'::timestamptz"
            cursor.execute(f"ALTER TABLE {table} " + ", ".join(f"ALTER {c} SET DEFAULT {stamp}" for c in _TIMESTAMP_COLUMNS))
        raw = cursor.cursor
        # The queued writer sends from a thread of its own: the next block is checked meanwhile.
        with raw.copy(sql, writer=_QueuedWriter(raw)) as copy:
            copy.write(_SIGNATURE)
            for rows in data:
                copy.write(rows)
            copy.write(_TRAILER)
        if timestamps is not None:
            cursor.execute(f"ALTER TABLE {table} " + ", ".join(f"ALTER {c} DROP DEFAULT" for c in _TIMESTAMP_COLUMNS))


class _QueuedWriter(QueuedLibpqWriter):
    """psycopg's queued COPY writer with a short queue (64 pieces of 128 kB): when the database falls
    behind, the reader waits instead of holding the file in memory."""

    def __init__(self, cursor) -> None:
        super().__init__(cursor)
        self._queue = queue.Queue(maxsize=64)


class _History:
    """The employment periods and risk statuses the new companies open (writer.py's rules for a created
    company), gathered in binary COPY format in temporary files while the companies stream in, and
    copied once the companies are in: a column that is not null opens a period, a flag a status."""

    EMPLOYMENT = ("uuid", "company_id", "employee_count", "employee_date", "from_date", "employee_count_to")
    STATUS = ("uuid", "company_id", "company_risk_status_type_id", "from_date")

    def __init__(self, now: datetime) -> None:
        # (closed by close(), which the load calls whatever happens)
        self.employment = tempfile.TemporaryFile()  # noqa: SIM115
        self.statuses = tempfile.TemporaryFile()  # noqa: SIM115
        microseconds = (now - _PG_EPOCH) // timedelta(microseconds=1)
        self.now = pa.scalar(b"\x00\x00\x00\x08" + microseconds.to_bytes(8, "big", signed=True), _BINARY)
        self.today = (now.date() - _PG_EPOCH.date()).days
        types = dict(CompanyRiskStatusType.objects.filter(key__in=STATUSES).values_list("key", "uuid"))
        self.types = {key: pa.scalar(b"\x00\x00\x00\x10" + types[key].bytes, _BINARY) for key in STATUSES}

    def add(self, companies: np.ndarray, values: dict[str, tuple]) -> None:
        numbers, valid = values["employees"]
        where = np.flatnonzero(valid)
        if len(where):
            count = _int4_field(numbers[where])
            self.employment.write(
                _rows_joined(self.EMPLOYMENT, [_fixed_field(_uuid4s(len(where))), _fixed_field(companies[where]), count, self.now, self.now, count])
            )
        for key, (flag, date_field) in STATUSES.items():
            where = np.flatnonzero(values[flag][0])
            if len(where):
                days, valid = values[date_field]
                since = np.where(valid[where], days[where], self.today)
                self.statuses.write(
                    _rows_joined(self.STATUS, [_fixed_field(_uuid4s(len(where))), _fixed_field(companies[where]), self.types[key], _int4_field(since)])
                )

    def copy(self) -> None:
        with connection.wrap_database_errors, connection.cursor() as cursor:
            for model, columns, spool in (
                (CompanyEmployment, self.EMPLOYMENT, self.employment),
                (CompanyRiskStatus, self.STATUS, self.statuses),
            ):
                spool.seek(0)
                with cursor.cursor.copy(f"COPY {table_name(model)} ({', '.join(columns)}) FROM STDIN (FORMAT binary)") as copy:
                    copy.write(_SIGNATURE)
                    while chunk := spool.read(1 << 20):
                        copy.write(chunk)
                    copy.write(_TRAILER)

    def close(self) -> None:
        self.employment.close()
        self.statuses.close()


def _rows_joined(columns: tuple | list, fields: list) -> memoryview:
    """Rows in binary COPY format: each row's field count, then its fields."""
    joined = pc.binary_join_element_wise(
        pa.scalar(len(columns).to_bytes(2, "big"), _BINARY), *fields, _NOTHING,
        null_handling="replace", null_replacement=_NULL_FIELD,
    )  # fmt: skip
    offsets = np.frombuffer(joined.buffers()[1], dtype=np.int32, count=len(joined) + 1, offset=4 * joined.offset)
    return memoryview(joined.buffers()[2])[offsets[0] : offsets[-1]]


# --- checks and mapping of one block, mapping.py's rules on whole columns --------------------------------


def _strip(column: pa.Array) -> pa.Array:
    return pc.utf8_trim(column, characters=WHITESPACE)


def _nonempty(column: pa.Array) -> pa.Array:
    return pc.not_equal(column, "")


def _np(mask: pa.Array) -> np.ndarray:
    return mask.to_numpy(zero_copy_only=False)


def _fixed_width(column: pa.Array, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(the rows whose value is `width` bytes long, those values as a (rows, width) array of bytes)."""
    where = np.flatnonzero(_np(pc.equal(pc.binary_length(column), width)))
    if not len(where):
        return where, np.empty((0, width), dtype=np.uint8)
    chosen = pc.take(column, pa.array(where))
    start = np.frombuffer(chosen.buffers()[1], dtype=np.int32, count=1, offset=4 * chosen.offset)[0]
    data = np.frombuffer(chosen.buffers()[2], dtype=np.uint8, count=width * len(where), offset=start)
    return where, data.reshape(len(where), width)


def _digits(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ASCII digits everywhere, the digits' values)."""
    values = data.astype(np.int64) - ord("0")
    return ((values >= 0) & (values <= 9)).all(axis=1), values


def _int(text: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """values.int_value: (ok, has a number, the number)."""
    count = len(text)
    empty = _np(pc.equal(text, ""))
    shaped = _np(pc.match_substring_regex(text, r"^[+-]?[0-9]+$"))
    lengths = _np(pc.binary_length(text))
    fast = shaped & (lengths <= 11)  # fits int64 whatever its leading zeros
    numbers = np.zeros(count, dtype=np.int64)
    if fast.any():
        candidates = pc.if_else(pa.array(fast), text, _NULL)
        if pc.any(pc.starts_with(candidates, "+")).as_py():
            candidates = pc.replace_substring_regex(candidates, r"^\+", "")
        numbers = pc.fill_null(pc.cast(candidates, pa.int64()), 0).to_numpy()
    slow = np.flatnonzero(shaped & ~fast)
    if len(slow):  # long, perhaps only by leading zeros: Python's int() decides
        numbers = numbers.copy()
        for index, value in zip(slow, pc.take(text, pa.array(slow)).to_pylist()):
            number = int(value)
            numbers[index] = number if INT_MIN <= number <= INT_MAX else INT_MAX + 1
    valid = shaped & (numbers >= INT_MIN) & (numbers <= INT_MAX)
    return empty | valid, valid, numbers


def _date(text: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """values.date_value: (ok, has a date, the date as days since 2000-01-01, PostgreSQL's epoch)."""
    valid = np.zeros(len(text), dtype=bool)
    days = np.zeros(len(text), dtype=np.int64)
    where, data = _fixed_width(text, 10)
    if len(where):
        numeric, digits = _digits(data[:, [0, 1, 2, 3, 5, 6, 8, 9]])
        shaped = numeric & (data[:, 4] == ord("-")) & (data[:, 7] == ord("-"))
        year = digits[:, :4] @ np.array([1000, 100, 10, 1])
        month = digits[:, 4] * 10 + digits[:, 5]
        day = digits[:, 6] * 10 + digits[:, 7]
        leap = (year % 4 == 0) & ((year % 100 != 0) | (year % 400 == 0))
        month_days = np.where(np.isin(month, (4, 6, 9, 11)), 30, np.where(month == 2, np.where(leap, 29, 28), 31))
        valid[where] = shaped & (year >= 1) & (month >= 1) & (month <= 12) & (day >= 1) & (day <= month_days)
        days[where] = _days_from_civil(year, month, day)
    empty = _np(pc.equal(text, ""))
    return empty | valid, valid, days


def _days_from_civil(year: np.ndarray, month: np.ndarray, day: np.ndarray) -> np.ndarray:
    """Days since 2000-01-01 of proleptic Gregorian dates (H. Hinnant's days_from_civil)."""
    year = year - (month <= 2)
    era = np.floor_divide(year, 400)
    year_of_era = year - era * 400
    day_of_year = (153 * (month + np.where(month > 2, -3, 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468 - 10957


def _org_nr(raw: pa.Array) -> tuple[np.ndarray, pa.Array, np.ndarray]:
    """mapping.org_nr_value: (ok, the number's text, the number as an integer, 0 where not ok)."""
    text = _strip(pc.replace_substring(raw, " ", ""))
    ok = np.zeros(len(text), dtype=bool)
    numbers = np.zeros(len(text), dtype=np.int64)
    where, data = _fixed_width(text, 9)
    if len(where):
        numeric, digits = _digits(data)
        good = numeric & ((digits @ _WEIGHTS) % 11 == 0)
        ok[where] = good
        numbers[where] = np.where(good, digits @ _POWERS, 0)
    return ok, text, numbers


# PostgreSQL's binary COPY: a signature, then per row the number of fields and each field as its length
# (-1: NULL) and bytes (uuid: 16 bytes; integer and date: 4, big-endian; boolean: 1; text: UTF-8).
_SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
_TRAILER = b"\xff\xff"
_BINARY = pa.binary()
_WORK_MEM = "128MB"  # the upsert's sorts and hashes (this transaction only), as the set-based path
_PG_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
_NOTHING = pa.scalar(b"", _BINARY)
_NULL_FIELD = b"\xff\xff\xff\xff"  # the length of a NULL field: -1


def _binary_array(data: np.ndarray, lengths: np.ndarray, valid: np.ndarray | None = None) -> pa.Array:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    bitmap = None if valid is None else pa.py_buffer(np.packbits(valid, bitorder="little"))
    nulls = 0 if valid is None else len(valid) - int(np.count_nonzero(valid))
    return pa.BinaryArray.from_buffers(
        _BINARY, len(lengths), [bitmap, pa.py_buffer(offsets), pa.py_buffer(data)], null_count=nulls
    )


def _fixed_field(values: np.ndarray, valid: np.ndarray | None = None) -> pa.Array:
    """Fields of `width` bytes each ((rows, width) array), null where not valid (the row's join writes
    NULL's length -1 there)."""
    rows, width = values.shape
    if valid is not None and valid.all():
        valid = None
    if valid is not None:
        values = values[valid]
    block = np.empty((len(values), 4 + width), dtype=np.uint8)
    block[:, :4] = np.frombuffer(width.to_bytes(4, "big"), dtype=np.uint8)
    block[:, 4:] = values
    lengths = np.full(rows, 4 + width) if valid is None else np.where(valid, 4 + width, 0)
    return _binary_array(block.reshape(-1), lengths, valid)


def _int4_field(numbers: np.ndarray, valid: np.ndarray | None = None) -> pa.Array:
    return _fixed_field(numbers.astype(">i4").view(np.uint8).reshape(-1, 4), valid)


def _bool_field(flags: np.ndarray) -> pa.Array:
    return _fixed_field(flags.astype(np.uint8).reshape(-1, 1))


def _uuid_field(lookup: _Lookup, found: np.ndarray) -> pa.Array:
    valid = found >= 0
    return _fixed_field(lookup.table[np.where(valid, found, 0)], valid)


def _text_field(column: pa.Array) -> pa.Array:
    lengths = pc.fill_null(pc.binary_length(column), 0).to_numpy().astype(">i4")
    prefixes = _binary_array(lengths.view(np.uint8), np.full(len(lengths), 4))
    return pc.binary_join_element_wise(prefixes, column.cast(_BINARY), _NOTHING)


def _uuid4s(count: int) -> np.ndarray:
    """`count` random (version 4) uuids, 16 bytes each."""
    raw = np.frombuffer(os.urandom(16 * count), dtype=np.uint8).reshape(count, 16).copy()
    raw[:, 6] = (raw[:, 6] & 0x0F) | 0x40
    raw[:, 8] = (raw[:, 8] & 0x3F) | 0x80
    return raw


@dataclass
class _Mapped:
    """One block's accepted rows as binary COPY fields (by column), and what the targets need besides."""

    rows: int
    ordinals: np.ndarray
    fields: dict[str, object]
    values: dict[str, tuple]


def _batch_map(batch: pa.RecordBatch, load: _Load) -> _Mapped | None:
    """Check and map one block: its accepted rows (None if there are none). Rejections and warnings go
    into `load`."""
    count = batch.num_rows
    first = load.rows
    load.rows += count
    raw = {name: batch.column(name) for name in COLUMNS}
    # (place and country names stay as they are: trimmed in Python for the few new postal codes and countries)
    text = {name: raw[name] if name in _UNSTRIPPED else _strip(raw[name]) for name in COLUMNS}
    ok, org_nr, numbers = _org_nr(raw["organisasjonsnummer"])
    texts: dict[str, pa.Array] = {"org_nr": org_nr}  # text columns
    values: dict[str, tuple] = {}  # the others: (numpy values, valid) or (flags,)

    def limited(value: pa.Array, max_length: int) -> pa.Array:
        nonlocal ok
        ok = ok & _np(pc.less_equal(pc.utf8_length(value), max_length))
        return value

    texts["name"] = limited(text["navn"], 300)
    ok = ok & _np(_nonempty(texts["name"]))
    employees_ok, employees_valid, employees = _int(text["antallAnsatte"])
    ok = ok & employees_ok & ~(employees_valid & (employees < 0))
    values["employees"] = (employees, employees_valid)
    texts["website"] = limited(text["hjemmeside"], 300)
    for name, column in _DATES.items():
        date_ok, valid, days = _date(text[column])
        ok = ok & date_ok
        values[name] = (days, valid)
    forced_days, forced_valid = np.full(count, np.iinfo(np.int64).max), np.zeros(count, dtype=bool)
    for column in STATUS_DATE_COLUMNS:
        date_ok, valid, days = _date(text[column])
        ok = ok & date_ok
        forced_days = np.where(valid, np.minimum(forced_days, days), forced_days)
        forced_valid |= valid
    values["forced_dissolution_date"] = (forced_days, forced_valid)
    year_ok, year_valid, year = _int(text["sisteInnsendteAarsregnskap"])
    ok = ok & year_ok
    values["last_submitted_accounts_year"] = (year, year_valid)
    texts["parent_org_nr"] = limited(text["overordnetEnhet"], 20)
    for name, column in _FLAGS.items():
        flag = pc.ascii_lower(text[column])
        ok = ok & _np(pc.is_in(flag, value_set=pa.array(["", "false", "true"])))
        values[name] = (_np(pc.equal(flag, "true")),)
    for prefix, block in ADDRESSES.items():
        lines = _strip(pc.replace_substring(raw[f"{block}.adresse"], ADDRESS_LINE_SEPARATOR, "\n"))
        texts[f"{prefix}_address"] = limited(lines, 300)

    rejected = np.flatnonzero(~ok)
    if len(rejected):
        _reject(batch, rejected, first, load)
        keep = pa.array(ok)
        text = {name: pc.filter(value, keep) for name, value in text.items()}
        texts = {name: pc.filter(value, keep) for name, value in texts.items()}
        values = {name: tuple(part[ok] for part in value) for name, value in values.items()}
        numbers = numbers[ok]
    ordinals = np.flatnonzero(ok) + first
    load.numbers.append(numbers)
    found = _references_map(text, ordinals, load)
    rows = len(ordinals)
    load.written += rows
    if not rows:
        return None
    fields: dict[str, object] = {name: _text_field(column) for name, column in texts.items()}
    for name, value in values.items():
        # a flag, or a whole number or date (days since 2000-01-01) with its validity
        fields[name] = _bool_field(value[0]) if len(value) == 1 else _int4_field(*value)
    for name, (lookup, positions) in found.items():
        fields[name] = _uuid_field(lookup, positions)
    return _Mapped(rows, ordinals, fields, values)


def _company_rows(mapped: _Mapped | None, load: _Load) -> memoryview | bytes:
    """The rows of the company table (with new uuids), and their history gathered."""
    if mapped is None:
        return b""
    companies = _uuid4s(mapped.rows)
    load.history.add(companies, mapped.values)
    fields = dict(mapped.fields, uuid=_fixed_field(companies), org_nr_schema=pa.scalar(b"\x00\x00\x00\x02NO", _BINARY))
    return _rows_joined(_COPY_COLUMNS, [fields[name] for name in _COPY_COLUMNS])


def _staged_rows(mapped: _Mapped | None) -> memoryview | bytes:
    """The rows of set_based.py's `_enheter_rows` table (accepted rows only)."""
    if mapped is None:
        return b""
    fields = dict(mapped.fields, ordinal=_fixed_field(mapped.ordinals.astype(">i8").view(np.uint8).reshape(-1, 8)))
    fields["ok"] = pa.scalar(b"\x00\x00\x00\x01\x01", _BINARY)
    fields["occurrence"] = pa.scalar(b"\x00\x00\x00\x04\x00\x00\x00\x01", _BINARY)
    return _rows_joined(_STAGED_COLUMNS, [fields[name] for name in _STAGED_COLUMNS])


def _reject(batch: pa.RecordBatch, rows: np.ndarray, first: int, load: _Load) -> None:
    """mapping.py's reason for each row the column checks refused."""
    chosen = batch.select(list(COLUMNS)).take(pa.array(rows)).to_pylist()
    for index, values in zip(rows, chosen):
        try:
            enhet_checked(values)
        except RowRejected as exc:
            reason = str(exc)
        else:  # the column checks and mapping.py disagree: a bug, but the row is still reported
            logger.error("a row rejected by the column checks passes mapping.py: %r", values)
            reason = "rejected by the import's checks"
        load.rejected.append((first + int(index), reason))


def _duplicates_check(numbers: list[np.ndarray]) -> None:
    """An organisation number repeated in the file: it is written once per occurrence, the later row
    winning, which is the set-based path's business (checked once all are read: a repeat is rare)."""
    ordered = np.sort(np.concatenate(numbers)) if numbers else np.empty(0, dtype=np.int64)
    if len(ordered) > 1 and (ordered[1:] == ordered[:-1]).any():
        raise Unsuitable("an organisation number repeated in the file")


def _references_map(text: dict[str, pa.Array], ordinals: np.ndarray, load: _Load) -> dict[str, tuple[_Lookup, np.ndarray]]:
    """Reference ids of the accepted rows (column -> the lookup and each row's position in it, -1 for
    none); warnings for unknown codes; new postal codes and countries scheduled (with their uuids) from
    the first row using each, in mapping.py's order."""
    warned: list[tuple[int, int, str]] = []  # (ordinal, position in the row, message)
    found: dict[str, tuple[_Lookup, np.ndarray]] = {}

    def unknown(position: int, codes: pa.Array, unknown: np.ndarray, message) -> None:
        for index in np.flatnonzero(unknown):
            warned.append((int(ordinals[index]), position, message(codes[index].as_py())))

    code = text["organisasjonsform.kode"]
    lookup = load.lookup("organization_types")
    positions = lookup.find(code)
    found["organization_type_id"] = (lookup, positions)
    unknown(0, code, (positions < 0) & _np(_nonempty(code)), lambda v: f"unknown organisation form {v}; left empty")
    for rank in (1, 2, 3):
        code = text[f"naeringskode{rank}.kode"]
        lookup = load.lookup("nace")
        positions = lookup.find(code)
        skip = _np(pc.is_in(code, value_set=pa.array(["", NACE_UNSPECIFIED])))
        unknown(rank, code, (positions < 0) & ~skip, lambda v: f"unknown NACE code {v}; left empty")
        found[f"nace_code_{rank}_id"] = (lookup, np.where(skip, -1, positions))
    postal_keys = {}
    countries = {}
    for position, (prefix, block) in zip((4, 6), ADDRESSES.items()):
        code = text[f"{block}.kommunenummer"]
        lookup = load.lookup("municipalities")
        positions = lookup.find(code)
        found[f"{prefix}_municipality_id"] = (lookup, positions)
        unknown(position, code, (positions < 0) & _np(_nonempty(code)), lambda v: f"unknown municipality {v}; left empty")
        country = _upper(text[f"{block}.landkode"])
        postal = text[f"{block}.postnummer"]
        norwegian = pc.is_in(country, value_set=pa.array(["NO", ""]))
        valid = pc.and_(norwegian, pc.match_substring_regex(postal, r"^[0-9]{4}$"))
        bad = pc.and_(pc.and_(norwegian, pc.invert(valid)), pc.not_equal(postal, ""))
        for index in np.flatnonzero(_np(bad)):
            value = postal[index].as_py()
            warned.append((int(ordinals[index]), position + 1, f"{block}.postnummer {value!r} is not a Norwegian postal code; left empty"))
        postal_keys[prefix] = pc.if_else(valid, pc.binary_join_element_wise("NO-", postal, ""), _NULL)
        countries[prefix] = country
    for ordinal, _, message in sorted(warned):
        load.warnings.add(ordinal, message)
    _references_schedule(text, found, postal_keys, countries, load)
    for prefix in ADDRESSES:
        lookup = load.lookup("postal_codes")
        found[f"{prefix}_postal_code_id"] = (lookup, lookup.find(postal_keys[prefix]))
        lookup = load.lookup("countries")
        country = countries[prefix]
        found[f"{prefix}_country_id"] = (lookup, np.where(_np(_nonempty(country)), lookup.find(country), -1))
    return found


def _upper(column: pa.Array) -> pa.Array:
    """str.upper(): ASCII in C, anything else (where Unicode's and Python's rules might part) in Python."""
    if pc.all(pc.string_is_ascii(column)).as_py():
        return pc.ascii_upper(column)
    return pa.array([value.upper() for value in column.to_pylist()], _STRING)


def _references_schedule(text, found, postal_keys, countries, load: _Load) -> None:
    """New postal codes and countries, in mapping.py's order: per row, per address, a Norwegian postal
    code's country NO, its postal code, then the address's own country."""
    refs = load.refs
    new_rows = np.zeros(len(text["navn"]), dtype=bool)
    for prefix in ADDRESSES:
        keys = postal_keys[prefix]
        new_rows |= _np(pc.and_(pc.is_valid(keys), pc.invert(pc.is_in(keys, value_set=load.lookup("postal_codes").keys))))
        country = countries[prefix]
        new_rows |= _np(pc.and_(_nonempty(country), pc.invert(pc.is_in(country, value_set=load.lookup("countries").keys))))
    rows = np.flatnonzero(new_rows)
    if not len(rows):
        return
    index = pa.array(rows)
    taken = {}
    for prefix, block in ADDRESSES.items():
        municipalities, positions = found[f"{prefix}_municipality_id"]
        taken[prefix] = (
            pc.take(postal_keys[prefix], index).to_pylist(),
            pc.take(text[f"{block}.postnummer"], index).to_pylist(),
            [value.strip() for value in pc.take(text[f"{block}.poststed"], index).to_pylist()],
            [municipalities.uuids[p] if p >= 0 else None for p in positions[rows]],
            pc.take(countries[prefix], index).to_pylist(),
            [value.strip() for value in pc.take(text[f"{block}.land"], index).to_pylist()],
        )
    for i in range(len(rows)):
        for prefix in ADDRESSES:
            keys, codes, places, municipalities, country_codes, country_names = taken[prefix]
            if keys[i] is not None:
                _country_schedule("NO", "Norway", load)
                if keys[i] not in refs.postal_codes:
                    new = str(_new_uuid())
                    refs.postal_codes[keys[i]] = new
                    load.new_postal_codes[keys[i]] = (new, codes[i], places[i][:100], municipalities[i])
                    load.lookups.pop("postal_codes", None)
            if country_codes[i]:
                _country_schedule(country_codes[i], country_names[i][:100] or country_codes[i], load)


def _country_schedule(code: str, name: str, load: _Load) -> None:
    if code not in load.refs.countries:
        new = str(_new_uuid())
        load.refs.countries[code] = new
        load.new_countries[code] = (new, name)
        load.lookups.pop("countries", None)


def _new_uuid() -> uuid.UUID:
    return uuid.uuid4()


def _references_create(load: _Load, rows_table: str | None = None) -> None:
    """The new countries and postal codes, with the uuids the rows already carry. One created meanwhile
    by another import keeps its own uuid, and the rows (companies, or `rows_table`) are pointed at it."""
    norway = str(load.refs.countries.get("NO", ""))
    tables = (
        (
            table_name(GeoCountry),
            "uuid, key, name",
            "%s::uuid, %s, %s",
            [(u, code, name) for code, (u, name) in load.new_countries.items()],
            ("business_country_id", "postal_country_id"),
        ),
        (
            table_name(GeoPostalCode),
            "uuid, key, code, place_name, municipality_id, country_id",
            "%s::uuid, %s, %s, %s, %s::uuid, %s::uuid",
            [
                (u, key, code, place, municipality, norway)
                for key, (u, code, place, municipality) in load.new_postal_codes.items()
            ],
            ("business_postal_code_id", "postal_postal_code_id"),
        ),
    )
    with connection.cursor() as cursor:
        for table, columns, placeholders, rows, company_columns in tables:
            if not rows:
                continue
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({placeholders}) ON CONFLICT (key) DO NOTHING", rows)
            cursor.execute(f"SELECT key, uuid::text FROM {table} WHERE key = ANY(%s)", [[row[1] for row in rows]])
            actual = dict(cursor.fetchall())
            for row in rows:
                if actual[row[1]] != row[0]:
                    for column in company_columns:
                        cursor.execute(
                            f"UPDATE {rows_table or table_name(Company)} SET {column} = %s WHERE {column} = %s",
                            [actual[row[1]], row[0]],
                        )


def _lines_of(ordinals: set[int], *, physical_lines: int, rows: int, path: Path) -> dict[int, int]:
    """Ordinal -> the physical line the row starts on: ordinal + 2 when every row is one line, else
    counted again by Python's csv module (quoted fields over several lines, blank lines), as the other
    paths count them."""
    if physical_lines == rows + 1:
        return {ordinal: ordinal + 2 for ordinal in ordinals}
    lines = {}
    number = -1
    with text_source_open(path) as source:
        for number, row in enumerate(csv_rows(source.stream, required_columns=COLUMNS, name=path.name)):
            if number in ordinals:
                lines[number] = row.line
    if number + 1 != rows:
        raise Unsuitable("pyarrow and the csv module count the rows differently")
    return lines
