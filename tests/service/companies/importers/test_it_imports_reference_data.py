"""import_nace, import_geo, import_organization_types on the real files: tree, keys, idempotency, bad rows."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import CommandError, call_command

from service.companies.importers.geo import geo_import
from service.companies.importers.nace import nace_code_from_path, nace_import
from service.companies.importers.organization_types import organization_types_import
from service.companies.models import GeoCountry, GeoMunicipality, GeoSubdivision, NaceCode, OrganizationType
from tests.conftest import shared_file


def _count_rows(path) -> int:
    with path.open(encoding="utf-8", newline="") as stream:
        return sum(1 for _ in csv.DictReader(stream))


def test_it_imports_every_nace_code_with_its_level_and_parent(db):
    path = shared_file("brreg/naeringskoder-sn2007.csv")

    result = nace_import(path=path)

    expected = _count_rows(path)
    assert (result.rows_read, result.created, result.rejected) == (expected, expected, [])
    subclass = NaceCode.objects.get(key="NO-62.010")
    assert (subclass.code, subclass.level, subclass.path) == ("62.010", 5, "J.62.0.1.0")
    chain = []
    node = subclass
    while node is not None:
        chain.append((node.key, node.level))
        node = node.parent
    assert chain == [("NO-62.010", 5), ("NO-62.01", 4), ("NO-62.0", 3), ("NO-62", 2), ("NO-J", 1)]
    assert NaceCode.objects.filter(level=1, parent__isnull=True).count() == NaceCode.objects.filter(level=1).count()
    assert not NaceCode.objects.filter(level__gt=1, parent__isnull=True).exists()
    assert NaceCode.objects.get(key="NO-09.109").parent.key == "NO-09.10"


@pytest.mark.parametrize(
    ("path", "expected"),
    [("J", ("J", 1)), ("J.62", ("62", 2)), ("J.62.0", ("62.0", 3)), ("J.62.0.1", ("62.01", 4)), ("J.62.0.1.0", ("62.010", 5))],
)
def test_it_spells_the_code_of_each_level(path, expected):
    assert nace_code_from_path(path) == expected


def test_a_second_nace_import_changes_nothing(db):
    path = shared_file("brreg/naeringskoder-sn2007.csv")
    nace_import(path=path)
    before = dict(NaceCode.objects.values_list("key", "uuid"))

    again = nace_import(path=path)

    assert (again.created, again.updated, again.unchanged) == (0, 0, again.rows_read)
    assert dict(NaceCode.objects.values_list("key", "uuid")) == before


def test_it_imports_counties_and_municipalities_under_norway(db):
    path = shared_file("brreg/fylker-2024.csv")

    result = geo_import(path=path)

    assert result.rows_read == _count_rows(path) and result.written == result.rows_read and not result.rejected
    assert GeoCountry.objects.get(key="NO")
    county = GeoSubdivision.objects.get(key="NO-11")
    assert (county.code, county.name, county.country.key) == ("11", "Rogaland", "NO")
    municipality = GeoMunicipality.objects.get(key="NO-1101")
    assert (municipality.code, municipality.name, municipality.subdivision.key) == ("1101", "Eigersund", "NO-11")
    assert GeoMunicipality.objects.get(key="NO-3201").subdivision.key == "NO-32"
    assert geo_import(path=path).unchanged == result.rows_read


def test_it_imports_organisation_forms(db):
    result = organization_types_import(path=shared_file("brreg/organisasjonsformer.csv"))

    assert result.written == result.rows_read == OrganizationType.objects.count()
    assert OrganizationType.objects.get(key="NO-AS").name == "Aksjeselskap"
    assert OrganizationType.objects.get(key="NO-ASA").code == "ASA"


def test_bad_geo_rows_are_reported_with_their_lines_and_good_ones_imported(db, tmp_path):
    path = tmp_path / "fylker.csv"
    path.write_text("path,name\n11,Rogaland\n11.01,Eigersund\n77.01,Nowhere\n1x,Bad\n11.03,\n11,Again\n", encoding="utf-8")

    result = geo_import(path=path)

    assert result.rows_read == 6 and result.created == 2
    assert [(row.line, row.reason) for row in result.rejected] == [
        (5, "path '1x' is neither a county (11) nor a municipality (11.01)"),
        (6, "name is empty"),
        (7, "duplicate path 11 (first on line 2)"),
        (4, "county 77 of municipality 7701 is neither in the file nor in the database"),
    ]


def test_a_wrong_header_fails_before_writing(db, tmp_path):
    path = tmp_path / "nace.csv"
    path.write_text("kode,navn\nJ,Informasjon\n", encoding="utf-8")

    with pytest.raises(CommandError, match="missing column"):
        call_command("import_nace", str(path), stdout=io.StringIO())

    assert not NaceCode.objects.exists()


def test_the_command_prints_rejects_then_a_one_line_summary(db, tmp_path):
    path = tmp_path / "orgforms.csv"
    path.write_text('code,name\nAS,Aksjeselskap\n"a s",Bad\nENK,\n', encoding="utf-8")
    out = io.StringIO()

    call_command("import_organization_types", str(path), "--quiet", stdout=out)

    assert out.getvalue().splitlines() == [
        "line 3: rejected: code 'A S' is not an organisation form code such as AS",
        "line 4: rejected: name is empty",
        "orgforms.csv: read 3, written 1 (created 1, updated 0), unchanged 0, rejected 2, warnings 0",
    ]
