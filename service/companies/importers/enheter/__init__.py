"""Enhetsregisteret (the Central Coordinating Register) bulk files -> Company rows.

`enheter_import` reads the CSV or JSON download (gzipped or not) and writes the whole
file in one transaction: a file that turns out broken halfway (bytes that are not
UTF-8, a cut JSON object) leaves nothing written. After it commits, the stored companies
it renamed are announced (`entity_details_changed`): screening compares their names. Bad rows are rejected and reported
by line with their reason; the others are written. A repeated organisation number
updates the company again: the later row wins, as it would in a later file.

One way through, whatever the file and the database:

    reading.py      the file as blocks of text columns (pyarrow's CSV reader, or JSON flattened)
    rules.py        every row rule, on whole columns: rejections with reasons, typed values
    references.py   codes -> reference uuids, warnings for unknown codes, new postal codes and countries
    postgres.py     PostgreSQL: COPY, then set-based upsert and history (or a first load into empty tables)
    writer.py       any other database (SQLite): the ORM upsert in batches, with the same history rules
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

from django.db import connection, transaction
from django.utils import timezone

from service.companies.importers.analysis_hook import AffectedCompanies
from service.companies.importers.bulk_load import tables_bulk_load, tables_lock
from service.companies.importers.enheter.postgres import PostgresWriter
from service.companies.importers.enheter.reading import csv_blocks, is_json, json_blocks
from service.companies.importers.enheter.references import EnhetReferences
from service.companies.importers.enheter.rules import block_check
from service.companies.importers.enheter.writer import RowsWriter
from service.companies.importers.result import WARNING_LINES_KEPT, ImportResult, RejectedRow, WarningGroup
from service.companies.importers.source import progress_bar, text_source_open
from service.companies.models import Company, CompanyEmployment, CompanyRiskStatus
from service.companies.signals import entity_details_changed_announce

BATCH_SIZE = 5000
FORMATS = ("auto", "csv", "json")
# Below this many rows rebuilding the indexes saves nothing worth locking the tables for.
INITIAL_LOAD_MIN_ROWS = 10_000


def enheter_import(
    *,
    path: Path | str,
    file_format: str = "auto",
    quiet: bool = True,
    batch_size: int = BATCH_SIZE,
    refresh_analysis: bool = True,
) -> ImportResult:
    """`batch_size`: rows per upsert where the ORM writes (SQLite)."""
    if file_format not in FORMATS:
        raise ValueError(f"file_format must be one of {', '.join(FORMATS)}")
    path = Path(path)
    result = ImportResult(source=path.name)
    affected = AffectedCompanies()
    now = timezone.now()
    rejected: list[tuple[int, str]] = []  # (ordinal, reason)
    warnings: dict[str, WarningGroup] = {}  # message -> count and the first ordinals
    with transaction.atomic(), text_source_open(path) as source:
        with progress_bar(total=source.size, description=path.name, quiet=quiet) as bar:
            reader = json_blocks if is_json(source, file_format, path.name) else csv_blocks
            blocks = reader(source, bar, path)
            refs = EnhetReferences.load()
            writer = _writer(now=now, batch_size=batch_size, refs=refs, result=result, affected=affected)
            first = 0
            try:
                for block in blocks.blocks:
                    checked = block_check(block, first=first)
                    first += block.num_rows
                    rejected.extend(checked.rejected)
                    if checked.rows.num_rows:
                        rows, warned = refs.block_resolve(checked.rows)
                        for ordinal, message in warned:
                            _warning_add(warnings, ordinal, message)
                        writer.write(rows)
                writer.finish()
            except BaseException as exc:
                writer.abort(exc)
                raise
        named = {ordinal for ordinal, _ in rejected}
        named.update(ordinal for group in warnings.values() for ordinal in group.lines)
        lines = blocks.lines_of(named)
    result.rows_read = blocks.rows
    result.rejected = sorted(
        [RejectedRow(lines[ordinal], reason) for ordinal, reason in rejected]
        + [RejectedRow(line, reason) for line, reason in blocks.refused],
        key=lambda row: row.line,
    )
    for message, group in warnings.items():
        result.warnings[message] = WarningGroup(message, group.count, [lines[ordinal] for ordinal in group.lines])
    entity_details_changed_announce(company_uuids=writer.renamed)
    if refresh_analysis:
        affected.refresh()
    return result


def _writer(*, now, batch_size: int, refs: EnhetReferences, result: ImportResult, affected: AffectedCompanies):
    if connection.vendor == "postgresql":
        return PostgresWriter(
            now=now, initial_load=_initial_load, min_rows=INITIAL_LOAD_MIN_ROWS, refs=refs, result=result, affected=affected
        )
    return RowsWriter(now=now, batch_size=batch_size, refs=refs, result=result, affected=affected)


def _warning_add(warnings: dict[str, WarningGroup], ordinal: int, message: str) -> None:
    """ImportResult.warn's grouping, with ordinals for lines (lines are known at the end)."""
    group = warnings.setdefault(message, WarningGroup(message))
    group.count += 1
    if len(group.lines) < WARNING_LINES_KEPT:
        group.lines.append(ordinal)


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
