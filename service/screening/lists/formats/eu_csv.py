"""EU consolidated financial sanctions list, CSV file (FSF "csvFullSanctionsList_1_1").

Semicolon-separated, one header row, many rows per subject: each row repeats
the Entity_* columns and carries one name alias, address, birth date,
identification or citizenship. Rows of one subject are consecutive and are
grouped by Entity_LogicalId while streaming.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator

from .countries import country_code, read_country
from .dates import parse_day_first, partial_date, year_span
from .entry import (
    ALIAS,
    BIC,
    IMO,
    NATIONAL_ID,
    ORGANIZATION,
    OTHER_ID,
    PASSPORT,
    PERSON,
    PRIMARY,
    REGISTRATION,
    STRONG,
    TAX_ID,
    ParsedEntry,
    ParseError,
    ParseSummary,
    RecordError,
    Warn,
    clean_text,
)
from .names import kind_for_script
from .sources import Source, open_text, source_name

REQUIRED_COLUMNS = ("Entity_LogicalId", "Entity_SubjectType", "NameAlias_WholeName")

_SCHEMAS = {"person": PERSON, "p": PERSON, "enterprise": ORGANIZATION, "e": ORGANIZATION}
_GENDERS = {"m": "male", "f": "female"}
_IDENTIFICATION_KINDS = {
    "passport": PASSPORT,
    "id": NATIONAL_ID,
    "ssn": NATIONAL_ID,
    "birthcert": NATIONAL_ID,
    "tax": TAX_ID,
    "fiscalcode": TAX_ID,
    "regnumber": REGISTRATION,
    "imo": IMO,
    "swiftbic": BIC,
}
_ADDRESS_PARTS = (
    "Address_Street", "Address_PoBox", "Address_ZipCode", "Address_City",
    "Address_Region", "Address_Place", "Address_CountryDescription",
)  # fmt: skip

Row = dict[str, str]


def parse_eu_csv(source: Source, summary: ParseSummary | None = None) -> Iterator[ParsedEntry]:
    """Yield one entry per Entity_LogicalId of an EU consolidated list CSV."""
    summary = summary if summary is not None else ParseSummary()
    name = source_name(source)
    seen_ids: set[str] = set()
    with open_text(source, encoding="utf-8-sig") as stream:
        for line, rows in _groups(stream, name):
            location = f"{name} line {line}"
            entry = summary.collect(location, lambda: _entry(rows, seen_ids, summary, location))
            if entry is not None:
                yield entry


def _groups(stream: object, name: str) -> Iterator[tuple[int, list[Row]]]:
    """Consecutive rows of one Entity_LogicalId, with the line of the first.

    A row whose width differs from the header stops the import: a subject's
    rows span several lines, and a half-read subject (an alias missing) would
    look complete."""
    reader = csv.reader(stream, delimiter=";", strict=True)  # type: ignore[arg-type]
    try:
        header = [column.strip() for column in next(reader, [])]
        missing = [column for column in REQUIRED_COLUMNS if column not in header]
        if missing:
            raise ParseError(f"{name} line 1", f"not an EU sanctions list CSV: no column {', '.join(missing)}")
        group: list[Row] = []
        first_line = 0
        for values in reader:
            if not values:
                continue
            if len(values) != len(header):
                raise ParseError(
                    f"{name} line {reader.line_num}",
                    f"{len(values)} fields where the header has {len(header)}: file cut short or corrupted",
                )
            row = dict(zip(header, values))
            if group and row["Entity_LogicalId"] != group[0]["Entity_LogicalId"]:
                yield first_line, group
                group = []
            if not group:
                first_line = reader.line_num
            group.append(row)
    except csv.Error as error:
        raise ParseError(f"{name} line {reader.line_num}", f"malformed CSV ({error}): file cut short?") from error
    if group:
        yield first_line, group


def _entry(rows: list[Row], seen_ids: set[str], summary: ParseSummary, location: str) -> ParsedEntry:
    first = rows[0]
    source_id = clean_text(first["Entity_LogicalId"])
    if not source_id:
        raise RecordError("no Entity_LogicalId")
    if source_id in seen_ids:
        raise RecordError("rows of this Entity_LogicalId are not consecutive", source_id)
    seen_ids.add(source_id)
    subject_type = first["Entity_SubjectType"] or first.get("Entity_SubjectType_ClassificationCode", "")
    schema = _SCHEMAS.get(subject_type.strip().lower())
    if schema is None:
        raise RecordError(f"unknown Entity_SubjectType {subject_type!r}", source_id)
    warn = summary.warner(location, source_id)
    entry = ParsedEntry(source_id=source_id, schema=schema, remarks=clean_text(first.get("Entity_Remark")) or None)
    publication_dates: list[str] = []
    for row in rows:
        _add_name(entry, row)
        entry.gender = entry.gender or _GENDERS.get(row.get("NameAlias_Gender", "").strip().lower())
        entry.add_birth_dates(_birth_dates(row, warn))
        _add_citizenship(entry, row, warn)
        _add_identification(entry, row)
        entry.add_address([row.get(part) for part in _ADDRESS_PARTS])
        entry.add_programme(row.get("Entity_Regulation_Programme"))
        entry.source_url = entry.source_url or clean_text(row.get("Entity_Regulation_PublicationUrl")) or None
        if published := parse_day_first(row.get("Entity_Regulation_PublicationDate")):
            publication_dates.append(published)
    if not entry.names:
        raise RecordError("no name", source_id)
    # The designation date is often blank; the first regulation is then the listing.
    entry.listed_date = parse_day_first(first.get("Entity_DesignationDate")) or min(publication_dates, default=None)
    return entry


def _add_name(entry: ParsedEntry, row: Row) -> None:
    """The EU marks no primary name: the first one given is taken as primary."""
    parts = (row.get(f"NameAlias_{part}") for part in ("FirstName", "MiddleName", "LastName"))
    name = clean_text(row["NameAlias_WholeName"]) or " ".join(filter(None, map(clean_text, parts)))
    if name:
        entry.add_name(name, STRONG, PRIMARY if not entry.names else kind_for_script(name, ALIAS))


def _birth_dates(row: Row, warn: Warn) -> list[str]:
    """A full date, else day/month/year parts, else a year range. Circa keeps
    the stated date."""
    if full := row.get("BirthDate_BirthDate", "").strip():
        if date := parse_day_first(full):
            return [date]
        warn(f"birth date not understood: {full!r}")
    year = row.get("BirthDate_Year", "").strip()
    if year:
        date = partial_date(year, row.get("BirthDate_Month", "").strip(), row.get("BirthDate_Day", "").strip())
        return [date] if date else []
    year_from, year_to = (row.get(f"BirthDate_YearRange{end}", "").strip() for end in ("From", "To"))
    if year_from.isdigit() and year_to.isdigit():
        return year_span(int(year_from), int(year_to))
    return []


def _add_citizenship(entry: ParsedEntry, row: Row, warn: Warn) -> None:
    code = country_code(row.get("Citizenship_CountryIso2Code"))
    if code is None and (description := row.get("Citizenship_CountryDescription")):
        code = read_country(description, warn)
    if code:
        entry.add_nationality(code)


def _add_identification(entry: ParsedEntry, row: Row) -> None:
    kind = _IDENTIFICATION_KINDS.get(row.get("Identification_TypeCode", "").strip().lower(), OTHER_ID)
    country = country_code(row.get("Identification_CountryIso2Code"))
    entry.add_identifier(kind, row.get("Identification_Number"), country)
