"""Enhetsregisteret (the Central Coordinating Register) bulk files -> Company rows.

`enheter_import` reads the CSV or JSON download (gzipped or not) and writes the whole
file in one transaction: a file that turns out broken halfway (bytes that are not
UTF-8, a cut JSON object) leaves nothing written. Bad rows are rejected and reported;
the others are written. A repeated organisation number updates the company again:
the later row wins, as it would in a later file.

Three ways, same results (the tests run every case through each on PostgreSQL):

- PostgreSQL, a CSV (columnar.py): the file is read by pyarrow in blocks, checked and
  mapped a whole column at a time, and copied (binary COPY) while the next block is
  checked: on a first load straight into the company table, whose indexes and foreign
  keys are rebuilt at the end (bulk_load.py), otherwise into the set-based path's table
  of mapped rows for its upsert. A file this path cannot take as it is (JSON, a row with
  the wrong number of fields ...) is rolled back to a savepoint and goes the set-based way.
- PostgreSQL, set-based (staging.py, set_based.py): the file goes into a staging
  table with COPY, and SQL checks, maps and upserts every row at once. Into an empty
  register (a first load of at least INITIAL_LOAD_MIN_ROWS rows) the company, employment
  and risk status tables are loaded without their secondary indexes and foreign keys,
  which are rebuilt and checked at the end (bulk_load.py).
- row by row (mapping.py, writer.py): SQLite, where `make run` and the tests live.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

from django.db import connection, transaction
from django.utils import timezone

from service.companies.importers.analysis_hook import AffectedCompanies
from service.companies.importers.bulk_load import tables_bulk_load, tables_lock
from service.companies.importers.enheter.columnar import columnar_import
from service.companies.importers.enheter.mapping import enhet_company_row
from service.companies.importers.enheter.records import enheter_rows
from service.companies.importers.enheter.references import EnhetReferences
from service.companies.importers.enheter.set_based import staged_rows_apply
from service.companies.importers.enheter.staging import staging_fill
from service.companies.importers.enheter.writer import companies_batch_write
from service.companies.importers.reading import source_rows
from service.companies.importers.result import ImportResult
from service.companies.importers.values import RowRejected
from service.companies.models import Company, CompanyEmployment, CompanyRiskStatus

BATCH_SIZE = 5000
FORMATS = ("auto", "csv", "json")
# columnar: the column-by-column path where it applies, else set_based (what auto takes on PostgreSQL)
METHODS = ("auto", "columnar", "set_based", "rows")
# Below this many rows rebuilding the indexes saves nothing worth locking the tables for.
INITIAL_LOAD_MIN_ROWS = 10_000
# Memory for the set-based statements' sorts and hashes (this transaction only).
WORK_MEM = "128MB"


def enheter_import(
    *,
    path: Path | str,
    file_format: str = "auto",
    quiet: bool = True,
    batch_size: int = BATCH_SIZE,
    refresh_analysis: bool = True,
    method: str = "auto",
) -> ImportResult:
    """`method`: columnar or set_based (PostgreSQL only), rows, or auto (columnar on PostgreSQL)."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}")
    if method == "auto":
        method = _default_method()
    path = Path(path)
    result = ImportResult(source=path.name)
    affected = AffectedCompanies()
    with transaction.atomic():
        if method in ("columnar", "set_based"):
            done = None
            if method == "columnar" and file_format != "json":
                done = columnar_import(
                    path=path, quiet=quiet, now=timezone.now(), initial_load=_initial_load, min_rows=INITIAL_LOAD_MIN_ROWS
                )
            if done is not None:
                result, affected = done
            else:
                _set_based_import(path, file_format=file_format, quiet=quiet, result=result, affected=affected)
        else:
            _rows_import(path, file_format=file_format, quiet=quiet, batch_size=batch_size, result=result, affected=affected)
    if refresh_analysis:
        affected.refresh()
    return result


def _default_method() -> str:
    return "columnar" if connection.vendor == "postgresql" else "rows"


def _set_based_import(path: Path, *, file_format: str, quiet: bool, result: ImportResult, affected: AffectedCompanies) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL work_mem = %s", [WORK_MEM])
        # Checking a million staged rows is worth parallel workers even though each row goes back to the leader.
        cursor.execute("SET LOCAL parallel_setup_cost = 0")
        cursor.execute("SET LOCAL parallel_tuple_cost = 0")
    staged = staging_fill(path=path, file_format=file_format, quiet=quiet)
    staged_rows_apply(staged=staged, result=result, affected=affected, now=timezone.now(), initial_load=_initial_load)


def _initial_load(rows: int) -> AbstractContextManager | None:
    """A first load into an empty register: the tables' indexes and foreign keys are built once, at the end.
    None when the register is not empty or the file too small to be worth locking the tables for."""
    tables = [Company, CompanyEmployment, CompanyRiskStatus]
    if rows < INITIAL_LOAD_MIN_ROWS or Company.objects.exists():
        return None
    tables_lock(tables)
    if any(model.objects.exists() for model in tables):  # filled while we waited for the lock
        return None
    return tables_bulk_load(tables)


def _rows_import(
    path: Path, *, file_format: str, quiet: bool, batch_size: int, result: ImportResult, affected: AffectedCompanies
) -> None:
    def rows_of(source, name):
        return enheter_rows(source, name, file_format=file_format)

    def flush(batch: dict[str, dict]) -> None:
        outcome = companies_batch_write(rows=list(batch.values()), refs=refs, pending=refs.pending_take(), now=timezone.now())
        result.tally(**outcome.counts())
        affected.add(row["uuid"] for row in outcome.created)
        affected.add(row["uuid"] for row, _ in outcome.updated)
        batch.clear()

    with source_rows(path, rows_of=rows_of, quiet=quiet) as rows:
        refs = EnhetReferences.load()
        batch: dict[str, dict] = {}  # org nr -> row
        for row in rows:
            result.rows_read += 1
            warnings: list[str] = []
            try:
                if row.problem:
                    raise RowRejected(row.problem)
                company = enhet_company_row(row.values, refs=refs, warn=warnings.append)
            except RowRejected as exc:
                result.reject(line=row.line, reason=str(exc))
                continue
            for message in warnings:  # only an imported row warns
                result.warn(line=row.line, message=message)
            if company["org_nr"] in batch or len(batch) >= batch_size:
                flush(batch)
            batch[company["org_nr"]] = company
        if batch:
            flush(batch)
