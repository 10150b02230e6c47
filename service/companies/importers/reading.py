"""The loop every importer shares: open the file, check its shape, yield rows with a progress bar.

A problem in the middle of the file (bytes that are not UTF-8, a broken quote, a cut
JSON object) can only be seen when it is reached; it stops the import with an
ImportFileError naming the line. Batches before it are committed, and because every
import is an idempotent upsert, re-running the fixed file completes it.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path

from service.companies.importers.csv_rows import SourceRow, csv_rows
from service.companies.importers.source import (
    ImportFileError,
    TextSource,
    progress_advance,
    progress_bar,
    text_source_open,
)

PROGRESS_EVERY = 2000


@contextmanager
def source_rows(
    path: Path | str,
    *,
    rows_of: Callable[[TextSource, str], Iterator[SourceRow]],
    quiet: bool,
) -> Iterator[Iterator[SourceRow]]:
    """The file's rows, parsed by `rows_of(source, name)`, which checks the file's shape eagerly."""
    path = Path(path)
    with text_source_open(path) as source:
        rows = rows_of(source, path.name)
        with progress_bar(total=source.size, description=path.name, quiet=quiet) as bar:
            yield _tracked(rows, source, bar, path.name)


@contextmanager
def csv_source_rows(path: Path | str, *, required_columns: Iterable[str], quiet: bool) -> Iterator[Iterator[SourceRow]]:
    def rows_of(source: TextSource, name: str) -> Iterator[SourceRow]:
        return csv_rows(source.stream, required_columns=required_columns, name=name)

    with source_rows(path, rows_of=rows_of, quiet=quiet) as rows:
        yield rows


def _tracked(rows: Iterator[SourceRow], source: TextSource, bar, name: str) -> Iterator[SourceRow]:
    line = 1
    try:
        for count, row in enumerate(rows, start=1):
            line = row.line
            if count % PROGRESS_EVERY == 0:
                progress_advance(bar, source)
            yield row
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ImportFileError(f"{name} is unreadable after line {line}: {exc}") from None
    progress_advance(bar, source)


def batched(rows: Iterable, size: int) -> Iterator[list]:
    iterator = iter(rows)
    while batch := list(islice(iterator, size)):
        yield batch
