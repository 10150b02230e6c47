"""EU consolidated list CSV (FSF csvFullSanctionsList_1_1), on a small fixture.

The fixture uses the real 118-column header (BOM, ";" separator, CRLF) and the
one-sub-record-per-row layout; its subjects and facts are copied from the UN
list (the EU transposes it), its EU logical ids and reference numbers are made up.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from service.screening.lists.formats import ParsedEntry, ParseError, ParseSummary, parse_eu_csv
from service.screening.lists.formats.entry import ParsedIdentifier, ParsedName


@pytest.fixture(scope="module")
def parsed(eu_csv_path: Path) -> tuple[dict[str, ParsedEntry], ParseSummary]:
    summary = ParseSummary()
    entries = {entry.source_id: entry for entry in parse_eu_csv(eu_csv_path, summary)}
    return entries, summary


def _header(eu_csv_path: Path) -> str:
    return eu_csv_path.read_text(encoding="utf-8-sig").splitlines()[0]


def _csv(header: str, *rows: dict[str, str]) -> io.StringIO:
    columns = header.split(";")
    lines = [header] + [";".join(row.get(column, "") for column in columns) for row in rows]
    return io.StringIO("\r\n".join(lines) + "\r\n")


def test_it_groups_rows_into_one_entry_per_logical_id(parsed, eu_csv_path):
    entries, summary = parsed
    lines = eu_csv_path.read_text(encoding="utf-8-sig").splitlines()
    logical_ids = {line.split(";")[1] for line in lines[1:]}
    assert len(_header(eu_csv_path).split(";")) == 118
    assert set(entries) == logical_ids
    assert summary.read == summary.accepted == len(logical_ids) == 4
    assert [entry.schema for entry in entries.values()] == ["Person", "Person", "Person", "Organization"]


def test_it_reads_a_person_in_full(parsed):
    entry = parsed[0]["13002"]
    assert entry.names == [
        ParsedName("Jamal Hussein Hassan ZEINIYE", "strong", "primary"),
        ParsedName("جمال حسين حسن زينيه", "strong", "original_script"),
        ParsedName("Jamal Husayn Zayniyah", "strong", "alias"),
        ParsedName("Abu Malek El Talleh", "strong", "alias"),
    ]
    assert entry.birth_dates == ["1972-08-17", "1972-01-01"]
    assert entry.nationalities == ["sy"]
    assert entry.gender == "male"
    assert entry.identifiers == [
        ParsedIdentifier("passport", "3987189", "sy"),
        ParsedIdentifier("national_id", "13080011550", "sy"),
    ]
    assert entry.programmes == ["TAQA"]
    assert entry.addresses == ["Arsal, Bekaa, LEBANON"]
    assert entry.remarks.startswith("Leader of Al-Nusrah Front")
    assert entry.source_url == "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:32020R1480"


def test_it_reads_year_only_and_year_range_birth_dates(parsed):
    assert parsed[0]["13001"].birth_dates == ["1971"]
    assert parsed[0]["13003"].birth_dates == ["1969", "1970", "1971"]


def test_it_maps_citizenship_from_code_or_country_name(parsed):
    assert parsed[0]["13001"].nationalities == ["cd"]  # Citizenship_CountryIso2Code CD
    assert parsed[0]["13003"].nationalities == ["rw"]  # only Citizenship_CountryDescription "Rwanda"


def test_it_takes_the_designation_date_or_else_the_first_regulation(parsed):
    assert parsed[0]["13001"].listed_date == "2012-12-31"
    assert parsed[0]["13003"].listed_date == "2016-12-13"


def test_it_reads_an_enterprise_with_its_aliases_and_addresses(parsed):
    entry = parsed[0]["13004"]
    assert entry.primary_name == "Forces Démocratiques de Libération du Rwanda (FDLR)"
    assert [name.name for name in entry.names[1:]] == ["FDLR", "Force Combattante Abacunguzi", "FOCA"]
    assert entry.gender is None
    assert len(entry.addresses) == 2


def test_it_rejects_an_entity_of_unknown_type_and_one_split_over_the_file(eu_csv_path):
    header = _header(eu_csv_path)
    rows = (
        {"Entity_LogicalId": "1", "Entity_SubjectType": "person", "NameAlias_WholeName": "Ann Example"},
        {"Entity_LogicalId": "2", "Entity_SubjectType": "vessel", "NameAlias_WholeName": "Sea Example"},
        {"Entity_LogicalId": "1", "Entity_SubjectType": "person", "NameAlias_WholeName": "Ann Later"},
        {"Entity_LogicalId": "3", "Entity_SubjectType": "person"},
    )
    summary = ParseSummary()
    entries = list(parse_eu_csv(_csv(header, *rows), summary))
    assert [entry.source_id for entry in entries] == ["1"]
    assert [(problem.location, problem.reason) for problem in summary.rejected] == [
        ("<stream> line 3", "unknown Entity_SubjectType 'vessel'"),
        ("<stream> line 4", "rows of this Entity_LogicalId are not consecutive"),
        ("<stream> line 5", "no name"),
    ]


def test_it_raises_parse_error_on_a_csv_with_other_columns():
    other = io.StringIO("Name 6;Name 1;Name 2;Group ID\r\nBADEGE;Eric;;13001\r\n")
    with pytest.raises(ParseError, match="not an EU sanctions list CSV: no column Entity_LogicalId"):
        list(parse_eu_csv(other))


def test_it_raises_parse_error_on_a_truncated_file(eu_csv_path, tmp_path):
    cut = tmp_path / "eu.csv"
    text = eu_csv_path.read_text(encoding="utf-8-sig")
    cut.write_text(text[: text.index("Abu Malek El Talleh")], encoding="utf-8")
    with pytest.raises(ParseError, match=r"eu.csv line 9: \d+ fields where the header has 118"):
        list(parse_eu_csv(cut))
