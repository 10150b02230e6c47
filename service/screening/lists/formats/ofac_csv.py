"""OFAC SDN list in its legacy CSV files.

sdn.csv has one row per listed subject; alt.csv (aliases), add.csv
(addresses) and sdn_comments.csv (the tail of remarks too long for sdn.csv)
refer to it by ent_num. The files have no header and write "-0-" for empty.
The companions are small and read into memory first; sdn.csv is streamed.
"""

from __future__ import annotations

import csv
import os
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from .entry import (
    AIRPLANE,
    ALIAS,
    FORMER,
    ORGANIZATION,
    PERSON,
    PRIMARY,
    STRONG,
    VESSEL,
    WEAK,
    ParsedEntry,
    ParseError,
    ParseSummary,
    RecordError,
    clean_text,
)
from .ofac_remarks import apply_remarks
from .sources import Source, open_text, source_name

SDN_COLUMNS = (
    "ent_num", "SDN_Name", "SDN_Type", "Program", "Title", "Call_Sign",
    "Vess_type", "Tonnage", "GRT", "Vess_flag", "Vess_owner", "Remarks",
)  # fmt: skip
ALT_COLUMNS = ("ent_num", "alt_num", "alt_type", "alt_name", "alt_remarks")
ADD_COLUMNS = ("ent_num", "add_num", "address", "city_state_postal", "country", "add_remarks")
COMMENTS_COLUMNS = ("ent_num", "remarks_extended")
COMPANION_FILES = {"alt": "alt.csv", "add": "add.csv", "comments": "sdn_comments.csv"}
_COMPANION_CONTENTS = {"alt": "aliases", "add": "addresses", "comments": "the end of long remarks"}

DETAILS_URL = "https://sanctionssearch.ofac.treas.gov/Details.aspx?id={}"

_EMPTY = "-0-"
_END_OF_FILE_MARK = "\x1a"  # OFAC files may end with a DOS end-of-file byte
_SCHEMAS = {"individual": PERSON, "": ORGANIZATION, "vessel": VESSEL, "aircraft": AIRPLANE}
_ALIAS_TYPES = {
    "aka": (STRONG, ALIAS),
    "nka": (STRONG, ALIAS),
    "fka": (STRONG, FORMER),
    "weak aka": (WEAK, ALIAS),
}

Row = list[str]


def parse_ofac_csv(
    sdn: Source,
    summary: ParseSummary | None = None,
    *,
    alt: Source | None = None,
    add: Source | None = None,
    comments: Source | None = None,
) -> Iterator[ParsedEntry]:
    """Yield each subject of sdn.csv with its aliases, addresses and remarks.

    When `sdn` is a path, companions not given are taken from the same folder
    (alt.csv, add.csv, sdn_comments.csv) if they are there.
    """
    summary = summary if summary is not None else ParseSummary()
    companions = _companions(sdn, {"alt": alt, "add": add, "comments": comments})
    name = source_name(sdn)
    for key, companion in companions.items():
        # A list without its aliases still parses, but screens far worse: say so.
        if companion is None:
            summary.warn(name, f"no {COMPANION_FILES[key]} given or found beside it: {_COMPANION_CONTENTS[key]} left out")
    aliases = _by_entity(companions["alt"], ALT_COLUMNS, summary)
    addresses = _by_entity(companions["add"], ADD_COLUMNS, summary)
    extended_remarks = _by_entity(companions["comments"], COMMENTS_COLUMNS, summary)
    with open_text(sdn) as stream:
        for line, row in _rows(stream, name, len(SDN_COLUMNS)):
            location = f"{name} line {line}"
            entry = summary.collect(
                location,
                lambda: _entry(row, aliases, addresses, extended_remarks, summary, location),
            )
            if entry is not None:
                yield entry
    for key, left_over in (("alt", aliases), ("add", addresses), ("comments", extended_remarks)):
        if left_over:
            companion = source_name(companions[key])  # type: ignore[arg-type]
            summary.warn(companion, f"{len(left_over)} ent_num not in {name}: files from different dates?")


def natural_name(listed: str) -> str:
    """OFAC lists individuals as "LAST, First Middle" (sometimes ", Jr."):
    give the order people write and say, "First Middle LAST Jr."."""
    parts = [part.strip() for part in listed.split(",")]
    if len(parts) in (2, 3) and all(parts):
        return " ".join([parts[1], parts[0], *parts[2:]])
    return listed


def _entry(
    row: Row,
    aliases: dict[str, list[Row]],
    addresses: dict[str, list[Row]],
    extended_remarks: dict[str, list[Row]],
    summary: ParseSummary,
    location: str,
) -> ParsedEntry:
    if len(row) != len(SDN_COLUMNS):
        raise RecordError(f"expected {len(SDN_COLUMNS)} columns, found {len(row)}")
    ent_num, listed_name, sdn_type, program = (_value(cell) for cell in row[:4])
    if not ent_num.isdigit():
        raise RecordError(f"ent_num {ent_num!r} is not a number")
    schema = _SCHEMAS.get(sdn_type.lower())
    if schema is None:
        raise RecordError(f"unknown SDN_Type {sdn_type!r}", ent_num)
    if not listed_name:
        raise RecordError("no SDN_Name", ent_num)
    order_name = natural_name if schema == PERSON else str  # str: names of the others stay as listed
    entry = ParsedEntry(source_id=ent_num, schema=schema, source_url=DETAILS_URL.format(ent_num))
    entry.add_name(order_name(listed_name), STRONG, PRIMARY)
    for alias in aliases.pop(ent_num, []):
        quality, kind = _ALIAS_TYPES.get(_value(alias[2]).lower(), (STRONG, ALIAS))
        entry.add_name(order_name(_value(alias[3])), quality, kind)
    for programme in program.split("] ["):
        entry.add_programme(programme.strip("[] "))
    # sdn_comments.csv continues the text where it was cut, even inside a word.
    remarks = "".join(_raw(cell) for cell in [row[11], *(extra[1] for extra in extended_remarks.pop(ent_num, []))])
    entry.remarks = clean_text(remarks) or None
    apply_remarks(entry, remarks, summary.warner(location, ent_num), order_name)
    for address in addresses.pop(ent_num, []):
        entry.add_address([_value(cell) for cell in address[2:5]])
    return entry


def _companions(sdn: Source, given: dict[str, Source | None]) -> dict[str, Source | None]:
    if not isinstance(sdn, (str, os.PathLike)):
        return given
    folder = Path(sdn).parent
    found = dict(given)
    for key, file_name in COMPANION_FILES.items():
        if found[key] is None and (folder / file_name).is_file():
            found[key] = folder / file_name
    return found


def _by_entity(source: Source | None, columns: tuple[str, ...], summary: ParseSummary) -> dict[str, list[Row]]:
    rows: dict[str, list[Row]] = defaultdict(list)
    if source is None:
        return rows
    name = source_name(source)
    with open_text(source) as stream:
        for line, row in _rows(stream, name, len(columns)):
            if len(row) == len(columns):
                rows[_value(row[0])].append(row)
            else:
                summary.warn(f"{name} line {line}", f"expected {len(columns)} columns, found {len(row)}: row ignored")
    return rows


def _rows(stream: object, name: str, width: int) -> Iterator[tuple[int, Row]]:
    """Rows with their line numbers. A first row of the wrong width means the
    wrong file; a last row of the wrong width or an open quote, a cut file."""
    reader = csv.reader(stream, strict=True)  # type: ignore[arg-type]
    previous: tuple[int, Row] | None = None
    try:
        for row in reader:
            if not row or row == [_END_OF_FILE_MARK]:
                continue
            if previous is None and len(row) != width:
                raise ParseError(
                    f"{name} line {reader.line_num}",
                    f"expected {width} columns, found {len(row)}: not an OFAC {name} file",
                )
            if previous is not None:
                yield previous
            previous = (reader.line_num, row)
    except csv.Error as error:
        raise ParseError(f"{name} line {reader.line_num}", f"malformed CSV ({error}): file cut short?") from error
    if previous is None:
        raise ParseError(name, "no rows")
    if len(previous[1]) != width:
        raise ParseError(
            f"{name} line {previous[0]}",
            f"last row has {len(previous[1])} columns, expected {width}: file cut short?",
        )
    yield previous


def _value(cell: str) -> str:
    return _raw(cell).strip()


def _raw(cell: str) -> str:
    return "" if cell.strip() == _EMPTY else cell
