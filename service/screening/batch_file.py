"""The screening file: a CSV of persons and companies, read and checked in one place.

Used by `manage.py screen_persons` and by the batch upload endpoint, so a row means the
same to both. The header names the columns; order does not matter, other columns are kept
out of the way (except `id`, echoed in the result):

    type        person (the default when the column is absent or blank) or company
    name        required (`full_name` is read as well)
    id          optional, your own reference, repeated in the result
    birth_date  persons: YYYY, YYYY-MM or YYYY-MM-DD (or as Norwegians write it, DD.MM.YYYY or
                MM.YYYY), not in the future
    nationality persons: countries, separated by ; or , (names or codes)
    gender      persons: male, female (m, f), unknown or blank
    country     companies: the country (name or code)

Every problem is collected with its line (the header is line 1) and column, so a caller
sees all of them at once; the upload refuses a file with any, the command skips those rows.
A file written with `;` between columns (a spreadsheet's CSV in many locales) is read too.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from django.utils import timezone

from service.screening.lists.formats.countries import country_code
from service.screening.matching.types import PersonQuery
from service.screening.upload_csv import FileProblem, cell, csv_lines
from vakt_format.norwegian import partial_day_iso

PERSON, COMPANY = "person", "company"
ENTITY_TYPES = (PERSON, COMPANY)
NAME_COLUMNS = ("name", "full_name")
PERSON_ONLY = ("birth_date", "nationality", "gender")
COMPANY_ONLY = ("country",)
PARTIAL_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")
GENDERS = {"male": "male", "m": "male", "female": "female", "f": "female", "unknown": None, "": None}
MAX_NAME_LENGTH = 500


@dataclass(frozen=True)
class ScreeningRow:
    line: int
    entity_type: str  # person | company
    name: str
    id: str = ""
    birth_date: str | None = None
    nationalities: tuple[str, ...] = ()
    gender: str | None = None
    country: str | None = None

    def query(self) -> PersonQuery:
        """What the engine is asked. A company's country is its nationality on the lists."""
        if self.entity_type == COMPANY:
            return PersonQuery(name=self.name, nationalities=[self.country] if self.country else [], schema="Organization")
        return PersonQuery(name=self.name, birth_date=self.birth_date, nationalities=list(self.nationalities), gender=self.gender)

    def as_dict(self) -> dict:
        return {
            "line": self.line,
            "type": self.entity_type,
            "id": self.id,
            "name": self.name,
            "birth_date": self.birth_date or "",
            "nationality": ";".join(c.upper() for c in self.nationalities),
            "country": (self.country or "").upper(),
        }


@dataclass
class ScreeningFile:
    rows: list[ScreeningRow] = field(default_factory=list)
    problems: list[FileProblem] = field(default_factory=list)
    lines_read: int = 0  # data lines, good and bad



def birth_date_problem(value: str, today: dt.date) -> str | None:
    """Why a partial ISO birth date is not acceptable, or None."""
    match = PARTIAL_DATE.match(value)
    if not match:
        return f"{value!r} is not YYYY, YYYY-MM or YYYY-MM-DD (nor DD.MM.YYYY or MM.YYYY)"
    year, month, day = (int(part) if part else None for part in match.groups())
    try:
        earliest = dt.date(year, month or 1, day or 1)
    except ValueError:
        return f"{value!r} is not a date"
    if earliest > today:
        return f"{value} is in the future"
    return None


def name_cell(raw: dict, problem, *, longest: int) -> str:
    """A person's or company's name (`name` or `full_name`), with single spaces; a missing or too long
    one told to `problem(column, msg)`."""
    name_column = next((c for c in NAME_COLUMNS if cell(raw, c)), NAME_COLUMNS[0])
    name = " ".join(cell(raw, name_column).split())
    if not name:
        problem("name", "a name is required")
    elif len(name) > longest:
        problem(name_column, f"longer than {longest} characters")
    return name


def nationalities_cell(raw: dict, problem) -> tuple[str, ...]:
    """A person's nationalities (names or codes, `;` or `,` between them) as lower-case codes, each once."""
    codes = []
    for part in re.split(r"[;,]", cell(raw, "nationality")):
        if part.strip():
            code = country_code(part)
            if code is None:
                problem("nationality", f"{part.strip()!r} is not a known country")
            else:
                codes.append(code)
    return tuple(dict.fromkeys(codes))


def gender_cell(raw: dict, problem) -> str | None:
    """A person's gender key (male, female), None when unknown or blank."""
    gender = cell(raw, "gender").lower()
    if gender not in GENDERS:
        problem("gender", f"unknown gender {cell(raw, 'gender')!r}; use male, female or unknown")
    return GENDERS.get(gender)


def _row(line: int, raw: dict, today: dt.date, problems: list[FileProblem]) -> ScreeningRow | None:
    found: list[FileProblem] = []

    def problem(column: str | None, msg: str) -> None:
        found.append(FileProblem(line, column, msg))

    if None in raw:  # csv.DictReader puts cells beyond the header under None
        problem(None, "has more cells than the header has columns")
    entity_type = cell(raw, "type").lower() or PERSON
    if entity_type not in ENTITY_TYPES:
        problem("type", f"unknown type {cell(raw, 'type')!r}; use person or company")
    name = name_cell(raw, problem, longest=MAX_NAME_LENGTH)
    fields: dict = {}
    if entity_type == COMPANY:
        for column in PERSON_ONLY:
            if cell(raw, column):
                problem(column, f"a company has no {column}; leave it blank (country is the company's)")
        country = cell(raw, "country")
        if country:
            fields["country"] = country_code(country)
            if fields["country"] is None:
                problem("country", f"{country!r} is not a known country")
    elif entity_type == PERSON:
        if cell(raw, "country"):
            problem("country", "a person has no country; use nationality")
        birth_date = partial_day_iso(cell(raw, "birth_date"))  # a spreadsheet's 15.10.1971 too
        if birth_date:
            why = birth_date_problem(birth_date, today)
            if why:
                problem("birth_date", why)
            fields["birth_date"] = birth_date
        fields["nationalities"] = nationalities_cell(raw, problem)
        fields["gender"] = gender_cell(raw, problem)
    if found:
        problems.extend(found)
        return None
    return ScreeningRow(line=line, entity_type=entity_type, name=name, id=cell(raw, "id"), **fields)


def screening_file_read(content: bytes | str, *, max_rows: int | None = None, today: dt.date | None = None) -> ScreeningFile:
    """Every row of the file, and every problem with its line and column.

    Raises ScreeningFileError when the file as a whole is unreadable and TooManyRows past
    `max_rows` (before reading further)."""
    today = today or timezone.localdate()
    result = ScreeningFile()
    lines = csv_lines(
        content, name_columns=NAME_COLUMNS, max_rows=max_rows,
        header_hint="the header needs a 'name' column (and may have type, id, birth_date, nationality, gender, country)",
    )
    for line, raw in lines:
        result.lines_read += 1
        row = _row(line, raw, today, result.problems)
        if row is not None:
            result.rows.append(row)
    return result
