"""OpenSanctions FollowTheMoney entities (JSON lines), on a small fixture.

The fixture follows the `entities.ftm.json` export (id, schema, properties,
datasets, first_seen, target...); its facts are those of the same subjects
in the shared UN and OFAC files.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest

from service.screening.lists.formats import ParsedEntry, ParseError, ParseSummary, parse_ftm_json
from service.screening.lists.formats.entry import ParsedIdentifier, ParsedName

PERSON = {"id": "p-1", "schema": "Person", "properties": {"name": ["Ann Example"]}, "target": True}


@pytest.fixture(scope="module")
def parsed(ftm_json_path: Path) -> tuple[dict[str, ParsedEntry], ParseSummary]:
    summary = ParseSummary()
    entries = {entry.source_id: entry for entry in parse_ftm_json(ftm_json_path, summary)}
    return entries, summary


def _lines(*records: dict | str) -> io.StringIO:
    return io.StringIO("".join((record if isinstance(record, str) else json.dumps(record)) + "\n" for record in records))


def test_it_keeps_targets_of_matchable_schemata_and_counts_the_rest(parsed, ftm_json_path):
    entries, summary = parsed
    schemata = Counter(json.loads(line)["schema"] for line in ftm_json_path.read_text(encoding="utf-8").splitlines())
    assert summary.read == sum(schemata.values()) == 6
    assert summary.accepted == schemata["Person"] + schemata["Organization"] + schemata["Vessel"] == 4
    assert summary.skipped == {"schema Sanction": 1, "schema Address": 1}
    assert [entry.schema for entry in entries.values()] == ["Person", "Person", "Organization", "Vessel"]


def test_it_reads_names_by_strength(parsed):
    names = parsed[0]["unsc-6908833"].names
    assert names[0] == ParsedName("Jamal Hussein Hassan Zeiniye", "strong", "primary")
    assert ParsedName("Jamal Husayn Zayniyah", "strong", "alias") in names
    assert ParsedName("جمال حسين حسن زينيه", "strong", "original_script") in names
    assert ParsedName("Abu Malek El Talleh", "weak", "alias") in names


def test_it_reads_a_person_in_full(parsed):
    entry = parsed[0]["ofac-12625"]
    assert entry.birth_dates == ["1974-08-03", "1973"]
    assert entry.nationalities == ["kg"]
    assert entry.gender == "male"
    assert ParsedIdentifier("passport", "AC2499982") in entry.identifiers
    assert ParsedIdentifier("national_id", "20308197410028") in entry.identifiers
    assert entry.programmes == ["US-TCO", "US-SDNTK"]
    assert entry.source_url == "https://sanctionssearch.ofac.treas.gov/Details.aspx?id=12625"
    assert entry.remarks == "Linked To: THIEVES-IN-LAW."
    assert entry.addresses == ["Murjan 6, Jumeirah Beach Residences, Dubai, United Arab Emirates"]


def test_it_merges_nationality_and_citizenship_and_takes_the_listing_date(parsed):
    entry = parsed[0]["unsc-6908833"]
    assert entry.nationalities == ["sy"]
    assert entry.listed_date == "2020-10-08"


def test_it_reads_vessels_with_previous_names(parsed):
    vessel = parsed[0]["ofac-15036"]
    assert ParsedName("SHONA", "strong", "former") in vessel.names
    assert ParsedIdentifier("imo", "IMO9187629") in vessel.identifiers


def test_it_skips_entities_that_are_not_targets():
    relative = {**PERSON, "id": "p-2", "target": False}
    summary = ParseSummary()
    assert [entry.source_id for entry in parse_ftm_json(_lines(PERSON, relative), summary)] == ["p-1"]
    assert summary.skipped == {"not a target": 1}


def test_it_rejects_an_invalid_line_and_goes_on():
    summary = ParseSummary()
    lines = _lines(PERSON, '{"id": "p-2", "schema": "Person"', {**PERSON, "id": "p-3", "properties": {}}, {**PERSON, "id": "p-4"})
    assert [entry.source_id for entry in parse_ftm_json(lines, summary)] == ["p-1", "p-4"]
    assert [(problem.location, problem.reason[:12]) for problem in summary.rejected] == [
        ("<stream> line 2", "invalid JSON"),
        ("<stream> line 3", "no name"),
    ]
    assert (summary.read, summary.accepted) == (4, 2)


def test_it_warns_about_a_birth_date_it_cannot_read():
    person = {**PERSON, "properties": {"name": ["Ann Example"], "birthDate": ["circa 1970s"]}}
    summary = ParseSummary()
    assert list(parse_ftm_json(_lines(person), summary))[0].birth_dates == []
    assert summary.warnings[0].reason == "birth date not understood: 'circa 1970s'"


def test_it_raises_parse_error_on_a_truncated_file(ftm_json_path, tmp_path):
    cut = tmp_path / "cut.ftm.json"
    text = ftm_json_path.read_text(encoding="utf-8")
    cut.write_text(text[: text.index('"previousName"')], encoding="utf-8")
    with pytest.raises(ParseError, match="cut.ftm.json line 6: last line is not complete JSON"):
        list(parse_ftm_json(cut))


def test_it_raises_parse_error_on_a_file_that_is_not_json_lines(eu_csv_path):
    with pytest.raises(ParseError, match="line 1: not JSON lines"):
        list(parse_ftm_json(eu_csv_path))


def test_it_reads_a_peps_positions():
    person = {**PERSON, "properties": {"name": ["Ann Example"], "position": ["Member of the Storting", "Member of the Storting"]}}
    [entry] = parse_ftm_json(_lines(person))
    assert entry.positions == ["Member of the Storting"]
