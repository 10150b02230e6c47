"""OpenSanctions / FollowTheMoney entities, one JSON object per line
(the `entities.ftm.json` export of a dataset or collection)."""

from __future__ import annotations

from collections.abc import Iterator

from .countries import read_country
from .dates import parse_iso
from .entry import (
    AIRPLANE,
    ALIAS,
    BIC,
    FORMER,
    IMO,
    LEGAL_ENTITY,
    MMSI,
    NATIONAL_ID,
    ORGANIZATION,
    PASSPORT,
    PERSON,
    PRIMARY,
    REGISTRATION,
    STRONG,
    TAX_ID,
    VESSEL,
    WEAK,
    OutOfScope,
    ParsedEntry,
    ParseSummary,
    RecordError,
    clean_text,
)
from .jsonlines import JsonObject, parse_json_lines, strings
from .names import kind_for_script
from .sources import Source

# Schemata a name can be screened against; the rest (Sanction, Address,
# Ownership, Position...) describe those subjects and are skipped.
_SCHEMAS = {
    "Person": PERSON,
    "Organization": ORGANIZATION,
    "Company": ORGANIZATION,
    "PublicBody": ORGANIZATION,
    "LegalEntity": LEGAL_ENTITY,
    "Vessel": VESSEL,
    "Airplane": AIRPLANE,
}
_ALIAS_PROPERTIES = {"alias": (STRONG, ALIAS), "weakAlias": (WEAK, ALIAS), "previousName": (STRONG, FORMER)}
_IDENTIFIER_PROPERTIES = {
    "passportNumber": PASSPORT,
    "idNumber": NATIONAL_ID,
    "taxNumber": TAX_ID,
    "vatCode": TAX_ID,
    "innCode": TAX_ID,
    "registrationNumber": REGISTRATION,
    "ogrnCode": REGISTRATION,
    "leiCode": REGISTRATION,
    "imoNumber": IMO,
    "mmsi": MMSI,
    "swiftBic": BIC,
}
_GENDERS = {"male", "female"}


def parse_ftm_json(source: Source, summary: ParseSummary | None = None) -> Iterator[ParsedEntry]:
    """Yield the screenable entities (targets of a matchable schema)."""
    return parse_json_lines(source, summary if summary is not None else ParseSummary(), _entry)


def _entry(record: JsonObject, summary: ParseSummary, location: str) -> ParsedEntry:
    source_id = record.get("id")
    if not isinstance(source_id, str) or not source_id:
        raise RecordError("no id")
    schema_name = record.get("schema")
    schema = _SCHEMAS.get(schema_name)  # type: ignore[arg-type]
    if schema is None:
        raise OutOfScope(f"schema {schema_name}")
    # Relatives and associates come along in exports but are not listed themselves.
    if record.get("target") is False:
        raise OutOfScope("not a target")
    properties = record.get("properties")
    if not isinstance(properties, dict):
        raise RecordError("no properties object", source_id)
    warn = summary.warner(location, source_id)
    entry = ParsedEntry(source_id=source_id, schema=schema)
    for index, name in enumerate(strings(properties.get("name"))):
        entry.add_name(name, STRONG, PRIMARY if index == 0 else kind_for_script(name, ALIAS))
    for prop, (quality, kind) in _ALIAS_PROPERTIES.items():
        for name in strings(properties.get(prop)):
            entry.add_name(name, quality, kind_for_script(name, kind))
    if not entry.names:
        raise RecordError("no name", source_id)
    for value in strings(properties.get("birthDate")):
        if date := parse_iso(value):
            entry.add_birth_dates([date])
        else:
            warn(f"birth date not understood: {value!r}")
    for value in strings(properties.get("nationality")) + strings(properties.get("citizenship")):
        if code := read_country(value, warn):
            entry.add_nationality(code)
    entry.gender = next((g for g in strings(properties.get("gender")) if g in _GENDERS), None)
    for prop, kind in _IDENTIFIER_PROPERTIES.items():
        for value in strings(properties.get(prop)):
            entry.add_identifier(kind, value)
    for programme in strings(properties.get("programId")) + strings(properties.get("program")):
        entry.add_programme(programme)
    for position in strings(properties.get("position")):
        entry.add_position(position)
    entry.listed_date = min(filter(None, map(parse_iso, strings(properties.get("createdAt")))), default=None)
    entry.source_url = next(iter(strings(properties.get("sourceUrl"))), None)
    entry.remarks = clean_text(" ".join(strings(properties.get("notes")))) or None
    for address in strings(properties.get("address")):
        entry.add_address([address])
    return entry
