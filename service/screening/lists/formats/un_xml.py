"""UN Security Council consolidated list (XML), read element by element."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from xml.etree.ElementTree import Element

from .countries import read_country
from .dates import parse_iso, parse_words, year_span
from .entry import (
    ALIAS,
    FORMER,
    NATIONAL_ID,
    ORGANIZATION,
    ORIGINAL_SCRIPT,
    OTHER_ID,
    PASSPORT,
    PERSON,
    PRIMARY,
    STRONG,
    WEAK,
    ParsedEntry,
    ParseError,
    ParseSummary,
    RecordError,
    Warn,
    clean_text,
)
from .sources import Source, open_raw, source_name

ROOT_TAG = "CONSOLIDATED_LIST"
_SCHEMAS = {"INDIVIDUAL": PERSON, "ENTITY": ORGANIZATION}
_NAME_PARTS = ("FIRST_NAME", "SECOND_NAME", "THIRD_NAME", "FOURTH_NAME")

# Individuals' aliases say Good/Low; entities' say a.k.a./f.k.a. instead.
_ALIAS_QUALITIES = {
    "good": (STRONG, ALIAS),
    "low": (WEAK, ALIAS),
    "a.k.a.": (STRONG, ALIAS),
    "f.k.a.": (STRONG, FORMER),
}
_DOCUMENT_KINDS = {
    "passport": PASSPORT,
    "numéro de passeport": PASSPORT,
    "número de pasaporte": PASSPORT,
    "national identification number": NATIONAL_ID,
}
_GENDERS = {"male": "male", "female": "female"}


def parse_un_xml(source: Source, summary: ParseSummary | None = None) -> Iterator[ParsedEntry]:
    """Yield each INDIVIDUAL and ENTITY of a UN consolidated list file."""
    summary = summary if summary is not None else ParseSummary()
    name = source_name(source)
    counters = dict.fromkeys(_SCHEMAS, 0)
    open_elements: list[Element] = []
    with open_raw(source) as stream:
        try:
            for event, element in ET.iterparse(stream, events=("start", "end")):
                if event == "start":
                    if not open_elements and element.tag != ROOT_TAG:
                        raise ParseError(name, f"root element is <{element.tag}>, expected <{ROOT_TAG}>")
                    open_elements.append(element)
                    continue
                open_elements.pop()
                if element.tag not in _SCHEMAS:
                    continue
                counters[element.tag] += 1
                location = f"{element.tag} #{counters[element.tag]}"
                entry = summary.collect(location, lambda: _entry(element, summary, location))
                # Drop what was read so memory stays flat on large lists.
                open_elements[-1].remove(element)
                if entry is not None:
                    yield entry
        except ET.ParseError as error:
            line, column = error.position
            raise ParseError(f"{name} line {line} column {column}", f"not well-formed XML ({error.msg})") from error
    # An empty list is far likelier a broken export than the end of all sanctions.
    if not any(counters.values()):
        raise ParseError(name, "no INDIVIDUAL or ENTITY element found")


def _entry(element: Element, summary: ParseSummary, location: str) -> ParsedEntry:
    source_id = _text(element, "REFERENCE_NUMBER")
    if not source_id:
        raise RecordError("no REFERENCE_NUMBER", _text(element, "DATAID") or None)
    entry = ParsedEntry(source_id=source_id, schema=_SCHEMAS[element.tag])
    warn = summary.warner(location, source_id)
    entry.add_name(" ".join(filter(None, (_text(element, part) for part in _NAME_PARTS))), STRONG, PRIMARY)
    entry.add_name(_text(element, "NAME_ORIGINAL_SCRIPT"), STRONG, ORIGINAL_SCRIPT)
    for alias in element.iter(f"{element.tag}_ALIAS"):
        quality, kind = _ALIAS_QUALITIES.get(_text(alias, "QUALITY").lower(), (STRONG, ALIAS))
        entry.add_name(_text(alias, "ALIAS_NAME"), quality, kind)
    if not entry.names:
        raise RecordError("no name", source_id)
    for birth in element.iter("INDIVIDUAL_DATE_OF_BIRTH"):
        entry.add_birth_dates(_birth_dates(birth, warn))
    for value in element.iterfind("NATIONALITY/VALUE"):
        if code := read_country(value.text, warn):
            entry.add_nationality(code)
    entry.gender = _GENDERS.get(_text(element, "GENDER").lower())
    for document in element.iter("INDIVIDUAL_DOCUMENT"):
        kind = _DOCUMENT_KINDS.get(_text(document, "TYPE_OF_DOCUMENT").lower(), OTHER_ID)
        country = _text(document, "ISSUING_COUNTRY") or _text(document, "COUNTRY_OF_ISSUE")
        entry.add_identifier(kind, _text(document, "NUMBER"), read_country(country, warn))
    entry.add_programme(_text(element, "UN_LIST_TYPE"))
    entry.listed_date = parse_iso(_text(element, "LISTED_ON"))
    entry.remarks = _text(element, "COMMENTS1") or None
    for address in element.iter(f"{element.tag}_ADDRESS"):
        parts = ("STREET", "CITY", "STATE_PROVINCE", "ZIP_CODE", "COUNTRY")
        entry.add_address([_text(address, part) for part in parts])
    return entry


def _birth_dates(birth: Element, warn: Warn) -> list[str]:
    """EXACT, APPROXIMATELY and BETWEEN dates; APPROXIMATELY keeps the stated
    date. A NOTE such as "Nov. 1973" is read when it is the only date given."""
    if (from_year := _text(birth, "FROM_YEAR")) and (to_year := _text(birth, "TO_YEAR")):
        if from_year.isdigit() and to_year.isdigit():
            return year_span(int(from_year), int(to_year))
    for tag, read in (("DATE", parse_iso), ("YEAR", parse_iso), ("NOTE", parse_words)):
        if value := read(_text(birth, tag)):
            return [value]
    if unread := " ".join(_text(birth, tag) for tag in ("DATE", "YEAR", "NOTE")).strip():
        warn(f"birth date not understood: {unread!r}")
    return []


def _text(element: Element, path: str) -> str:
    return clean_text(element.findtext(path))
