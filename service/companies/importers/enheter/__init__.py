"""Enhetsregisteret (the Central Coordinating Register) bulk files -> Company rows.

`enheter_import` streams the CSV or JSON download (gzipped or not), maps each row
(mapping.py), and writes batches atomically (writer.py). A repeated organisation
number updates the company again: the later row wins, as it would in a later file.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

from django.utils import timezone

from service.companies.importers.analysis_hook import AffectedCompanies
from service.companies.importers.bulk_load import table_bulk_load
from service.companies.importers.enheter.mapping import enhet_company_row
from service.companies.importers.enheter.records import enheter_rows
from service.companies.importers.enheter.references import EnhetReferences
from service.companies.importers.enheter.writer import companies_batch_write
from service.companies.importers.pipeline import batch_writer
from service.companies.importers.reading import source_rows
from service.companies.importers.result import ImportResult
from service.companies.importers.values import RowRejected
from service.companies.models import Company

BATCH_SIZE = 5000
FORMATS = ("auto", "csv", "json")


def enheter_import(
    *,
    path: Path | str,
    file_format: str = "auto",
    quiet: bool = True,
    batch_size: int = BATCH_SIZE,
    refresh_analysis: bool = True,
    bulk_load: bool = False,
) -> ImportResult:
    """`bulk_load`: the first load into an empty company table, in one transaction with the
    table's indexes built at the end (PostgreSQL; see bulk_load.py; BulkLoadRefused otherwise)."""
    path = Path(path)
    result = ImportResult(source=path.name)
    affected = AffectedCompanies()
    with table_bulk_load(Company) if bulk_load else nullcontext():
        _rows_import(path, file_format=file_format, quiet=quiet, batch_size=batch_size, result=result, affected=affected)
    if refresh_analysis:
        affected.refresh()
    return result


def _rows_import(
    path: Path, *, file_format: str, quiet: bool, batch_size: int, result: ImportResult, affected: AffectedCompanies
) -> None:
    def rows_of(source, name):
        return enheter_rows(source, name, file_format=file_format)

    def write(rows: list[dict], pending) -> None:  # on the writer's thread when pipelined
        outcome = companies_batch_write(rows=rows, refs=refs, pending=pending, now=timezone.now())
        result.tally(**outcome.counts())
        affected.add(row["uuid"] for row in outcome.created)
        affected.add(row["uuid"] for row, _ in outcome.updated)

    def flush(batch: dict[str, dict]) -> None:
        rows, pending = list(batch.values()), refs.pending_take()
        writer.submit(lambda: write(rows, pending))
        batch.clear()

    with source_rows(path, rows_of=rows_of, quiet=quiet) as rows, batch_writer() as writer:
        refs = EnhetReferences.load()
        batch: dict[str, dict] = {}  # org nr -> row
        for row in rows:
            result.rows_read += 1

            def warn(message: str, line: int = row.line) -> None:
                result.warn(line=line, message=message)

            try:
                if row.problem:
                    raise RowRejected(row.problem)
                company = enhet_company_row(row.values, refs=refs, warn=warn)
            except RowRejected as exc:
                result.reject(line=row.line, reason=str(exc))
                continue
            if company["org_nr"] in batch or len(batch) >= batch_size:
                flush(batch)
            batch[company["org_nr"]] = company
        if batch:
            flush(batch)
