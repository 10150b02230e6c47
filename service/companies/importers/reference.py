"""The loop shared by the small reference-file importers (NACE codes, organisation forms).

Read the CSV in batches, reject bad and duplicate rows with their line numbers,
and upsert each batch of good rows in its own transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from django.db import models, transaction

from service.companies.importers.reading import batched, csv_source_rows
from service.companies.importers.result import ImportResult
from service.companies.importers.upsert import rows_upsert_changed
from service.companies.importers.values import RowRejected


def reference_rows_import(
    *,
    path: Path,
    model: type[models.Model],
    required_columns: Sequence[str],
    parse_row: Callable[[dict[str, str]], dict],
    unique_field: str,
    compare_fields: Sequence[str],
    quiet: bool,
    batch_size: int,
) -> tuple[ImportResult, dict[str, int]]:
    """The import result, and the line each accepted `unique_field` value was first read on."""
    result = ImportResult(source=path.name)
    first_line: dict[str, int] = {}  # a few thousand codes at most
    with csv_source_rows(path, required_columns=tuple(required_columns), quiet=quiet) as rows:
        for batch in batched(rows, batch_size):
            valid = []
            for row in batch:
                result.rows_read += 1
                try:
                    if row.problem:
                        raise RowRejected(row.problem)
                    record = parse_row(row.values)
                    value = record[unique_field]
                    if value in first_line:
                        raise RowRejected(f"duplicate {unique_field} {value} (first on line {first_line[value]})")
                except RowRejected as exc:
                    result.reject(line=row.line, reason=str(exc))
                    continue
                first_line[value] = row.line
                valid.append(record)
            with transaction.atomic():
                outcome = rows_upsert_changed(
                    model=model, rows=valid, key_fields=("key",), compare_fields=tuple(compare_fields)
                )
            result.tally(**outcome.counts())
    return result, first_line
