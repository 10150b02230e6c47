"""Senzing entity-resolution JSON lines (as OpenSanctions exports them).

A record keeps its attributes either at the top level or in lists of small
objects (NAMES, DATES, COUNTRIES, ADDRESSES, IDENTIFIERS, or FEATURES in newer
files); both are read the same way.
"""

from __future__ import annotations

from collections.abc import Iterator

from .countries import country_code, read_country
from .dates import parse_iso
from .entry import (
    ALIAS,
    NATIONAL_ID,
    ORGANIZATION,
    PASSPORT,
    PERSON,
    PRIMARY,
    STRONG,
    TAX_ID,
    OutOfScope,
    ParsedEntry,
    ParseSummary,
    RecordError,
    Warn,
    clean_text,
)
from .jsonlines import JsonObject, parse_json_lines
from .names import kind_for_script
from .sources import Source

_SCHEMAS = {"PERSON": PERSON, "ORGANIZATION": ORGANIZATION}
_GENDERS = {"m": "male", "male": "male", "f": "female", "female": "female"}
_NAME_PARTS = ("NAME_FIRST", "NAME_MIDDLE", "NAME_LAST", "NAME_SUFFIX")
_IDENTIFIERS = {
    "PASSPORT_NUMBER": (PASSPORT, "PASSPORT_COUNTRY"),
    "NATIONAL_ID_NUMBER": (NATIONAL_ID, "NATIONAL_ID_COUNTRY"),
    "TAX_ID_NUMBER": (TAX_ID, "TAX_ID_COUNTRY"),
}
_ADDRESS_PARTS = (
    "ADDR_LINE1", "ADDR_LINE2", "ADDR_LINE3", "ADDR_CITY", "ADDR_STATE", "ADDR_POSTAL_CODE", "ADDR_COUNTRY",
)  # fmt: skip


def parse_senzing_json(source: Source, summary: ParseSummary | None = None) -> Iterator[ParsedEntry]:
    """Yield person and organisation records; records without a RECORD_TYPE
    (OpenSanctions uses them for positions such as "United States senator")
    are skipped."""
    return parse_json_lines(source, summary if summary is not None else ParseSummary(), _entry)


def _entry(record: JsonObject, summary: ParseSummary, location: str) -> ParsedEntry:
    source_id = clean_text(str(record.get("RECORD_ID") or ""))
    if not source_id:
        raise RecordError("no RECORD_ID")
    record_type = record.get("RECORD_TYPE")
    if not record_type:
        raise OutOfScope("no RECORD_TYPE")
    schema = _SCHEMAS.get(str(record_type).upper())
    if schema is None:
        raise RecordError(f"unknown RECORD_TYPE {record_type!r}", source_id)
    warn = summary.warner(location, source_id)
    entry = ParsedEntry(source_id=source_id, schema=schema, source_url=_first_text(record.get("URL")))
    attributes = _attribute_groups(record)
    # Primary names first, so the first name added is the primary one.
    for group in sorted(attributes, key=lambda group: group.get("NAME_TYPE") != "PRIMARY"):
        if name := _name(group):
            entry.add_name(name, STRONG, PRIMARY if not entry.names else kind_for_script(name, ALIAS))
    if not entry.names:
        raise RecordError("no name", source_id)
    for group in attributes:
        _add_facts(entry, group, warn)
    return entry


def _attribute_groups(record: JsonObject) -> list[JsonObject]:
    """The record itself and every object in its lists."""
    groups = [record]
    for value in record.values():
        if isinstance(value, list):
            groups.extend(item for item in value if isinstance(item, dict))
    return groups


def _name(group: JsonObject) -> str:
    if full := _first_text(group.get("NAME_FULL")) or _first_text(group.get("NAME_ORG")):
        return full
    return " ".join(filter(None, (_first_text(group.get(part)) for part in _NAME_PARTS)))


def _add_facts(entry: ParsedEntry, group: JsonObject, warn: Warn) -> None:
    if birth := _first_text(group.get("DATE_OF_BIRTH")):
        if date := parse_iso(birth):
            entry.add_birth_dates([date])
        else:
            warn(f"birth date not understood: {birth!r}")
    for key in ("NATIONALITY", "CITIZENSHIP"):
        if code := read_country(_first_text(group.get(key)), warn):
            entry.add_nationality(code)
    entry.gender = entry.gender or _GENDERS.get((_first_text(group.get("GENDER")) or "").lower())
    for key, (kind, country_key) in _IDENTIFIERS.items():
        entry.add_identifier(kind, _first_text(group.get(key)), country_code(_first_text(group.get(country_key))))
    if full := _first_text(group.get("ADDR_FULL")):
        entry.add_address([full])
    else:
        entry.add_address([_first_text(group.get(part)) for part in _ADDRESS_PARTS])


def _first_text(value: object) -> str | None:
    """Senzing values are strings, but exports sometimes hold numbers."""
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return clean_text(str(value)) or None
    return None
