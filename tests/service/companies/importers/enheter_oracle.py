"""The reference implementation of the Enhetsregisteret row rules: one row at a time, in plain Python,
with python-stdnum per value. Kept only to check rules.py (test_it_follows_the_reference_rules.py);
production never calls it.

`oracle_import(rows, known)` says what an import of those rows must leave: every rejected row's
line and reason, the warnings grouped by message, each company by natural keys (the last row of a
repeated organisation number wins), and the postal codes and countries to create.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from stdnum.exceptions import InvalidChecksum, InvalidFormat, InvalidLength
from stdnum.no import orgnr

from service.companies.importers.enheter.records import ADDRESS_LINE_SEPARATOR, STATUS_DATE_COLUMNS

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
ADDRESSES = {"business": "forretningsadresse", "postal": "postadresse"}
_INT = re.compile(r"[+-]?[0-9]+")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DIGITS = re.compile(r"[0-9]*")
_POSTAL_CODE = re.compile(r"[0-9]{4}")


class Rejected(Exception):
    pass


@dataclass
class Expected:
    rejected: list[tuple[int, str]] = field(default_factory=list)
    warnings: dict[str, tuple[int, list[int]]] = field(default_factory=dict)  # message -> (count, first 20 lines)
    companies: dict[str, dict] = field(default_factory=dict)  # org nr -> fields, references by key
    postal_codes: dict[str, tuple] = field(default_factory=dict)  # key -> (code, place, municipality key, country)
    countries: dict[str, str] = field(default_factory=dict)  # new code -> name

    def warn(self, line: int, message: str) -> None:
        count, lines = self.warnings.get(message, (0, []))
        self.warnings[message] = (count + 1, lines + [line] if len(lines) < 20 else lines)


def oracle_import(rows: Iterable[tuple[int, dict[str, str], str]], known: dict[str, set[str]]) -> Expected:
    """`rows`: (line, values, a problem with the row's shape or ''); `known`: the reference keys that exist
    (nace, organization_types, municipalities: codes; countries; postal_codes: keys)."""
    expected = Expected()
    for line, values, problem in rows:
        try:
            if problem:
                raise Rejected(problem)
            if any("\x00" in value for value in values.values()):
                raise Rejected("a field contains a NUL character")
            company = _checked(values)
        except Rejected as exc:
            expected.rejected.append((line, str(exc)))
            continue
        company.update(_references(values, line, known, expected))
        expected.companies[company["org_nr"]] = company
    return expected


def _text(value: str, name: str, max_length: int) -> str:
    text = value.strip()
    if len(text) > max_length:
        raise Rejected(f"{name} is longer than {max_length} characters")
    return text


def _date(value: str, name: str) -> date | None:
    text = value.strip()
    if not text:
        return None
    try:
        if not _DATE.fullmatch(text):
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise Rejected(f"{name} is not a date (YYYY-MM-DD): {text!r}") from None


def _flag(value: str, name: str) -> bool:
    text = value.strip().lower()
    if text not in ("", "false", "true"):
        raise Rejected(f"{name} is not true or false: {value!r}")
    return text == "true"


def _int(value: str, name: str) -> int | None:
    text = value.strip()
    if not text:
        return None
    if not _INT.fullmatch(text):
        raise Rejected(f"{name} is not a whole number: {text!r}")
    if not INT_MIN <= int(text) <= INT_MAX:
        raise Rejected(f"{name} is out of range: {text!r}")
    return int(text)


def _org_nr(value: str) -> str:
    number = value.replace(" ", "").strip()
    problem = None
    if not _DIGITS.fullmatch(number):
        problem = InvalidFormat()
    elif len(number) != 9:
        problem = InvalidLength()
    elif orgnr.checksum(number) != 0:
        problem = InvalidChecksum()
    if problem is not None:
        raise Rejected(f"organisasjonsnummer {value!r} is not a valid organisation number ({problem})")
    return number


def _checked(values: dict[str, str]) -> dict:
    org_nr = _org_nr(values["organisasjonsnummer"])
    name = _text(values["navn"], "navn", 300)
    if not name:
        raise Rejected("navn (the name) is empty")
    employees = _int(values["antallAnsatte"], "antallAnsatte")
    if employees is not None and employees < 0:
        raise Rejected(f"antallAnsatte is negative: {employees}")
    forced = [_date(values[column], column) for column in STATUS_DATE_COLUMNS]
    row = {
        "org_nr": org_nr,
        "name": name,
        "website": _text(values["hjemmeside"], "hjemmeside", 300),
        "employees": employees,
        "registration_date": _date(values["registreringsdatoenhetsregisteret"], "registreringsdatoenhetsregisteret"),
        "founded_date": _date(values["stiftelsesdato"], "stiftelsesdato"),
        "last_submitted_accounts_year": _int(values["sisteInnsendteAarsregnskap"], "sisteInnsendteAarsregnskap"),
        "parent_org_nr": _text(values["overordnetEnhet"], "overordnetEnhet", 20),
        "is_bankrupt": _flag(values["konkurs"], "konkurs"),
        "bankrupt_date": _date(values["konkursdato"], "konkursdato"),
        "is_under_liquidation": _flag(values["underAvvikling"], "underAvvikling"),
        "under_liquidation_date": _date(values["underAvviklingDato"], "underAvviklingDato"),
        "is_under_forced_dissolution": _flag(
            values["underTvangsavviklingEllerTvangsopplosning"], "underTvangsavviklingEllerTvangsopplosning"
        ),
        "forced_dissolution_date": min((d for d in forced if d), default=None),
    }
    for prefix, block in ADDRESSES.items():
        lines = values[f"{block}.adresse"].replace(ADDRESS_LINE_SEPARATOR, "\n")
        row[f"{prefix}_address"] = _text(lines, f"{block}.adresse", 300)
    return row


def _references(values: dict[str, str], line: int, known: dict[str, set[str]], expected: Expected) -> dict:
    def code_key(kind: str, code: str, message: str) -> str | None:
        if code in known[kind]:
            return f"NO-{code}"
        expected.warn(line, message.format(code))
        return None

    row = {}
    code = values["organisasjonsform.kode"].strip()
    row["organization_type"] = code_key("organization_types", code, "unknown organisation form {}; left empty") if code else None
    for rank in (1, 2, 3):
        code = values[f"naeringskode{rank}.kode"].strip()
        given = code not in ("", "00.000")
        row[f"nace_code_{rank}"] = code_key("nace", code, "unknown NACE code {}; left empty") if given else None
    for prefix, block in ADDRESSES.items():
        country = values[f"{block}.landkode"].strip().upper()
        postal = values[f"{block}.postnummer"].strip()
        code = values[f"{block}.kommunenummer"].strip()
        municipality = code_key("municipalities", code, "unknown municipality {}; left empty") if code else None
        postal_key = None
        if postal and country in ("NO", ""):
            if _POSTAL_CODE.fullmatch(postal):
                _country_use(known, expected, "NO", "Norway")
                postal_key = f"NO-{postal}"
                if postal_key not in known["postal_codes"] and postal_key not in expected.postal_codes:
                    place = values[f"{block}.poststed"].strip()[:100]
                    expected.postal_codes[postal_key] = (postal, place, municipality, "NO")
            else:
                expected.warn(line, f"{block}.postnummer {postal!r} is not a Norwegian postal code; left empty")
        if country:
            _country_use(known, expected, country, values[f"{block}.land"].strip()[:100] or country)
        row.update({f"{prefix}_municipality": municipality, f"{prefix}_postal_code": postal_key, f"{prefix}_country": country or None})
    return row


def _country_use(known: dict[str, set[str]], expected: Expected, code: str, name: str) -> None:
    if code not in known["countries"] and code not in expected.countries:
        expected.countries[code] = name
