"""Senzing JSON lines, parsed from the real US Congress PEP file."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from service.screening.lists.formats import ParsedEntry, ParseError, ParseSummary, parse_senzing_json
from service.screening.lists.formats.entry import ParsedIdentifier, ParsedName


@pytest.fixture(scope="module")
def parsed(senzing_path: Path) -> tuple[dict[str, ParsedEntry], ParseSummary]:
    summary = ParseSummary()
    entries = {entry.source_id: entry for entry in parse_senzing_json(senzing_path, summary)}
    return entries, summary


@pytest.fixture(scope="module")
def records(senzing_path: Path) -> list[dict]:
    return [json.loads(line) for line in senzing_path.read_text(encoding="utf-8").splitlines()]


def test_it_reads_every_person_and_skips_position_records(parsed, records):
    entries, summary = parsed
    persons = [record["RECORD_ID"] for record in records if record["RECORD_TYPE"] == "PERSON"]
    assert summary.read == len(records) == 1319
    assert sorted(entries) == sorted(persons)
    assert summary.accepted == len(persons) == 1317
    assert summary.skipped == {"no RECORD_TYPE": len(records) - len(persons)}
    assert summary.rejected == [] and summary.warnings == []


def test_it_reads_names_birth_year_and_nationality(parsed):
    entry = parsed[0]["Q101198561"]
    assert entry.schema == "Person"
    assert entry.names == [
        ParsedName("Scott Franklin", "strong", "primary"),
        ParsedName("C. Scott Franklin", "strong", "alias"),
    ]
    assert entry.birth_dates == ["1964"]
    assert entry.nationalities == ["us"]
    assert entry.source_url == "https://www.opensanctions.org/entities/Q101198561"


def test_it_counts_the_birth_years_and_aliases_the_file_holds(parsed, records):
    entries = parsed[0]
    persons = [record for record in records if record["RECORD_TYPE"] == "PERSON"]
    assert sum(bool(entry.birth_dates) for entry in entries.values()) == sum("DATES" in record for record in persons)
    aliases = sum(name["NAME_TYPE"] == "ALIAS" for record in persons for name in record["NAMES"])
    assert sum(name.kind == "alias" for entry in entries.values() for name in entry.names) == aliases


def test_it_reads_name_parts_gender_and_documents():
    record = {
        "DATA_SOURCE": "TEST",
        "RECORD_ID": "r-1",
        "RECORD_TYPE": "PERSON",
        "NAMES": [{"NAME_TYPE": "PRIMARY", "NAME_FIRST": "Ann", "NAME_MIDDLE": "B.", "NAME_LAST": "Example"}],
        "GENDER": "F",
        "DATES": [{"DATE_OF_BIRTH": "1970-05"}],
        "COUNTRIES": [{"CITIZENSHIP": "Norway"}],
        "IDENTIFIERS": [{"PASSPORT_NUMBER": "12345678", "PASSPORT_COUNTRY": "NO"}],
        "ADDRESSES": [{"ADDR_FULL": "Storgata 1, Oslo"}],
    }
    (entry,) = parse_senzing_json(io.StringIO(json.dumps(record) + "\n"))
    assert entry.names == [ParsedName("Ann B. Example", "strong", "primary")]
    assert (entry.gender, entry.birth_dates, entry.nationalities) == ("female", ["1970-05"], ["no"])
    assert entry.identifiers == [ParsedIdentifier("passport", "12345678", "no")]
    assert entry.addresses == ["Storgata 1, Oslo"]


def test_it_rejects_an_invalid_line_and_goes_on(senzing_path):
    lines = senzing_path.read_text(encoding="utf-8").splitlines(keepends=True)
    broken = io.StringIO(lines[0] + '{"RECORD_ID": "x", "NAMES": [\n' + lines[1])
    summary = ParseSummary()
    assert len(list(parse_senzing_json(broken, summary))) == 2
    assert summary.rejected[0].location == "<stream> line 2"
    assert summary.rejected[0].reason.startswith("invalid JSON")


def test_it_raises_parse_error_on_a_truncated_file(senzing_path, tmp_path):
    cut = tmp_path / "cut.json"
    cut.write_text(senzing_path.read_text(encoding="utf-8")[:5000], encoding="utf-8")
    with pytest.raises(ParseError, match="last line is not complete JSON: file cut short"):
        list(parse_senzing_json(cut))


def test_each_pep_has_the_public_functions_it_points_at(parsed, records):
    entries, _ = parsed
    names = {r["RECORD_ID"]: r["NAMES"][0]["NAME_FULL"] for r in records if r["RECORD_TYPE"] is None}
    assert names == {"Q13218630": "United States representative", "Q4416090": "United States senator"}
    for record in (r for r in records if r["RECORD_TYPE"] == "PERSON"):
        pointed = [rel["REL_POINTER_KEY"] for rel in record["RELATIONSHIPS"] if rel.get("REL_POINTER_ROLE") == "Occupancy"]
        assert entries[record["RECORD_ID"]].positions == list(dict.fromkeys(names[key] for key in pointed))
    # The file gives the senators' position on line 567: those before it were held until then, not left without.
    assert sum(entry.positions == ["United States senator"] for entry in entries.values()) == 160


def _lines(*records: dict) -> io.StringIO:
    return io.StringIO("".join(json.dumps(record) + "\n" for record in records))


def test_a_person_before_its_position_waits_for_it_and_an_unknown_position_is_left_out():
    person = {"RECORD_ID": "p-1", "RECORD_TYPE": "PERSON", "NAMES": [{"NAME_TYPE": "PRIMARY", "NAME_FULL": "Kari Nordmann"}],
              "RELATIONSHIPS": [{"REL_POINTER_ROLE": "Occupancy", "REL_POINTER_KEY": "Q1"},
                                {"REL_POINTER_ROLE": "Occupancy", "REL_POINTER_KEY": "Q2"}]}
    minister = {"RECORD_ID": "Q2", "RECORD_TYPE": None, "NAMES": [{"NAME_TYPE": "PRIMARY", "NAME_FULL": "Minister of Fisheries"}],
                "RELATIONSHIPS": [{"REL_ANCHOR_DOMAIN": "OPEN_SANCTIONS", "REL_ANCHOR_KEY": "Q2"}]}
    other = {"RECORD_ID": "p-2", "RECORD_TYPE": "PERSON", "NAMES": [{"NAME_TYPE": "PRIMARY", "NAME_FULL": "Ola Hansen"}]}

    entries = list(parse_senzing_json(_lines(person, other, minister)))

    assert [(e.source_id, e.positions) for e in entries] == [("p-2", []), ("p-1", ["Minister of Fisheries"])]
