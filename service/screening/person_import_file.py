"""The customer-person file: a CSV of a bank's private customers to screen continuously, read
and checked in one place (person_import.py imports it).

Read as every upload is (upload_csv.py: UTF-8, `,` or `;`, a header in any order). Columns:

    name / full_name      required
    birth_date            a whole date, YYYY-MM-DD or DD.MM.YYYY, not in the future
    gender                male, female (m, f), unknown or blank
    nationality           countries, separated by ; or , (names or codes)
    national_id           a national id, checked as when added one by one;
    national_id_country   its country, NO, SE or DK (needed with a number)
    street_address, postal_code, postal_place, address_country
                          where the person lives (recorded as their residence)
    id                    the organisation's own number for the customer: their customer reference

A customer person's birth date is a whole day, so a year or month alone is refused (a list's
partial dates are for the one-off screening file). A number whose birth date is not the row's is
refused, and a row without a birth date takes its number's. Two rows of one person (the same
national id, or the same name and birth date without numbers that tell them apart) are refused:
a customer is screened once; so is a reference given twice.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from django.utils import timezone

from service.screening.batch_file import NAME_COLUMNS, gender_cell, name_cell, nationalities_cell
from service.screening.lists.formats.countries import country_code
from service.screening.person_national_ids import SCHEMAS, NationalIdProblem, birth_date_disagrees, national_id_checked
from service.screening.person_services import NATIONALITIES_MAX
from service.screening.upload_csv import FileProblem, cell, csv_lines
from vakt_format.national_ids import national_id_birth_date
from vakt_format.norwegian import partial_day_iso
from vakt_format.persons import customer_person_key
from vakt_limits.customer_persons import CUSTOMER_REFERENCE_MAX

MAX_NAME_LENGTH = 300  # CustomerPerson.full_name
ADDRESS_COLUMNS = {"street_address": 300, "postal_code": 20, "postal_place": 100}
WHOLE_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
HEADER_HINT = (
    "the header needs a 'name' column (and may have birth_date, gender, nationality, national_id, "
    "national_id_country, street_address, postal_code, postal_place, address_country, id)"
)


@dataclass(frozen=True, slots=True)
class PersonRow:
    line: int
    full_name: str
    reference: str = ""
    birth_date: dt.date | None = None
    gender: str | None = None  # a Gender key
    nationalities: tuple[str, ...] = ()  # two upper-case letters each
    national_id: tuple[str, str] | None = None  # (schema, compact number)
    address: dict[str, str] = field(default_factory=dict)  # street_address, postal_code, postal_place, country_code_two

    def key(self) -> tuple[str, dt.date | None]:
        return customer_person_key(self.full_name, self.birth_date)


@dataclass
class PersonFile:
    rows: list[PersonRow] = field(default_factory=list)
    problems: list[FileProblem] = field(default_factory=list)
    national_ids_given: bool = False  # a row has a national id or its country, good or bad


def _birth_date(text: str, today: dt.date) -> tuple[dt.date | None, str | None]:
    """The row's birth date and what is wrong with it (None: nothing)."""
    value = partial_day_iso(text)  # a spreadsheet's 15.10.1971 too
    if not WHOLE_DATE.match(value):
        return None, f"{text!r} is not a whole date: give YYYY-MM-DD or DD.MM.YYYY"
    try:
        born = dt.date.fromisoformat(value)
    except ValueError:
        return None, f"{text!r} is not a date"
    if born > today:
        return None, f"{text} is in the future"
    return born, None


def _row(line: int, raw: dict, today: dt.date) -> tuple[PersonRow | None, list[FileProblem]]:
    found: list[FileProblem] = []

    def problem(column: str | None, msg: str) -> None:
        found.append(FileProblem(line, column, msg))

    if None in raw:  # csv.DictReader puts cells beyond the header under None
        problem(None, "has more cells than the header has columns")
    name = name_cell(raw, problem, longest=MAX_NAME_LENGTH)
    birth_date = None
    if text := cell(raw, "birth_date"):
        birth_date, why = _birth_date(text, today)
        if why:
            problem("birth_date", why)
    gender = gender_cell(raw, problem)
    nationalities = [code.upper() for code in nationalities_cell(raw, problem)]
    if len(nationalities) > NATIONALITIES_MAX:
        problem("nationality", f"at most {NATIONALITIES_MAX} countries")
    national_id = _national_id(raw, birth_date, problem)
    if national_id and birth_date is None and not any(p.column == "birth_date" for p in found):
        birth_date = national_id_birth_date(schema=national_id[0], number=national_id[1])
    address = _address(raw, problem)
    if len(cell(raw, "id")) > CUSTOMER_REFERENCE_MAX:
        problem("id", f"longer than {CUSTOMER_REFERENCE_MAX} characters")
    if found:
        return None, found
    row = PersonRow(
        line=line, full_name=name, reference=cell(raw, "id"), birth_date=birth_date, gender=gender,
        nationalities=tuple(nationalities), national_id=national_id, address=address,
    )
    return row, []


def _national_id(raw: dict, birth_date: dt.date | None, problem) -> tuple[str, str] | None:
    number, schema = cell(raw, "national_id"), cell(raw, "national_id_country").upper()
    if not number:
        if schema:
            problem("national_id", "give the number with its country, or leave both blank")
        return None
    if schema not in SCHEMAS:
        problem("national_id_country", "give NO, SE or DK: the country of the national id" if not schema
                else f"{schema!r} is not NO, SE or DK")
        return None
    try:
        compact = national_id_checked(schema=schema, number=number)
    except NationalIdProblem as exc:
        problem("national_id", exc.text)
        return None
    if why := birth_date_disagrees(schema=schema, compact=compact, birth_date=birth_date):
        problem("national_id", why)
        return None
    return schema, compact


def _address(raw: dict, problem) -> dict[str, str]:
    address = {}
    for column, longest in ADDRESS_COLUMNS.items():
        if value := " ".join(cell(raw, column).split()):
            if len(value) > longest:
                problem(column, f"longer than {longest} characters")
            address[column] = value
    if text := cell(raw, "address_country"):
        code = country_code(text)
        if code is None:
            problem("address_country", f"{text!r} is not a known country")
        else:
            address["country_code_two"] = code.upper()
    return address


def _repeats(rows: list[PersonRow]) -> list[FileProblem]:
    """A row of a person an earlier row already names: the same customer reference, the same national
    id, or the same name and birth date where the two rows' numbers or references do not tell them
    apart."""
    problems = []
    by_reference: dict[str, int] = {}
    by_number: dict[tuple[str, str], int] = {}
    by_key: dict[tuple, list[PersonRow]] = {}
    for row in rows:
        if row.reference and (first := by_reference.get(row.reference)):
            problems.append(FileProblem(row.line, "id", f"the same customer reference as line {first}"))
            continue
        if row.reference:
            by_reference[row.reference] = row.line
        if row.national_id and (first := by_number.get(row.national_id)):
            problems.append(FileProblem(row.line, "national_id", f"the same national id as line {first}"))
            continue
        twin = next((earlier for earlier in by_key.get(row.key(), ()) if not _told_apart(earlier, row)), None)
        if twin is not None:
            problems.append(FileProblem(
                row.line, "name", f"the same name and birth date as line {twin.line}; if they are two people, "
                "give each their national id"))
            continue
        if row.national_id:
            by_number[row.national_id] = row.line
        by_key.setdefault(row.key(), []).append(row)
    return problems


def _told_apart(one: PersonRow, other: PersonRow) -> bool:
    """Two rows of one name and birth date are two people when each has a customer reference, or a
    national id of the same country (they differ: a repeated one is refused before); numbers of two
    countries may be one person's."""
    if one.reference and other.reference:
        return True  # two references (a repeated one is refused before): two customers
    return one.national_id is not None and other.national_id is not None and one.national_id[0] == other.national_id[0]


def person_file_read(content: bytes | str, *, max_rows: int | None = None, today: dt.date | None = None) -> PersonFile:
    """Every row of the file and every problem with its line and column (upload_csv.csv_lines
    raises for a file that cannot be read at all, or has more than `max_rows`)."""
    today = today or timezone.localdate()
    result = PersonFile()
    for line, raw in csv_lines(content, name_columns=NAME_COLUMNS, header_hint=HEADER_HINT, max_rows=max_rows):
        row, problems = _row(line, raw, today)
        result.national_ids_given |= bool(cell(raw, "national_id") or cell(raw, "national_id_country"))
        result.problems.extend(problems)
        if row is not None:
            result.rows.append(row)
    result.problems.extend(_repeats(result.rows))
    result.problems.sort(key=lambda p: p.line)
    return result
