"""Parsers for screening-list files (UN XML, OFAC CSV, EU CSV, FtM and
Senzing JSON lines) into one plain-Python entry type. No Django here:
importers that store list versions build on top. See docs/screening-lists.md.
"""

from .entry import (
    ParsedEntry,
    ParsedIdentifier,
    ParsedName,
    ParseError,
    ParseSummary,
    Problem,
)
from .eu_csv import parse_eu_csv
from .ftm_json import parse_ftm_json
from .ofac_csv import parse_ofac_csv
from .registry import FORMATS, detect_format, parse_file
from .senzing_json import parse_senzing_json
from .un_xml import parse_un_xml

__all__ = [
    "FORMATS",
    "ParseError",
    "ParseSummary",
    "ParsedEntry",
    "ParsedIdentifier",
    "ParsedName",
    "Problem",
    "detect_format",
    "parse_eu_csv",
    "parse_file",
    "parse_ftm_json",
    "parse_ofac_csv",
    "parse_senzing_json",
    "parse_un_xml",
]
