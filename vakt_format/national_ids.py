"""A Nordic national id's birth date, and a national id shown without repeating it whole: the
schema and the birth-date digits, the rest hidden. One rule for the service's messages and checks,
the dashboard's pages and the audit log."""

from __future__ import annotations

import re
from datetime import date

from stdnum.dk import cpr
from stdnum.no import fodselsnummer
from stdnum.se import personnummer

COORDINATION_DAY = 60  # a Swedish samordningsnummer's day is the birth day + 60

# A number written as a Nordic national id is (NO 11 digits; SE and DK 10, SE also 12; a dash or a
# plus after the birth date, a space in a Norwegian one).
NATIONAL_ID_SHAPE = re.compile(r"(?<!\d)(?:\d{8}[-+]?\d{4}|\d{6}[-+ ]?\d{4,5})(?!\d)")


def national_id_masked(schema: str, number: str) -> str:
    """"NO 151086*****": the birth-date digits kept, DDMMYY (NO, DK, SE without its century) or
    YYYYMMDD for a Swedish number with its century (the only national id of 12 digits, so also when
    the schema is not known)."""
    shown = 8 if len(number) == 12 else 6
    return f"{schema} {number[:shown]}{'*' * len(number[shown:])}".strip()


def national_ids_masked_in(text: str) -> str:
    """Every number in a text written as a national id, masked (one typed into a reason or a comment)."""
    return NATIONAL_ID_SHAPE.sub(lambda m: national_id_masked("", re.sub(r"\D", "", m.group())), text)


def national_id_birth_date(*, schema: str, number: str) -> date:
    """The birth date a valid number holds (a D-, H- or samordningsnummer's real one), however it is
    spelt; stdnum's ValidationError for a number whose digits hold no date."""
    if schema == "SE":
        return personnummer.get_birth_date(_swedish_birth_form(number))
    return {"NO": fodselsnummer, "DK": cpr}[schema].get_birth_date(number)


def _swedish_birth_form(number: str) -> str:
    """The number with a samordningsnummer's day made the birth day (stdnum reads the date)."""
    number = personnummer.compact(number)
    at = 6 if len(number) in (12, 13) else 4  # the day's two digits, after YYYYMM or YYMM
    day_ = int(number[at : at + 2])
    if day_ > COORDINATION_DAY:
        number = f"{number[:at]}{day_ - COORDINATION_DAY:02d}{number[at + 2:]}"
    return number
