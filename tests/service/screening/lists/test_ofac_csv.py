"""OFAC SDN list, parsed from the real sdn.csv, alt.csv, add.csv and sdn_comments.csv."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from pathlib import Path

import pytest

from service.screening.lists.formats import ParsedEntry, ParseError, ParseSummary, parse_ofac_csv
from service.screening.lists.formats.entry import ParsedIdentifier, ParsedName
from service.screening.lists.formats.ofac_csv import natural_name

SDN_ROW = '{},"DOE, John","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 1970."\n'


def _rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return [row for row in csv.reader(stream) if row and row != ["\x1a"]]


@pytest.fixture(scope="module")
def parsed(ofac_sdn_path: Path) -> tuple[dict[str, ParsedEntry], ParseSummary]:
    summary = ParseSummary()
    entries = {entry.source_id: entry for entry in parse_ofac_csv(ofac_sdn_path, summary)}
    return entries, summary


def test_it_reads_every_sdn_row_by_type(parsed, ofac_sdn_path):
    entries, summary = parsed
    types = Counter(row[2].strip() for row in _rows(ofac_sdn_path))
    expected = {
        "Person": types["individual"],
        "Organization": types["-0-"],
        "Vessel": types["vessel"],
        "Airplane": types["aircraft"],
    }
    assert Counter(entry.schema for entry in entries.values()) == expected
    assert summary.read == summary.accepted == sum(types.values()) == 7379
    assert summary.rejected == []


def test_it_takes_every_alias_of_alt_csv(parsed, ofac_sdn_path):
    entries = parsed[0]
    alt_rows = _rows(ofac_sdn_path.parent / "alt.csv")
    strong_aliases = sum(
        name.quality == "strong" and name.kind != "primary" for entry in entries.values() for name in entry.names
    )
    # A few aliases repeat the primary name once put in natural order.
    assert len(alt_rows) - 15 <= strong_aliases <= len(alt_rows)
    assert sum(name.kind == "former" and name.quality == "strong" for e in entries.values() for name in e.names) == sum(
        row[2] == "fka" for row in alt_rows
    )


def test_it_puts_individual_names_in_natural_order(parsed):
    entry = parsed[0]["12625"]
    assert entry.names[0] == ParsedName("Kamchybek Asanbekovich KOLBAYEV", "strong", "primary")
    assert ParsedName("Kamchibek KOLBAEV", "strong", "alias") in entry.names
    assert natural_name("DELOS REYES, Feliciano Semborio, Jr.") == "Feliciano Semborio DELOS REYES Jr."
    assert natural_name("ABU ZUBAYDAH") == "ABU ZUBAYDAH"


def test_it_reads_weak_aliases_from_the_remarks(parsed):
    bank = parsed[0]["306"]
    assert bank.names == [
        ParsedName("BANCO NACIONAL DE CUBA", "strong", "primary"),
        ParsedName("NATIONAL BANK OF CUBA", "strong", "alias"),
        ParsedName("BNC", "weak", "alias"),
    ]
    assert ParsedName("KAMCHI BISHKEKSKIY", "weak", "alias") in parsed[0]["12625"].names


def test_it_reads_birth_date_nationality_gender_and_documents_from_the_remarks(parsed):
    entry = parsed[0]["12625"]
    assert entry.birth_dates == ["1974-08-03", "1973-01-01"]
    assert entry.nationalities == ["kg"]
    assert entry.gender == "male"
    assert ParsedIdentifier("passport", "AC2499982", "kg") in entry.identifiers
    assert ParsedIdentifier("national_id", "20308197410028", "kg") in entry.identifiers
    assert entry.programmes == ["SDNTK", "TCO"]
    assert entry.source_url == "https://sanctionssearch.ofac.treas.gov/Details.aspx?id=12625"


def test_it_reads_partial_birth_dates(parsed):
    entries = parsed[0]
    assert entries["7782"].birth_dates == ["1951"]  # DOB circa 1951
    assert entries["15496"].birth_dates == ["1929", "1930"]  # DOB 1929 to 1930
    assert entries["15960"].birth_dates == ["1953", "1954"]  # DOB 01 Jan 1953 to 31 Dec 1954
    assert entries["11748"].birth_dates == ["1979", "1980", "1981", "1982"]  # DOB circa 1979-1982; alt. DOB 1982
    assert entries["2686"].birth_dates == ["1960-08-31", "1953-08-31", "1955-08-31", "1958-08-31"]


def test_it_finds_as_many_genders_as_the_remarks_state(parsed, ofac_sdn_path):
    remarks = [row[11] for row in _rows(ofac_sdn_path)]
    genders = Counter(entry.gender for entry in parsed[0].values())
    assert genders["male"] == sum("Gender Male" in text for text in remarks)
    assert genders["female"] == sum("Gender Female" in text for text in remarks)


def test_it_maps_nationalities_to_codes(parsed, ofac_sdn_path):
    entries, summary = parsed
    assert entries["26235"].nationalities == []  # no nationality phrase, only "POB ... Russia"
    rows = _rows(ofac_sdn_path)
    for country, code in (("Syria", "sy"), ("Mexico", "mx"), ("Korea, North", "kp")):
        stated = {row[0] for row in rows if re.search(rf"(nationality|citizen) {re.escape(country)}\b", row[11])}
        assert stated == {entry.source_id for entry in entries.values() if code in entry.nationalities}
    assert {warning.reason for warning in summary.warnings if warning.source_id} == {
        "country not recognised: 'possibly Palestinian'"
    }


def test_it_joins_remarks_continued_in_sdn_comments(parsed):
    assert "Linked To: PROMO RAIZ S.A.S.; Linked To: RED MUNDIAL" in parsed[0]["12300"].remarks


def test_it_reads_vessels_with_imo_and_former_names(parsed):
    vessel = parsed[0]["15036"]
    assert vessel.schema == "Vessel"
    assert ParsedName("ABADAN", "strong", "former") in vessel.names
    assert ParsedIdentifier("imo", "9187629", None) in vessel.identifiers
    assert ParsedIdentifier("mmsi", "572469210", None) in vessel.identifiers


def test_it_joins_addresses_of_add_csv(parsed):
    assert "Zweierstrasse 35, Zurich CH-8022, Switzerland" in parsed[0]["306"].addresses


def test_it_reports_comments_about_entries_not_in_sdn_csv(parsed):
    # The shared sdn_comments.csv is from a fuller list than the shared sdn.csv.
    assert any(warning.location == "sdn_comments.csv" for warning in parsed[1].warnings)


def test_it_rejects_a_bad_row_and_goes_on():
    sdn = SDN_ROW.format(1) + '2,"SHORT ROW","individual"\n' + 'X,"BAD ID",-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \n' + SDN_ROW.format(4)
    summary = ParseSummary()
    entries = list(parse_ofac_csv(io.StringIO(sdn), summary))
    assert [entry.source_id for entry in entries] == ["1", "4"]
    assert entries[0].names[0].name == "John DOE" and entries[0].birth_dates == ["1970"]
    assert [(problem.location, problem.reason) for problem in summary.rejected] == [
        ("<stream> line 2", "expected 12 columns, found 3"),
        ("<stream> line 3", "ent_num 'X' is not a number"),
    ]
    assert (summary.read, summary.accepted) == (4, 2)
    assert "no alt.csv given or found beside it: aliases left out" in [problem.reason for problem in summary.warnings]


def test_it_raises_parse_error_on_a_file_with_other_columns(ofac_sdn_path):
    with pytest.raises(ParseError, match="expected 12 columns, found 5: not an OFAC alt.csv file"):
        list(parse_ofac_csv(ofac_sdn_path.parent / "alt.csv"))


def test_it_raises_parse_error_on_a_truncated_file(ofac_sdn_path, tmp_path):
    cut = tmp_path / "sdn.csv"
    text = ofac_sdn_path.read_text(encoding="utf-8")
    cut.write_text(text[: text.index('"DOB 13 May 1965')] + '"DOB 13 May')  # cut inside a quoted field
    with pytest.raises(ParseError, match="sdn.csv line .*file cut short"):
        list(parse_ofac_csv(cut))


def test_it_raises_parse_error_when_the_last_row_is_short(tmp_path):
    cut = tmp_path / "sdn.csv"
    cut.write_text(SDN_ROW.format(1) + '2,"DOE, Jane","individual",')
    with pytest.raises(ParseError, match="line 2: last row has 4 columns, expected 12"):
        list(parse_ofac_csv(cut))
