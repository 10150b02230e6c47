"""CSV rows with the line each starts on, after checking the header names the columns we need."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from service.companies.importers.source import ImportFileError


@dataclass
class SourceRow:
    line: int  # the physical line the row starts on (the header is line 1)
    values: dict[str, str]
    problem: str = ""  # set when the row's shape is broken; values is then empty


def csv_rows(stream, *, required_columns: Iterable[str], name: str) -> Iterator[SourceRow]:
    """Rows as dicts keyed by the header. The header is checked now, before any row is read:
    one missing a required column is an ImportFileError."""
    reader = csv.reader(stream)
    try:
        header = next(reader)
    except StopIteration:
        raise ImportFileError(f"{name} is empty: expected a CSV header") from None
    except csv.Error as exc:
        raise ImportFileError(f"{name} is not readable as CSV: {exc}") from None
    csv_header_check(header, required_columns=required_columns, name=name)
    return _rows(reader, header)


def csv_header_check(header: list[str], *, required_columns: Iterable[str], name: str) -> None:
    missing = [column for column in required_columns if column not in header]
    if missing:
        raise ImportFileError(
            f"{name} has the wrong header: missing column(s) {', '.join(missing)}; found {', '.join(header[:8])}"
            + (", ..." if len(header) > 8 else "")
        )


def _rows(reader, header: list[str]) -> Iterator[SourceRow]:
    width = len(header)
    previous_end = reader.line_num
    for fields in reader:
        line = previous_end + 1
        previous_end = reader.line_num
        if not fields:
            continue  # a blank line is not a row
        if len(fields) != width:
            yield SourceRow(line, {}, f"expected {width} fields, found {len(fields)}")
            continue
        yield SourceRow(line, dict(zip(header, fields)))
