"""Organisation forms from `organisasjonsformer.csv` (`code,name`): key `NO-<code>`, e.g. `NO-AS`."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

from django.db import transaction

from service.companies.importers.reading import batched, csv_source_rows
from service.companies.importers.result import ImportResult
from service.companies.importers.upsert import rows_upsert_changed
from service.companies.importers.values import RowRejected, text_value
from service.companies.models import OrganizationType

BATCH_SIZE = 2000
_CODE = re.compile(r"^[A-ZÆØÅ]{1,10}$")


def organization_types_import(*, path: Path | str, quiet: bool = True, batch_size: int = BATCH_SIZE) -> ImportResult:
    path = Path(path)
    result = ImportResult(source=path.name)
    first_line: dict[str, int] = {}
    with csv_source_rows(path, required_columns=("code", "name"), quiet=quiet) as rows:
        for batch in batched(rows, batch_size):
            valid = []
            for row in batch:
                result.rows_read += 1
                try:
                    if row.problem:
                        raise RowRejected(row.problem)
                    record = _organization_type_row(row.values)
                    if record["code"] in first_line:
                        raise RowRejected(f"duplicate code {record['code']} (first on line {first_line[record['code']]})")
                except RowRejected as exc:
                    result.reject(line=row.line, reason=str(exc))
                    continue
                first_line[record["code"]] = row.line
                valid.append(record)
            with transaction.atomic():
                outcome = rows_upsert_changed(
                    model=OrganizationType, rows=valid, key_fields=("key",), compare_fields=("code", "name")
                )
            result.tally(**outcome.counts())
    return result


def _organization_type_row(values: dict[str, str]) -> dict:
    code = values["code"].strip().upper()
    if not _CODE.match(code):
        raise RowRejected(f"code {code!r} is not an organisation form code such as AS")
    name = text_value(values["name"], field="name", max_length=200)
    if not name:
        raise RowRejected("name is empty")
    return {"uuid": uuid.uuid4(), "key": f"NO-{code}", "code": code, "name": name}
