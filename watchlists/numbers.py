"""Reading the organisation numbers a person pastes or uploads, line by line.

Each non-blank line names one company, in any of the forms people copy around:

    923609016            923 609 016          NO923609016         NO 923 609 016
    923609016,NO         "923 609 016";NO     (CSV: org_nr[,org_nr_schema], a header line is optional)

The service checks the numbers (all or nothing); this module only splits the
text and remembers which line each entry came from, so the service's complaints
(`errors[].loc = ["body", <index>, field]`) can be shown next to the user's own lines.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass

from portal.service.watchlists import CompanyNumber

DEFAULT_SCHEMA = "NO"
MAX_LINES = 10_000  # the service's limit per request
MAX_UPLOAD_BYTES = 5_000_000  # MAX_LINES lines of up to 500 characters: a file is refused before it is read
_PREFIXED = re.compile(r"^\s*([A-Za-z]{2})[\s:-]*(\d.*)$")
_SEPARATORS = (",", ";", "\t")


@dataclass(frozen=True, slots=True)
class Line:
    number: int  # 1-based, in the text as the person sees it
    text: str
    company: CompanyNumber


class UnreadableUpload(ValueError):
    pass


def lines_read(text: str) -> list[Line]:
    lines: list[Line] = []
    first = True
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        if first and _is_header(raw):
            first = False
            continue
        first = False
        lines.append(Line(number, raw.strip(), _company_of(raw)))
    return lines


def upload_text(upload) -> str:
    """An uploaded CSV as text (UTF-8, with or without BOM, or Latin-1 as spreadsheets in Norway save it)."""
    if upload.size > MAX_UPLOAD_BYTES:
        raise UnreadableUpload(
            f"The file is too large: {upload.size:,} bytes, at most {MAX_UPLOAD_BYTES:,} "
            f"({MAX_LINES:,} companies at once). Split the list."
        )
    content = upload.read()
    if b"\x00" in content:
        raise UnreadableUpload("The file is not a text or CSV file.")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise UnreadableUpload("The file is not UTF-8 or Latin-1 text.")


def without(lines: list[Line], indexes: set[int]) -> list[Line]:
    return [line for index, line in enumerate(lines) if index not in indexes]


def _is_header(raw: str) -> bool:
    return not any(ch.isdigit() for ch in raw) and "org" in raw.lower()


def _company_of(raw: str) -> CompanyNumber:
    if any(separator in raw for separator in _SEPARATORS):
        delimiter = next(separator for separator in _SEPARATORS if separator in raw)
        cells = [cell.strip() for cell in next(csv.reader([raw], delimiter=delimiter))]
        number, schema = cells[0], (cells[1] if len(cells) > 1 else "")
        if schema:
            return CompanyNumber(_compact(number), schema.upper())
        raw = number
    match = _PREFIXED.match(raw)
    if match:
        return CompanyNumber(_compact(match.group(2)), match.group(1).upper())
    return CompanyNumber(_compact(raw), DEFAULT_SCHEMA)


def _compact(number: str) -> str:
    return "".join(number.split())
