"""SN2007 (NACE) codes from `naeringskoder-sn2007.csv` (`path,name,description`).

A path such as `J.62.0.1.0` spells the code of each level: section `J`, division `62`,
group `62.0`, class `62.01`, subclass `62.010`. Keys are `NO-<code>`; a code's parent
is the code of its path without the last part. Parents are linked once every row is
in, so the file's order does not matter.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

from django.db import transaction

from service.companies.importers.reference import reference_rows_import
from service.companies.importers.result import ImportResult
from service.companies.importers.values import RowRejected, text_value
from service.companies.models import NaceCode

BATCH_SIZE = 2000
_PATH = re.compile(r"^[A-Z](\.\d{2}(\.\d(\.\d(\.\d)?)?)?)?$")


def nace_code_from_path(path: str) -> tuple[str, int]:
    """(code, level) of a tree path: `J.62.0.1.0` -> (`62.010`, 5)."""
    if not _PATH.match(path):
        raise RowRejected(f"path {path!r} is not a SN2007 path such as J.62.0.1.0")
    section, *rest = path.split(".")
    if not rest:
        return section, 1
    division, *digits = rest
    code = division if not digits else f"{division}.{''.join(digits)}"
    return code, len(rest) + 1


def nace_import(*, path: Path | str, quiet: bool = True, batch_size: int = BATCH_SIZE) -> ImportResult:
    result, first_line = reference_rows_import(
        path=Path(path),
        model=NaceCode,
        required_columns=("path", "name"),
        parse_row=_nace_row,
        unique_field="path",
        compare_fields=("code", "level", "path", "name", "description"),
        quiet=quiet,
        batch_size=batch_size,
    )
    with transaction.atomic():
        _parents_link(result, first_line)
    return result


def _nace_row(values: dict[str, str]) -> dict:
    tree_path = values["path"].strip()
    code, level = nace_code_from_path(tree_path)
    name = text_value(values["name"], field="name", max_length=300)
    if not name:
        raise RowRejected("name is empty")
    return {
        "uuid": uuid.uuid4(),
        "key": f"NO-{code}",
        "code": code,
        "level": level,
        "path": tree_path,
        "name": name,
        "description": (values.get("description") or "").strip(),
    }


def _parents_link(result: ImportResult, first_line: dict[str, int]) -> None:
    """Point each code at the code of its parent path; warn where the parent is missing."""
    nodes = list(NaceCode.objects.only("uuid", "path", "parent_id"))
    by_path = {node.path: node.uuid for node in nodes}
    relinked = []
    for node in nodes:
        parent_path = node.path.rpartition(".")[0]
        parent = by_path.get(parent_path) if parent_path else None
        if parent_path and parent is None and node.path in first_line:
            result.warn(line=first_line[node.path], message=f"parent {parent_path} is missing; code left without parent")
        if node.parent_id != parent:
            node.parent_id = parent
            relinked.append(node)
    NaceCode.objects.bulk_update(relinked, ["parent"], batch_size=1000)
