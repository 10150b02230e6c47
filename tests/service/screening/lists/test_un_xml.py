"""UN Security Council consolidated list, parsed from the real file."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest

from service.screening.lists.formats import ParsedEntry, ParseError, ParseSummary, parse_un_xml
from service.screening.lists.formats.entry import ParsedIdentifier, ParsedName


@pytest.fixture(scope="module")
def parsed(un_xml_path: Path) -> tuple[dict[str, ParsedEntry], ParseSummary]:
    summary = ParseSummary()
    entries = {entry.source_id: entry for entry in parse_un_xml(un_xml_path, summary)}
    return entries, summary


def test_it_reads_every_individual_and_entity(parsed, un_xml_path):
    entries, summary = parsed
    text = un_xml_path.read_text(encoding="utf-8")
    individuals, entities = text.count("<INDIVIDUAL>"), text.count("<ENTITY>")
    assert (individuals, entities) == (730, 273)
    assert Counter(entry.schema for entry in entries.values()) == {"Person": individuals, "Organization": entities}
    assert summary.read == summary.accepted == individuals + entities
    assert summary.rejected == []


def test_it_reads_an_individual_in_full(parsed):
    entry = parsed[0]["CDi.001"]
    assert entry.names == [ParsedName("ERIC BADEGE", "strong", "primary")]
    assert entry.birth_dates == ["1971"]
    assert entry.nationalities == ["cd"]
    assert entry.gender == "male"
    assert entry.programmes == ["DRC"]
    assert entry.listed_date == "2012-12-31"
    assert entry.addresses == ["Rwanda"]
    assert entry.remarks.startswith("He fled to Rwanda in March 2013")


def test_it_keeps_alias_quality_and_original_script(parsed):
    names = {name.name: name for name in parsed[0]["QDi.012"].names}
    assert names["NASHWAN ABD AL-RAZZAQ ABD AL-BAQI"].kind == "primary"
    assert names["نشوان عبد الرزاق عبد الباقي"].kind == "original_script"
    assert (names["Abd Al-Hadi Al-Iraqi"].quality, names["Abd Al-Hadi Al-Iraqi"].kind) == ("strong", "alias")
    assert (names["Abu Abdallah"].quality, names["Abu Abdallah"].kind) == ("weak", "alias")


def test_it_counts_as_many_weak_aliases_as_low_quality_ones(parsed, un_xml_path):
    low_quality = un_xml_path.read_text(encoding="utf-8").count("<QUALITY>Low</QUALITY>")
    weak = sum(name.quality == "weak" for entry in parsed[0].values() for name in entry.names)
    assert weak == low_quality


def test_it_files_entity_fka_names_as_former(parsed):
    names = {name.name: name for name in parsed[0]["CDe.001"].names}
    assert names["ADF"].kind == "primary"
    assert names["Allied Democratic Forces"].kind == "alias"
    assert names["NALU"].kind == "former"


def test_it_writes_between_dates_as_every_year_of_the_range(parsed):
    assert parsed[0]["KPi.066"].birth_dates == ["1967", "1968", "1969"]
    assert parsed[0]["TAi.002"].birth_dates == ["1955", "1956", "1957", "1958", "1945", "1946", "1947", "1948", "1949", "1950"]


def test_it_keeps_approximate_and_exact_dates_at_their_precision(parsed):
    assert parsed[0]["CDi.014"].birth_dates == ["1962-03-17", "1966"]


def test_it_reads_a_month_and_year_written_in_a_note(parsed):
    # <TYPE_OF_DATE>EXACT</TYPE_OF_DATE><NOTE>Nov. 1973 </NOTE>, no DATE or YEAR
    assert "1973-11" in parsed[0]["CDi.004"].birth_dates


def test_it_reads_documents_with_their_country(parsed):
    identifiers = parsed[0]["QDi.428"].identifiers
    assert ParsedIdentifier("passport", "3987189", "sy") in identifiers
    assert ParsedIdentifier("national_id", "13080011550", None) in identifiers


def test_it_maps_every_nationality_it_can_to_a_code(parsed, un_xml_path):
    entries, summary = parsed
    codes = {code for entry in entries.values() for code in entry.nationalities}
    assert {"af", "iq", "kp", "cd", "gb", "ru", "ir", "sy"} <= codes
    assert all(re.fullmatch(r"[a-z]{2}", code) for code in codes)
    # "former Soviet Union" has no two-letter code: reported, not guessed.
    assert any("former Soviet Union" in warning.reason for warning in summary.warnings)
    # "na" is a placeholder, not Namibia.
    assert "na" not in codes


def test_it_reports_birth_dates_it_cannot_read(parsed):
    reasons = {warning.source_id: warning.reason for warning in parsed[1].warnings}
    assert "Hijri" in reasons["QDi.291"]


def test_it_rejects_a_record_without_reference_number_and_goes_on():
    xml = b"""<?xml version="1.0" encoding="UTF-8"?>
<CONSOLIDATED_LIST><INDIVIDUALS>
<INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>NO</FIRST_NAME><SECOND_NAME>REFERENCE</SECOND_NAME></INDIVIDUAL>
<INDIVIDUAL><DATAID>2</DATAID><FIRST_NAME>ALI</FIRST_NAME><REFERENCE_NUMBER>XXi.002</REFERENCE_NUMBER></INDIVIDUAL>
</INDIVIDUALS><ENTITIES/></CONSOLIDATED_LIST>"""
    summary = ParseSummary()
    entries = list(parse_un_xml(io.BytesIO(xml), summary))
    assert [entry.source_id for entry in entries] == ["XXi.002"]
    assert (summary.read, summary.accepted) == (2, 1)
    assert summary.rejected[0].location == "INDIVIDUAL #1"
    assert summary.rejected[0].reason == "no REFERENCE_NUMBER"
    assert summary.rejected[0].source_id == "1"


def test_it_raises_parse_error_on_a_truncated_file(un_xml_path, tmp_path):
    cut = tmp_path / "cut.xml"
    cut.write_bytes(un_xml_path.read_bytes()[:200_000])
    with pytest.raises(ParseError) as raised:
        list(parse_un_xml(cut))
    assert raised.value.location.startswith("cut.xml line ")
    assert "not well-formed XML" in raised.value.reason


def test_it_raises_parse_error_on_a_file_that_is_not_xml(tmp_path):
    not_xml = tmp_path / "sdn.csv"
    not_xml.write_text('36,"AEROCARIBBEAN AIRLINES",-0- \n')
    with pytest.raises(ParseError, match="not well-formed XML"):
        list(parse_un_xml(not_xml))


def test_it_raises_parse_error_on_another_kind_of_xml():
    with pytest.raises(ParseError, match="expected <CONSOLIDATED_LIST>"):
        list(parse_un_xml(io.BytesIO(b"<rss><channel/></rss>")))
