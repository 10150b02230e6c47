"""The Vakt JSON-lines import: one record per line, its `type` saying what it is
(accounts, role, payment_remark, collection_case, employment). Format: docs/importers.md.

Lines are applied in batches; each line in its own savepoint, so a line that fails
leaves nothing behind and the batch goes on. Blank lines are skipped.

After the last commit the import announces, once, the companies whose roles it created or
changed (`company_persons_changed`) and the persons whose details a role record changed
(`entity_details_changed`; service/companies/signals.py). A role record that changed only
its person counts as updated.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

from django.db import transaction
from pydantic import ValidationError

from service.companies.importers.analysis_hook import AffectedCompanies
from service.companies.importers.csv_rows import SourceRow
from service.companies.importers.jsonl.schemas import AnyRecord
from service.companies.importers.jsonl.writers import WRITERS, company_uuid, role_write
from service.companies.importers.reading import batched, source_rows
from service.companies.importers.result import ImportResult
from service.companies.importers.source import ImportFileError, TextSource
from service.companies.importers.values import RowRejected
from service.companies.signals import company_persons_changed_announce, entity_details_changed_announce

BATCH_SIZE = 1000


def jsonl_import(
    *, path: Path | str, quiet: bool = True, batch_size: int = BATCH_SIZE, refresh_analysis: bool = True
) -> ImportResult:
    path = Path(path)
    result = ImportResult(source=path.name)
    affected = AffectedCompanies()
    roles_changed = AffectedCompanies()
    persons_changed: set[uuid.UUID] = set()
    with source_rows(path, rows_of=_lines, quiet=quiet) as rows:
        for batch in batched(rows, batch_size):
            with transaction.atomic():
                for row in batch:
                    result.rows_read += 1
                    persons_before = len(persons_changed)
                    try:
                        with transaction.atomic():
                            company, record_type, outcome = _record_write(row.values["text"], persons_changed=persons_changed)
                    except RowRejected as exc:
                        result.reject(line=row.line, reason=str(exc))
                        continue
                    if outcome != "unchanged":
                        affected.add([company])
                        if record_type == "role":
                            roles_changed.add([company])
                    elif len(persons_changed) > persons_before:
                        outcome = "updated"
                    result.tally(**{name: int(name == outcome) for name in ("created", "updated", "unchanged")})
    company_persons_changed_announce(changed=roles_changed)
    entity_details_changed_announce(person_uuids=persons_changed)
    if refresh_analysis:
        affected.refresh()
    return result


def _lines(source: TextSource, name: str) -> Iterator[SourceRow]:
    first = source.head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if first and first != b"{":
        raise ImportFileError(f"{name} is not JSON lines: each line must be a JSON object")
    return _rows(source.stream)


def _rows(stream) -> Iterator[SourceRow]:
    for number, line in enumerate(stream, start=1):
        if line.strip():
            yield SourceRow(number, {"text": line})


def _record_write(text: str, *, persons_changed: set[uuid.UUID]):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RowRejected(f"not JSON: {exc.msg} at column {exc.colno}") from None
    try:
        record = AnyRecord.validate_python(data)
    except ValidationError as exc:
        raise RowRejected("; ".join(_error(error) for error in exc.errors())) from None
    company = company_uuid(org_nr=record.org_nr, org_nr_schema=record.org_nr_schema)
    if record.type == "role":
        return company, record.type, role_write(record, company, persons_changed=persons_changed)
    return company, record.type, WRITERS[record.type](record, company)


def _error(error: dict) -> str:
    location = ".".join(str(part) for part in error["loc"][1:] if part is not None)  # [0] is the record type
    return f"{location}: {error['msg']}" if location else error["msg"]
