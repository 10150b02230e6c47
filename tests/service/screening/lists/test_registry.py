"""Format detection and the format registry."""

from __future__ import annotations

import io

import pytest

from service.screening.lists.formats import (
    FORMATS,
    ParseError,
    ParseSummary,
    detect_format,
    parse_file,
    parse_ftm_json,
    parse_senzing_json,
)


def test_it_registers_one_parser_per_format():
    assert set(FORMATS) == {"un_xml", "ofac_csv", "eu_csv", "ftm_json", "senzing_json"}


def test_it_detects_the_format_of_each_real_file(un_xml_path, ofac_sdn_path, senzing_path, eu_csv_path, ftm_json_path):
    assert detect_format(un_xml_path) == "un_xml"
    assert detect_format(ofac_sdn_path) == "ofac_csv"
    assert detect_format(senzing_path) == "senzing_json"
    assert detect_format(eu_csv_path) == "eu_csv"
    assert detect_format(ftm_json_path) == "ftm_json"


def test_it_refuses_a_file_of_no_known_format(ofac_sdn_path, tmp_path):
    with pytest.raises(ParseError, match="alt.csv: not a known screening list format"):
        detect_format(ofac_sdn_path.parent / "alt.csv")
    empty = tmp_path / "empty.json"
    empty.write_text("")
    with pytest.raises(ParseError, match="not a known screening list format"):
        detect_format(empty)


def test_it_parses_a_file_with_the_detected_or_the_given_format(un_xml_path, ftm_json_path):
    summary = ParseSummary()
    assert len(list(parse_file(un_xml_path, summary=summary))) == summary.accepted == 1003
    assert [entry.source_id for entry in parse_file(ftm_json_path, "ftm_json")][:1] == ["ofac-12625"]
    with pytest.raises(ParseError, match="unknown format 'csv'"):
        parse_file(un_xml_path, "csv")


def test_it_reads_binary_streams_and_leaves_them_open(senzing_path):
    stream = io.BytesIO(senzing_path.read_bytes())
    assert len(list(parse_senzing_json(stream))) == 1317
    assert not stream.closed


def test_it_raises_parse_error_on_text_that_is_not_utf8(tmp_path):
    latin1 = tmp_path / "entities.ftm.json"
    latin1.write_bytes('{"id": "p-1", "schema": "Person", "properties": {"name": ["Jos\xe9"]}}\n'.encode("latin-1"))
    with pytest.raises(ParseError, match="entities.ftm.json: not utf-8 text"):
        list(parse_ftm_json(latin1))
