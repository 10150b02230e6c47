"""Organisation forms from `organisasjonsformer.csv` (`code,name`): key `NO-<code>`, e.g. `NO-AS`."""

from __future__ import annotations

import re
import uuid
from pathlib import Path


from service.companies.importers.reference import reference_rows_import
from service.companies.importers.result import ImportResult
from service.companies.importers.values import RowRejected, text_value
from service.companies.models import OrganizationType

BATCH_SIZE = 2000
_CODE = re.compile(r"^[A-ZÆØÅ]{1,10}$")


def organization_types_import(*, path: Path | str, quiet: bool = True, batch_size: int = BATCH_SIZE) -> ImportResult:
    result, _first_line = reference_rows_import(
        path=Path(path),
        model=OrganizationType,
        required_columns=("code", "name"),
        parse_row=_organization_type_row,
        unique_field="code",
        compare_fields=("code", "name"),
        quiet=quiet,
        batch_size=batch_size,
    )
    return result


def _organization_type_row(values: dict[str, str]) -> dict:
    code = values["code"].strip().upper()
    if not _CODE.match(code):
        raise RowRejected(f"code {code!r} is not an organisation form code such as AS")
    name = text_value(values["name"], field="name", max_length=200)
    if not name:
        raise RowRejected("name is empty")
    return {"uuid": uuid.uuid4(), "key": f"NO-{code}", "code": code, "name": name}
