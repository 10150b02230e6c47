"""The OFAC SDN Remarks field: facts written as "; "-separated phrases.

Example: "DOB 01 Jan 1960; alt. DOB 1961; POB Tehran, Iran; nationality Iran;
Gender Male; Passport A123 (Iran) expires 2020; a.k.a. 'ABU ALI'."
Only what screening uses is read: birth dates, nationality or citizenship,
gender, identity documents and the weak aliases that OFAC keeps here (the
strong ones are in alt.csv). Anything else stays in the remarks text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .countries import country_code, read_country
from .dates import date_span, parse_words, year_span
from .entry import (
    ALIAS,
    BIC,
    FORMER,
    IMO,
    MMSI,
    NATIONAL_ID,
    PASSPORT,
    REGISTRATION,
    TAX_ID,
    WEAK,
    ParsedEntry,
    Warn,
)

# Document labels as OFAC writes them, by the kind we file them under.
_DOCUMENT_LABELS = {
    PASSPORT: (
        "Passport", "Diplomatic Passport", "Passport Booklet", "Travel Document Number",
    ),
    NATIONAL_ID: (
        "National ID No.", "Cedula No.", "D.N.I.", "Identification Number", "Personal ID Card",
        "Citizen's Card Number", "Numero de Identidad", "Turkish Identificiation Number",
        "C.U.R.P.", "C.U.R.P. #", "C.U.I.P.", "Electoral Registry No.", "Credencial electoral",
        "I.F.E.", "National Foreign ID Number", "Residency Number", "Birth Certificate Number",
        "Driver's License No.",
    ),
    TAX_ID: (
        "Tax ID No.", "NIT #", "R.F.C.", "R.F.C. #", "RFC", "RUC #", "RIF #", "SSN", "US FEIN",
        "Italian Fiscal Code", "V.A.T. Number", "C.I.F.", "RTN",
    ),
    REGISTRATION: (
        "Registration ID", "Registration Number", "Company Number", "UK Company Number",
        "Commercial Registry Number", "Business Registration Document #",
        "Business Registration Number", "Chamber of Commerce Number",
        "Certificate of Incorporation Number", "Legal Entity Number", "Trade License No.",
        "Folio Mercantil No.", "Matricula Mercantil No", "Government Gazette Number",
        "Public Registration Number", "D-U-N-S Number",
    ),
    IMO: (
        "Vessel Registration Identification IMO", "Company Number IMO", "Identification Number IMO",
    ),
    MMSI: ("MMSI",),
    BIC: ("SWIFT/BIC",),
}  # fmt: skip
_KIND_BY_LABEL = {label: kind for kind, labels in _DOCUMENT_LABELS.items() for label in labels}
# Longest label first, so "Company Number IMO" wins over "Company Number".
_LABELS = "|".join(re.escape(label) for label in sorted(_KIND_BY_LABEL, key=len, reverse=True))
_DOCUMENT = re.compile(
    rf"(?P<label>{_LABELS}):?\s+(?P<value>.+?)"
    r"(?:\s*\((?P<country>[^()]*)\))?"
    r"(?:[\s,]+(?:issued|expires|Issue Date|Expiration Date)\b.*)?"
)
_BIRTH_DATE = re.compile(r"DOB\s+(?:circa\s+)?(?P<date>.+)")
_YEARS = re.compile(r"(\d{4})\s*-\s*(\d{4})")
_NATIONALITY = re.compile(r"(?:nationality|citizen):?\s+(?P<country>.+)")
_GENDER = re.compile(r"Gender\s+(?P<gender>Male|Female)")
_WEAK_ALIAS = re.compile(r"(?P<prefix>[afn])\.k\.a\.,?\s+(?P<name>.+)")


def apply_remarks(entry: ParsedEntry, remarks: str, warn: Warn, order_name: Callable[[str], str]) -> None:
    """Add what the remarks say to `entry`; `order_name` puts an individual's
    "LAST, First" alias into natural order."""
    for phrase in remarks.split(";"):
        text = re.sub(r"^alt\.\s+", "", phrase.strip()).rstrip(".").strip()
        if match := _BIRTH_DATE.fullmatch(text):
            dates = _birth_dates(match["date"])
            if not dates:
                warn(f"birth date not understood: {text!r}")
            entry.add_birth_dates(dates)
        elif match := _NATIONALITY.fullmatch(text):
            if code := read_country(match["country"], warn):
                entry.add_nationality(code)
        elif match := _GENDER.fullmatch(text):
            entry.gender = match["gender"].lower()
        elif match := _WEAK_ALIAS.fullmatch(text):
            kind = FORMER if match["prefix"] == "f" else ALIAS
            entry.add_name(order_name(_unquote(match["name"])), WEAK, kind)
        elif match := _DOCUMENT.fullmatch(text):
            # The parenthesis is usually the issuing country, sometimes a city: no warning.
            country = country_code(match["country"])
            entry.add_identifier(_KIND_BY_LABEL[match["label"]], match["value"], country)


def _birth_dates(text: str) -> list[str]:
    """"01 Jan 1960", "Jan 1960", "1960", "1960 to 1962", "circa 1963-1965"."""
    if match := _YEARS.fullmatch(text):
        return year_span(int(match[1]), int(match[2]))
    start, _, end = text.partition(" to ")
    first, last = parse_words(start), parse_words(end) if end else None
    if first and last:
        return date_span(first, last)
    return [first] if first and not end else []


def _unquote(name: str) -> str:
    """Weak aliases are quoted: 'ABU ALI'. Apostrophes inside stay, as in
    transliterated Arabic they stand for a letter ('ABD AL-'AZIZ)."""
    name = name.strip()
    if len(name) > 1 and name[0] == "'" and name[-1] == "'":
        return name[1:-1].strip()
    return name
