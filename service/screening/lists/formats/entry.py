"""What every list parser yields, and how it reports what it could not read.

A parser streams `ParsedEntry` objects. Problems come in two sizes:

* a single record that cannot be used (no id, no name, unknown type) is
  recorded in `ParseSummary.rejected` and skipped, so one bad line does not
  block a weekly list update;
* a file that is not what it claims to be (not XML, wrong CSV header,
  truncated) raises `ParseError`. Parsers are generators, so an importer must
  consume the whole iterator inside its transaction: entries already yielded
  are then rolled back and nothing of a bad file replaces the current version.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from functools import partial
from dataclasses import dataclass, field
from typing import Any

PERSON = "Person"
ORGANIZATION = "Organization"
# Listed subject whose kind the source leaves open (FollowTheMoney LegalEntity).
LEGAL_ENTITY = "LegalEntity"
VESSEL = "Vessel"
AIRPLANE = "Airplane"

STRONG = "strong"
WEAK = "weak"

PRIMARY = "primary"
ALIAS = "alias"
FORMER = "former"
ORIGINAL_SCRIPT = "original_script"

PASSPORT = "passport"
NATIONAL_ID = "national_id"
TAX_ID = "tax_id"
REGISTRATION = "registration"
IMO = "imo"
MMSI = "mmsi"
BIC = "bic"
OTHER_ID = "other"

# Reports a value of an accepted record that had to be dropped.
Warn = Callable[[str], None]

_SPACES = re.compile(r"\s+")


def clean_text(value: str | None) -> str:
    """Collapse the line breaks and runs of blanks that lists put inside values."""
    if value is None:
        return ""
    return _SPACES.sub(" ", value).strip()


@dataclass(frozen=True, slots=True)
class ParsedName:
    name: str
    quality: str  # STRONG | WEAK: weak aliases alone should not produce a hit
    kind: str  # PRIMARY | ALIAS | FORMER | ORIGINAL_SCRIPT


@dataclass(frozen=True, slots=True)
class ParsedIdentifier:
    kind: str  # PASSPORT | NATIONAL_ID | TAX_ID | REGISTRATION | IMO | MMSI | BIC | OTHER_ID
    value: str
    country: str | None = None  # ISO 3166-1 alpha-2, lowercase


@dataclass(slots=True)
class ParsedEntry:
    """One listed subject, in the same shape whatever list it came from.

    Birth dates are partial ISO strings ("1970", "1970-05", "1970-05-12");
    see `dates.py` for how ranges and approximate dates are expressed.
    """

    source_id: str
    schema: str
    names: list[ParsedName] = field(default_factory=list)
    birth_dates: list[str] = field(default_factory=list)
    nationalities: list[str] = field(default_factory=list)
    gender: str | None = None
    identifiers: list[ParsedIdentifier] = field(default_factory=list)
    programmes: list[str] = field(default_factory=list)
    listed_date: str | None = None
    source_url: str | None = None
    remarks: str | None = None
    addresses: list[str] = field(default_factory=list)
    positions: list[str] = field(default_factory=list)  # a PEP's public functions ("United States senator")

    @property
    def primary_name(self) -> str | None:
        for name in self.names:
            if name.kind == PRIMARY:
                return name.name
        return self.names[0].name if self.names else None

    def add_name(self, name: str | None, quality: str = STRONG, kind: str = ALIAS) -> None:
        """Add a name once; a name listed both strong and weak stays strong."""
        text = clean_text(name)
        if not text:
            return
        for index, existing in enumerate(self.names):
            if existing.name == text:
                if existing.quality == WEAK and quality == STRONG:
                    self.names[index] = ParsedName(text, STRONG, existing.kind)
                return
        self.names.append(ParsedName(text, quality, kind))

    def add_birth_dates(self, dates: list[str]) -> None:
        _extend_unique(self.birth_dates, dates)

    def add_nationality(self, code: str) -> None:
        _extend_unique(self.nationalities, [code])

    def add_identifier(self, kind: str, value: str | None, country: str | None = None) -> None:
        text = clean_text(value)
        if text:
            _extend_unique(self.identifiers, [ParsedIdentifier(kind, text, country)])

    def add_programme(self, programme: str | None) -> None:
        text = clean_text(programme)
        if text:
            _extend_unique(self.programmes, [text])

    def add_position(self, position: str | None) -> None:
        text = clean_text(position)
        if text:
            _extend_unique(self.positions, [text])

    def add_address(self, parts: list[str | None]) -> None:
        text = ", ".join(clean for part in parts if (clean := clean_text(part)))
        if text:
            _extend_unique(self.addresses, [text])


def _extend_unique(values: list[Any], new_values: list[Any]) -> None:
    for value in new_values:
        if value not in values:
            values.append(value)


class ParseError(Exception):
    """The file as a whole cannot be trusted: nothing of it should be imported."""

    def __init__(self, location: str | None, reason: str) -> None:
        self.location = location
        self.reason = reason
        super().__init__(f"{location}: {reason}" if location else reason)


class RecordError(Exception):
    """One record cannot be used; parsers turn it into a rejection and go on."""

    def __init__(self, reason: str, source_id: str | None = None) -> None:
        self.reason = reason
        self.source_id = source_id
        super().__init__(reason)


class OutOfScope(Exception):
    """A well-formed record that is not a screening subject (an FtM Address)."""


@dataclass(frozen=True, slots=True)
class Problem:
    location: str  # "sdn.csv line 12", "INDIVIDUAL #5", "line 3"
    reason: str
    source_id: str | None = None


@dataclass(slots=True)
class ParseSummary:
    """Counts an importer reports after a run.

    `read` counts every record met; it equals accepted + rejected + skipped.
    Skipped records are out of scope rather than broken (an FtM Address, a
    Senzing position record), so only their reasons are counted.
    Warnings are about accepted records that lost a value (an unknown
    country name, a birth date in a calendar we do not read).
    """

    read: int = 0
    accepted: int = 0
    rejected: list[Problem] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    warnings: list[Problem] = field(default_factory=list)

    def reject(self, location: str, reason: str, source_id: str | None = None) -> None:
        self.rejected.append(Problem(location, reason, source_id))

    def skip(self, reason: str) -> None:
        self.skipped[reason] += 1

    def warn(self, location: str, reason: str, source_id: str | None = None) -> None:
        self.warnings.append(Problem(location, reason, source_id))

    def warner(self, location: str, source_id: str) -> Warn:
        """A `Warn` for one record, so helpers need not know where they are."""
        return partial(self.warn, location, source_id=source_id)

    def collect(self, location: str, build: Callable[[], ParsedEntry]) -> ParsedEntry | None:
        """Build one record, counting it as accepted, rejected or skipped."""
        self.read += 1
        try:
            entry = build()
        except OutOfScope as out_of_scope:
            self.skip(str(out_of_scope))
            return None
        except RecordError as error:
            self.reject(location, error.reason, error.source_id)
            return None
        self.accepted += 1
        return entry
