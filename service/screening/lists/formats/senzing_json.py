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
    """Yield person and organisation records, each with the positions it points at ("Occupancy": OpenSanctions
    writes a PEP's public function as a record of its own, without a RECORD_TYPE, that persons point at by its
    RECORD_ID). A person is held until every position it points at has been read, or the file ends (a position
    the file never gives is left out); the positions come in the order the person points at them."""
    positions: dict[str, str] = {}  # a position record's id -> its name
    pointers: dict[str, list[str]] = {}  # a person's id -> the position ids it points at
    held: list[ParsedEntry] = []

    def entry(record: JsonObject, summary: ParseSummary, location: str) -> ParsedEntry:
        return _entry(record, summary, location, positions=positions, pointers=pointers)

    def with_positions(parsed: ParsedEntry) -> ParsedEntry:
        for key in pointers.pop(parsed.source_id, ()):
            parsed.add_position(positions.get(key))
        return parsed

    known = 0
    for parsed in parse_json_lines(source, summary if summary is not None else ParseSummary(), entry):
        if known != len(positions):  # positions read since: release whoever waited for them
            known = len(positions)
            ready = [all(k in positions for k in pointers.get(e.source_id, ())) for e in held]
            yield from (with_positions(e) for e, done in zip(held, ready) if done)
            held = [e for e, done in zip(held, ready) if not done]
        if all(k in positions for k in pointers.get(parsed.source_id, ())):
            yield with_positions(parsed)
        else:
            held.append(parsed)
    yield from map(with_positions, held)


def _entry(
    record: JsonObject, summary: ParseSummary, location: str, *, positions: dict[str, str], pointers: dict[str, list[str]]
) -> ParsedEntry:
    source_id = clean_text(str(record.get("RECORD_ID") or ""))
    if not source_id:
        raise RecordError("no RECORD_ID")
    record_type = record.get("RECORD_TYPE")
    if not record_type:
        if name := _position_name(record, source_id):
            positions[source_id] = name
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
    if occupied := [key for group in attributes if group.get("REL_POINTER_ROLE") == "Occupancy"
                    and (key := _first_text(group.get("REL_POINTER_KEY")))]:
        pointers[source_id] = occupied
    return entry


def _position_name(record: JsonObject, source_id: str) -> str | None:
    """The name of a record that persons point at (it anchors itself under its own id), else None."""
    anchors = [g for g in _attribute_groups(record) if _first_text(g.get("REL_ANCHOR_KEY")) == source_id]
    return next((name for group in _attribute_groups(record) if (name := _name(group))), None) if anchors else None


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
