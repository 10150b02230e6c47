"""Which parser reads which file."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator

from .entry import ParsedEntry, ParseError, ParseSummary
from .eu_csv import parse_eu_csv
from .ftm_json import parse_ftm_json
from .ofac_csv import parse_ofac_csv
from .senzing_json import parse_senzing_json
from .sources import Source
from .un_xml import ROOT_TAG, parse_un_xml

Parser = Callable[[Source, ParseSummary | None], Iterator[ParsedEntry]]

FORMATS: dict[str, Parser] = {
    "un_xml": parse_un_xml,
    "ofac_csv": parse_ofac_csv,
    "eu_csv": parse_eu_csv,
    "ftm_json": parse_ftm_json,
    "senzing_json": parse_senzing_json,
}

_SNIFF_BYTES = 64 * 1024
# sdn.csv starts with a number and a quoted name: 36,"AEROCARIBBEAN AIRLINES",-0- ,...
_OFAC_SDN_ROW = re.compile(r'\d+,"[^"]*",')


def detect_format(path: str | os.PathLike[str]) -> str:
    """The FORMATS key for a file, judged by its content, not its name."""
    with open(path, "rb") as stream:
        head = stream.read(_SNIFF_BYTES).decode("utf-8-sig", errors="replace")
    first_line = head.lstrip().split("\n", 1)[0].strip()
    if first_line.startswith("<") and f"<{ROOT_TAG}" in head:
        return "un_xml"
    if "Entity_LogicalId" in first_line and ";" in first_line:
        return "eu_csv"
    if _OFAC_SDN_ROW.match(first_line):
        return "ofac_csv"
    if first_line.startswith("{"):
        record = _first_json_object(path)
        if "schema" in record and "properties" in record:
            return "ftm_json"
        if "RECORD_ID" in record:
            return "senzing_json"
    raise ParseError(os.fspath(path), "not a known screening list format")


def _first_json_object(path: str | os.PathLike[str]) -> dict[str, object]:
    """The first line in full: an FtM entity can be longer than the sniffed head."""
    with open(path, encoding="utf-8-sig", errors="replace") as stream:
        line = next((line for line in stream if line.strip()), "")
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return {}
    return record if isinstance(record, dict) else {}


def parse_file(
    path: str | os.PathLike[str], format: str | None = None, summary: ParseSummary | None = None
) -> Iterator[ParsedEntry]:
    """Parse a list file with the parser for `format`, detected when not given."""
    key = format or detect_format(path)
    if key not in FORMATS:
        raise ParseError(None, f"unknown format {key!r}; known: {', '.join(FORMATS)}")
    return FORMATS[key](path, summary)
