"""Getting an Enhetsregisteret file into a temporary staging table of text columns (PostgreSQL).

A CSV goes in as it is: its bytes stream into `COPY ... (FORMAT csv)`, so PostgreSQL's
C parser splits the fields while Python only moves bytes; that is most of what keeps
the import close to a plain COPY. Line numbers are then the row's ordinal plus one,
unless a quoted field spans lines: Python counts the file's line breaks on the way,
and only when they disagree with the row count is each row's line worked out in SQL.

A CSV that COPY refuses (a row with the wrong number of fields, a broken quote, bytes
that are not UTF-8) is read again by Python's csv module, which rejects such rows by
line as the row-by-row path does, and writes the others with `copy.write_row`. The
JSON download always takes that way (its objects are flattened in Python first).
Either way the staging table ends up with the same text values, one row per source
row, in file order (`ordinal`), and set_based.py takes it from there.
"""

from __future__ import annotations

import csv
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.db import DataError, connection, transaction

from service.companies.importers.csv_rows import SourceRow, csv_header_check
from service.companies.importers.enheter.records import COLUMNS, enheter_rows
from service.companies.importers.reading import source_rows
from service.companies.importers.result import RejectedRow
from service.companies.importers.source import (
    ImportFileError,
    TextSource,
    progress_advance,
    progress_bar,
    text_source_open,
)

STAGING_PREFIX = "_enheter_raw_"
_CHUNK = 1 << 20
_BOM = b"\xef\xbb\xbf"


@dataclass
class Staged:
    table: str  # the staging table
    columns: dict[str, str]  # register column name -> staging column
    rows: int  # rows in the staging table
    lines_filled: bool  # its `line` column holds each row's line (else ordinal + 1 is the line)
    rejected: list[RejectedRow] = field(default_factory=list)  # rows that never reached the table


def staging_fill(*, path: Path, file_format: str, quiet: bool) -> Staged:
    """Fill the staging table (created ON COMMIT DROP: call inside the import's transaction)."""
    with text_source_open(path) as source:
        starts_as_array = source.head.lstrip(_BOM + b" \t\r\n")[:1] == b"["
        if file_format == "csv" or (file_format == "auto" and not starts_as_array):
            header = csv_header(source, path.name)
            staged = _csv_copy(source, header, path.name, quiet=quiet)
            if staged is not None:
                return staged
    return _rows_copy(path, file_format=file_format, quiet=quiet)


def _staging_create(columns: list[str]) -> tuple[str, dict[str, str]]:
    """One text column per source column (c0, c1, ...), the file's order kept by `ordinal`.

    UNLOGGED rather than TEMP: parallel workers cannot read a temporary table, and checking a
    million rows is the import's largest step. Created in the import's transaction, it vanishes
    with a rollback; staging_drop removes it before the commit."""
    table = STAGING_PREFIX + uuid.uuid4().hex[:12]
    names = [f"c{i}" for i in range(len(columns))]
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE UNLOGGED TABLE {table} (ordinal bigint GENERATED ALWAYS AS IDENTITY, line integer, "
            + ", ".join(f"{name} text NOT NULL" for name in names)
            + ")"
        )
    return table, {column: name for column, name in zip(columns, names)}


def staging_drop(staged: Staged) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {staged.table}")


def csv_header(source: TextSource, name: str) -> list[str]:
    first = source.binary.readline()
    if first.startswith(_BOM):
        first = first[len(_BOM) :]
    if not first.strip():
        raise ImportFileError(f"{name} is empty: expected a CSV header")
    try:
        header = next(csv.reader([first.decode("utf-8").rstrip("\r\n")]))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ImportFileError(f"{name} is not readable as CSV: {exc}") from None
    csv_header_check(header, required_columns=COLUMNS, name=name)
    return header


def _csv_copy(source: TextSource, header: list[str], name: str, *, quiet: bool) -> Staged | None:
    """The rest of the file straight into COPY; None when PostgreSQL refuses it (nothing kept)."""
    if len(set(header)) != len(header):
        return None  # a repeated column name: let the csv module's rows decide which one counts
    table, columns = _staging_create(header)
    column_list = ", ".join(columns.values())
    # FORCE_NOT_NULL: an empty field is '' as in Python's csv module, never NULL.
    sql = f"COPY {table} ({column_list}) FROM STDIN WITH (FORMAT csv, FORCE_NOT_NULL ({column_list}))"
    breaks = LineBreaks()
    savepoint = transaction.savepoint()
    try:
        with progress_bar(total=source.size, description=name, quiet=quiet) as bar:
            with connection.wrap_database_errors, connection.cursor() as cursor:
                with cursor.cursor.copy(sql) as copy:
                    while chunk := source.binary.read(_CHUNK):
                        breaks.add(chunk)
                        copy.write(chunk)
                        progress_advance(bar, source)
                rows = cursor.cursor.rowcount
    except DataError:
        transaction.savepoint_rollback(savepoint)
        return None
    except Exception:
        transaction.savepoint_rollback(savepoint)
        raise
    transaction.savepoint_commit(savepoint)
    one_line_each = breaks.lines() == rows + 1  # the header's line and one per row
    if not one_line_each:
        _lines_fill(table, list(columns.values()))
    return Staged(table=table, columns={c: columns[c] for c in COLUMNS}, rows=rows, lines_filled=not one_line_each)


class LineBreaks:
    """Physical lines as Python's csv module counts them: \\n, \\r\\n and a lone \\r each end one."""

    def __init__(self) -> None:
        self.count = 0
        self.last = b""

    def add(self, chunk: bytes) -> None:
        self.count += chunk.count(b"\n")
        if b"\r" in chunk:  # (most files have none: counting \r\n costs more than the rest)
            self.count += chunk.count(b"\r") - chunk.count(b"\r\n")
        if self.last == b"\r" and chunk[:1] == b"\n":
            self.count -= 1  # a \r\n cut in two by the chunk boundary
        self.last = chunk[-1:]

    def lines(self) -> int:
        # The header line was read before counting began; a last line without a break still counts.
        return 1 + self.count + (1 if self.last not in (b"\n", b"\r", b"") else 0)


def _lines_fill(table: str, staging_columns: list[str]) -> None:
    """Each row's first line when quoted fields span lines: 2 + rows before it + the breaks inside them."""
    text = "concat(" + ", ".join(staging_columns) + ")"
    breaks = (
        f"(length({text}) - length(replace({text}, E'\\n', ''))) + (length({text}) - length(replace({text}, E'\\r', '')))"
        f" - (length({text}) - length(replace({text}, E'\\r\\n', ''))) / 2"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} s SET line = l.line FROM ("
            f"SELECT ordinal, 1 + ordinal + coalesce(sum({breaks}) OVER (ORDER BY ordinal ROWS BETWEEN UNBOUNDED "
            f"PRECEDING AND 1 PRECEDING), 0) AS line FROM {table}) l WHERE s.ordinal = l.ordinal"
        )


def _rows_copy(path: Path, *, file_format: str, quiet: bool) -> Staged:
    """Rows parsed in Python (JSON, or a CSV that COPY refused) written with their line numbers."""
    table, columns = _staging_create(list(COLUMNS))
    sql = f"COPY {table} (line, {', '.join(columns.values())}) FROM STDIN"
    rejected: list[RejectedRow] = []
    rows = 0

    def rows_of(source: TextSource, name: str) -> Iterator[SourceRow]:
        return enheter_rows(source, name, file_format=file_format)

    with source_rows(path, rows_of=rows_of, quiet=quiet) as source_iter:
        with connection.wrap_database_errors, connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
            for row in source_iter:
                problem = row.problem or ("a field contains a NUL character" if _has_nul(row.values) else "")
                if problem:
                    rejected.append(RejectedRow(line=row.line, reason=problem))
                    continue
                copy.write_row([row.line, *(row.values[column] for column in COLUMNS)])
                rows += 1
    return Staged(table=table, columns=columns, rows=rows, lines_filled=True, rejected=rejected)


def _has_nul(values: dict[str, str]) -> bool:
    return any("\x00" in value for value in values.values())

