"""An uploaded CSV file of rows, read the same way for every upload: the screening file
(batch_file.py) and the customer-person import (person_import_file.py).

UTF-8 (a byte order mark is fine), `,` or `;` between columns (a spreadsheet's CSV in many
locales), a header naming the columns in any order and case, blank lines skipped. Every problem
is a `FileProblem` with its line (the header is line 1) and column, so a caller sees all of them
at once; `upload_checked` turns what a reader found into the API's answer: 413, 400 naming every
problem by line and column, or the rows.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings

from service.errors import ApiError, BadRequest, bad_field

MAX_LISTED_PROBLEMS = 100  # a 400 lists this many; the detail gives the total


@dataclass(frozen=True)
class FileProblem:
    line: int  # 1 is the header
    column: str | None  # None: the whole line or file
    msg: str

    def loc(self) -> list[str]:
        """Where in an upload: ["body", "file", "line 7", "birth_date"]."""
        return ["body", "file", f"line {self.line}"] + ([self.column] if self.column else [])

    def text(self) -> str:
        return f"line {self.line}" + (f", {self.column}" if self.column else "") + f": {self.msg}"


class ScreeningFileError(ValueError):
    """The file cannot be read at all (not text, no header, no name column)."""

    def __init__(self, problem: FileProblem) -> None:
        super().__init__(problem.text())
        self.problem = problem


class TooManyRows(ValueError):
    def __init__(self, limit: int) -> None:
        super().__init__(f"the file has more than {limit:,} rows; split it into files of at most {limit:,}")
        self.limit = limit


def cell(row: dict, column: str) -> str:
    value = row.get(column)
    return value.strip() if isinstance(value, str) else ""


def _dialect(text: str) -> str:
    header = text.split("\n", 1)[0]
    return ";" if header.count(";") > header.count(",") else ","


def csv_lines(
    content: bytes | str, *, name_columns: tuple[str, ...], header_hint: str, max_rows: int | None = None
) -> Iterator[tuple[int, dict]]:
    """(line, cells by lower-case column) of every data line that is not blank. Raises
    ScreeningFileError when the file as a whole is unreadable (not UTF-8, a NUL, no column of
    `name_columns`: `header_hint` says what the header needs) and TooManyRows past `max_rows`
    (before reading further)."""
    if isinstance(content, bytes):
        try:
            content = content.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ScreeningFileError(FileProblem(1, None, f"not UTF-8 text (byte {exc.start})")) from None
    content = content.removeprefix("\ufeff")
    if "\x00" in content:
        line = content.count("\n", 0, content.index("\x00")) + 1
        raise ScreeningFileError(FileProblem(line, None, "contains a NUL character; is this a CSV file?"))
    reader = csv.DictReader(io.StringIO(content, newline=""), delimiter=_dialect(content))
    columns = [c.strip().lower() for c in (reader.fieldnames or [])]
    if not set(name_columns) & set(columns):
        raise ScreeningFileError(FileProblem(1, None, header_hint))
    reader.fieldnames = columns
    lines_read = 0
    try:
        for raw in reader:
            if not any((v or "").strip() for k, v in raw.items() if k is not None) and None not in raw:
                continue  # blank line
            lines_read += 1
            if max_rows is not None and lines_read > max_rows:
                raise TooManyRows(max_rows)
            yield reader.line_num, raw
    except csv.Error as exc:
        raise ScreeningFileError(FileProblem(reader.line_num, None, f"not readable as CSV: {exc}")) from None


class ReadFile(Protocol):
    rows: list
    problems: list[FileProblem]


def _file_loc() -> list[str]:
    return ["body", "file"]


def upload_checked(
    *, content: bytes, read: Callable[[bytes], ReadFile], nothing_done: str, no_rows: str, max_bytes: int | None = None,
) -> ReadFile:
    """What `read` makes of an uploaded file, or the 4xx that says everything wrong with it:
    413 past the body limit (`max_bytes`, default the API's), 400 when it cannot be read, has too
    many rows (the reader's limit), any bad row (every problem by line and column, `nothing_done`
    saying what did not happen) or no row (`no_rows`)."""
    max_bytes = settings.VAKT_MAX_BODY_BYTES if max_bytes is None else max_bytes
    if len(content) > max_bytes:  # a chunked upload has no Content-Length to refuse early
        raise ApiError(
            f"The file is too large: {len(content)} bytes, the limit is {max_bytes}.",
            code="payload_too_large",
            status=413,
        )
    try:
        result = read(content)
    except ScreeningFileError as exc:
        raise BadRequest(f"The file cannot be read: {exc}", code="invalid_file", errors=[
            {"loc": exc.problem.loc(), "msg": exc.problem.msg}
        ]) from None
    except TooManyRows as exc:
        raise bad_field(_file_loc(), str(exc), code="too_many_rows") from None
    problems = result.problems
    if problems:
        lines = sorted({p.line for p in problems if p.line > 1})
        raise BadRequest(
            f"The file has {len(problems)} problem(s) on {len(lines)} line(s), the first on line {problems[0].line}; "
            f"{nothing_done}. Correct them and upload the file again.",
            code="invalid_file",
            errors=[{"loc": p.loc(), "msg": p.msg} for p in problems[:MAX_LISTED_PROBLEMS]],
        )
    if not result.rows:
        raise bad_field(_file_loc(), no_rows, code="invalid_file")
    return result
