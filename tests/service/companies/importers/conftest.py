"""Reference data from ../shared/data/brreg and small CSV writers for the importer tests."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from service.companies.importers.geo import geo_import
from service.companies.importers.nace import nace_import
from service.companies.importers.organization_types import organization_types_import
from tests.conftest import shared_file


def enheter_sample() -> Path:
    return shared_file("brreg/enheter-selection.csv")


def enheter_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(encoding="utf-8", newline="") as stream:
        reader = csv.DictReader(stream)
        return list(reader.fieldnames), list(reader)


def csv_write(path: Path, header: list[str], rows: list[dict[str, str]]) -> Path:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header, quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def brreg_json_object(row: dict[str, str]) -> dict:
    """A CSV row in the shape of the brreg JSON download: nested objects, lists, booleans, numbers."""
    spelled = {"registreringsdatoenhetsregisteret": "registreringsdatoEnhetsregisteret"}
    result: dict = {}
    for column, value in row.items():
        if value == "":
            continue
        *parents, leaf = spelled.get(column, column).split(".")
        target = result
        for parent in parents:
            target = target.setdefault(parent, {})
        if leaf == "adresse":
            target[leaf] = value.split("/n")
        elif value in ("true", "false"):
            target[leaf] = value == "true"
        elif leaf == "antallAnsatte":
            target[leaf] = int(value)
        else:
            target[leaf] = value
    return result


@pytest.fixture
def reference_data(db) -> None:
    """NACE tree, counties and municipalities, organisation forms: what company rows point at."""
    nace_import(path=shared_file("brreg/naeringskoder-sn2007.csv"))
    geo_import(path=shared_file("brreg/fylker-2024.csv"))
    organization_types_import(path=shared_file("brreg/organisasjonsformer.csv"))
