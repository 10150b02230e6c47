"""Nordic national ids of customer persons: checked with python-stdnum, kept in one spelling, and
the birth date each one holds.

NO fødselsnummer (D- and H-numbers too), SE personnummer (samordningsnummer too: day + 60, which
stdnum refuses as a day that does not exist) and DK CPR. The compact spelling is stored (SE as its
twelve digits), so a number written with or without separators is one number.

A refused number gets a sentence a bank clerk understands, chosen by stdnum's exception class
(and what the digits show), never stdnum's own wording: "has 10 digits; a Norwegian fødselsnummer
or D-number has 11", "the check digits do not match: probably a mistyped digit".

Every one of these numbers starts with its holder's birth date (`national_id_birth_date`): a number
whose date is not the person's birth date means one of the two is mistyped (`birth_date_disagrees`).
"""

from __future__ import annotations

from datetime import date

from django.utils import timezone
from stdnum import luhn
from stdnum.dk import cpr
from stdnum.exceptions import InvalidChecksum, InvalidComponent, InvalidFormat, InvalidLength, ValidationError
from stdnum.no import fodselsnummer
from stdnum.se import personnummer

from service.errors import bad_field
from vakt_format.national_ids import national_id_birth_date, national_id_masked
from vakt_format.norwegian import day

SCHEMAS = ("NO", "SE", "DK")
# A national id's country when the caller names none: the schema's (created in the register when missing).
NATIONAL_ID_COUNTRIES = {"NO": "Norway", "SE": "Sweden", "DK": "Denmark"}
NATIONAL_ID_NAMES = {
    "NO": "Norwegian fødselsnummer or D-number",
    "SE": "Swedish personnummer or samordningsnummer",
    "DK": "Danish CPR number",
}
# How many digits a number has, as the length message says it.
DIGITS = {"NO": (11,), "SE": (10, 12), "DK": (10,)}
# Where its birth date is, as the message about a date that is none says it.
DATE_PARTS = {
    "NO": "the first six digits are not a birth date (DDMMYY; a D-number adds 4 to the first digit)",
    "SE": "the digits before the last four are not a birth date (YYMMDD or YYYYMMDD; a samordningsnummer adds 60 to the day)",
    "DK": "the first six digits are not a birth date (DDMMYY)",
}
SEPARATORS = {"NO": " -:", "SE": " :-+", "DK": " -"}
ASCII_DIGITS = "0123456789"
OLDEST_BIRTH_YEAR = 1900  # a number of someone born before is mistyped (the oldest living people were born after)


class NationalIdProblem(Exception):
    """Why a number is refused, in a clerk's words (the message at the number's field)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def national_id_checked(*, schema: str, number: str) -> str:
    """The compact number (SE: its twelve digits); NationalIdProblem saying what is wrong."""
    name = NATIONAL_ID_NAMES[schema]
    text = number.strip()
    digits = "".join(ch for ch in text if ch in ASCII_DIGITS)
    if any(ch not in ASCII_DIGITS and ch not in SEPARATORS[schema] for ch in text):  # "²" is a digit to Python
        raise NationalIdProblem("may hold only digits, with spaces or a dash between them" + (
            " (a + before the last four for someone aged 100 or more)" if schema == "SE" else ""))
    if len(digits) not in DIGITS[schema]:
        expected = " or ".join(str(n) for n in DIGITS[schema])
        raise NationalIdProblem(f"has {len(digits)} digit{'s' if len(digits) != 1 else ''}; a {name} has {expected}")
    try:
        compact = _swedish_validate(text) if schema == "SE" else {"NO": fodselsnummer, "DK": cpr}[schema].validate(text)
    except ValidationError as exc:
        raise NationalIdProblem(_problem_text(schema, text, exc)) from None
    born = national_id_birth_date(schema=schema, number=compact)
    if born > timezone.localdate():
        raise NationalIdProblem(f"is of someone born {day(born)}, a day still to come: probably a mistyped digit")
    if born.year < OLDEST_BIRTH_YEAR:  # stdnum's 1800s (a DK 7th digit 5 to 8 with the year 58 to 99): nobody living
        raise NationalIdProblem(f"is of someone born {day(born)}, who cannot be living: probably a mistyped digit"
                                + (" (the 7th digit gives the century)" if schema in ("NO", "DK") else ""))
    return compact


def national_id_compact(*, schema: str, number: str, where: str = "body") -> str:
    """The compact number, or a 400 naming the field that is wrong (in the body, or the query)."""
    if schema not in SCHEMAS:
        raise bad_field([where, "national_identification_schema"], "must be NO, SE or DK")
    try:
        return national_id_checked(schema=schema, number=number)
    except NationalIdProblem as problem:
        raise bad_field([where, "national_identification_number"], problem.text) from None


def birth_date_disagrees(*, schema: str, compact: str, birth_date: date | None) -> str | None:
    """Why this number cannot be the number of someone born on `birth_date` (None when it can, or
    when there is no birth date to compare with). Birth dates are whole days (the model has no
    partial ones), so the whole date is compared."""
    if birth_date is None:
        return None
    born = national_id_birth_date(schema=schema, number=compact)
    if born == birth_date:
        return None
    return f"is of someone born {day(born)}; the person's birth date is {day(birth_date)}"


def national_id_disagreement(*, schema: str, compact: str, birth_date: date, shown: bool) -> str | None:
    """Why a person with this recorded number cannot be given `birth_date` (None when they can). The
    number, even masked, is named only when `shown` (the caller may read national ids): its first
    digits are a birth date, so without the role the text says that one disagrees, not which."""
    try:
        born = national_id_birth_date(schema=schema, number=compact)
    except ValidationError:  # recorded before these rules and holding no date stdnum reads: nothing to compare
        return None
    if born == birth_date:
        return None
    if not shown:
        return ("disagrees with the birth date in a national id recorded for the person "
                "(reading it needs the person_national_identification role)")
    return (f"the national id {national_id_masked(schema, compact)} recorded for the person is of someone born {day(born)}: "
            "correct the birth date, or remove the number if it is the wrong one")


def _problem_text(schema: str, text: str, exc: ValidationError) -> str:
    if isinstance(exc, InvalidChecksum):
        digits = "check digits do" if schema == "NO" else "check digit does"
        return f"the {digits} not match: probably a mistyped digit"
    if isinstance(exc, InvalidLength | InvalidFormat):
        return "is not written as Swedish numbers are: YYMMDD-NNNN or YYYYMMDD-NNNN" if schema == "SE" else (
            f"is not a {NATIONAL_ID_NAMES[schema]}: check the digits")
    if isinstance(exc, InvalidComponent):
        try:
            born = national_id_birth_date(schema=schema, number=text)
        except ValidationError:
            born = None
        if born is not None and born > timezone.localdate():  # stdnum's "not born yet"
            return f"is of someone born {day(born)}, a day still to come: probably a mistyped digit"
    if isinstance(exc, InvalidComponent) and schema == "NO":
        digits = "".join(ch for ch in text if ch in ASCII_DIGITS)
        if int(digits[:2]) >= 80:
            return "is an FH-number, which holds no birth date: record the person's fødselsnummer or D-number"
        if _is_date(digits[:6]):
            return ("the individual digits (7th to 9th) do not fit the birth year "
                    f"{digits[4:6]}: probably a mistyped digit")
    return DATE_PARTS[schema] + ": probably a mistyped digit"


def _is_date(ddmmyy: str) -> bool:
    """Whether a Norwegian number's first six digits are a day and month (a D- or H-number's too)."""
    day_, month = int(ddmmyy[:2]), int(ddmmyy[2:4])
    day_ -= 40 if day_ > 40 else 0
    month -= 40 if month > 40 else 0
    try:
        date(2000, month, day_)  # a leap year: 29.02 is a day
    except ValueError:
        return False
    return True


def _swedish_validate(text: str) -> str:
    """A personnummer or samordningsnummer as its twelve digits (stdnum checks the date, the form
    and the Luhn digit; a samordningsnummer's date as the birth date)."""
    number = personnummer.compact(text)
    if len(number) not in (11, 13) or number[-5] not in "-+":
        raise InvalidFormat()
    born = national_id_birth_date(schema="SE", number=number)  # a date that is none: InvalidComponent
    digits = number[:-5] + number[-4:]
    luhn.validate(digits[-10:])
    if len(digits) == 10:  # the century as the separator says it (+: 100 or older)
        digits = f"{born.year // 100}{digits}"
    return digits
