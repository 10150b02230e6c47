"""The row rules of an Enhetsregisteret import, applied to a block of rows a column at a time.

This is the one place the rules live; CSV and JSON blocks (reading.py) come here as
columns of text named like the CSV header, and both writers (postgres.py, writer.py)
take what comes out. A rule costs one pass over a column in pyarrow's C kernels; only
the few rejected or warned rows are formatted in Python.

Rejected (the first failing rule, in the order below, gives the reason): a field with a
NUL character, an invalid organisation number (python-stdnum's rules and messages:
spaces removed, nine ASCII digits, mod 11), an empty or over-long text, a whole number
that is not one or does not fit an integer column, a negative head count, a date that
is not a real YYYY-MM-DD date, a flag that is not true or false. Everything else imports;
codes unknown to the reference tables leave that field empty and warn (references.py),
so one stale reference table never drops companies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from stdnum.exceptions import InvalidChecksum, InvalidFormat, InvalidLength
from stdnum.no import orgnr

from service.companies.importers.enheter.records import ADDRESS_LINE_SEPARATOR, COLUMNS, STATUS_DATE_COLUMNS
from service.companies.importers.values import INT_MAX, INT_MIN, WHITESPACE

# Company field prefix -> the register's address block
ADDRESSES = {"business": "forretningsadresse", "postal": "postadresse"}
_STRING = pa.string()


@dataclass
class Checked:
    """One block: its accepted rows' own values (columns named as the Company's fields, plus `ordinal`,
    the row's position in the file) and the reference codes references.py resolves; the rejected rows."""

    rows: pa.Table
    rejected: list[tuple[int, str]] = field(default_factory=list)  # (ordinal, reason)


class _Rules:
    """The block's rows still accepted, and the reason of each row refused so far."""

    def __init__(self, count: int, first: int) -> None:
        self.ok = np.ones(count, dtype=bool)
        self.first = first
        self.rejected: list[tuple[int, str]] = []

    def refuse(self, bad: np.ndarray, reason: Callable[[int], str]) -> None:
        """Refuse the rows where `bad`; a row refused by an earlier rule keeps that rule's reason."""
        for index in np.flatnonzero(bad & self.ok):
            self.rejected.append((self.first + int(index), reason(int(index))))
        self.ok &= ~bad


def block_check(batch: pa.RecordBatch, *, first: int) -> Checked:
    """Check and map one block whose first row has the ordinal `first`."""
    count = batch.num_rows
    raw = {name: batch.column(name) for name in COLUMNS}
    rules = _Rules(count, first)
    nul = np.zeros(count, dtype=bool)
    for column in raw.values():
        nul |= _np(pc.match_substring(column, "\x00"))
    rules.refuse(nul, lambda i: "a field contains a NUL character")

    # The rules in this order: a row refused by several gets the first one's reason.
    out: dict[str, pa.Array] = {}
    out["org_nr"] = _org_nr(raw["organisasjonsnummer"], rules)
    out["name"] = _text(raw, "navn", 300, rules)
    rules.refuse(~_np(_nonempty(out["name"])), lambda i: "navn (the name) is empty")
    out["employees"] = _int(raw, "antallAnsatte", rules)
    negative = _np(pc.fill_null(pc.less(out["employees"], 0), False))
    rules.refuse(negative, lambda i: f"antallAnsatte is negative: {out['employees'][i].as_py()}")
    forced = [_date(raw, column, rules) for column in STATUS_DATE_COLUMNS]
    out["forced_dissolution_date"] = pc.min_element_wise(*forced, skip_nulls=True)
    out["website"] = _text(raw, "hjemmeside", 300, rules)
    out["registration_date"] = _date(raw, "registreringsdatoenhetsregisteret", rules)
    out["founded_date"] = _date(raw, "stiftelsesdato", rules)
    out["last_submitted_accounts_year"] = _int(raw, "sisteInnsendteAarsregnskap", rules)
    out["parent_org_nr"] = _text(raw, "overordnetEnhet", 20, rules)
    out["is_bankrupt"] = _flag(raw, "konkurs", rules)
    out["bankrupt_date"] = _date(raw, "konkursdato", rules)
    out["is_under_liquidation"] = _flag(raw, "underAvvikling", rules)
    out["under_liquidation_date"] = _date(raw, "underAvviklingDato", rules)
    out["is_under_forced_dissolution"] = _flag(raw, "underTvangsavviklingEllerTvangsopplosning", rules)
    for prefix, block in ADDRESSES.items():
        lines = pc.replace_substring(raw[f"{block}.adresse"], ADDRESS_LINE_SEPARATOR, "\n")
        out[f"{prefix}_address"] = _limited(_strip(lines), f"{block}.adresse", 300, rules)
    # What references.py resolves: codes trimmed (country codes upper-cased), names as they are.
    for name in ("organisasjonsform.kode", "naeringskode1.kode", "naeringskode2.kode", "naeringskode3.kode"):
        out[name] = _strip(raw[name])
    for block in ADDRESSES.values():
        for column in ("postnummer", "kommunenummer"):
            out[f"{block}.{column}"] = _strip(raw[f"{block}.{column}"])
        out[f"{block}.landkode"] = _upper(_strip(raw[f"{block}.landkode"]))
        out[f"{block}.poststed"] = raw[f"{block}.poststed"]
        out[f"{block}.land"] = raw[f"{block}.land"]
    out["ordinal"] = pa.array(np.arange(first, first + count, dtype=np.int64))
    table = pa.table(out)
    if not rules.ok.all():
        table = table.filter(pa.array(rules.ok))
    return Checked(table, sorted(rules.rejected))


def _np(mask: pa.Array) -> np.ndarray:
    return mask.to_numpy(zero_copy_only=False)


def _strip(column: pa.Array) -> pa.Array:
    """str.strip(): every character Python counts as whitespace."""
    return pc.utf8_trim(column, characters=WHITESPACE)


def _nonempty(column: pa.Array) -> pa.Array:
    return pc.not_equal(column, "")


def _upper(column: pa.Array) -> pa.Array:
    """str.upper(): ASCII in C, anything else (where Unicode's and Python's rules might part) in Python."""
    if pc.all(pc.string_is_ascii(column)).as_py():
        return pc.ascii_upper(column)
    return pa.array([value.upper() for value in column.to_pylist()], _STRING)


def _limited(text: pa.Array, name: str, max_length: int, rules: _Rules) -> pa.Array:
    rules.refuse(_np(pc.greater(pc.utf8_length(text), max_length)), lambda i: f"{name} is longer than {max_length} characters")
    return text


def _text(raw: dict[str, pa.Array], name: str, max_length: int, rules: _Rules) -> pa.Array:
    return _limited(_strip(raw[name]), name, max_length, rules)


def _org_nr(raw: pa.Array, rules: _Rules) -> pa.Array:
    """python-stdnum's organisation number rules and messages, without its mapping of other Unicode digits."""
    number = _strip(pc.replace_substring(raw, " ", ""))
    shaped = _np(pc.match_substring_regex(number, r"^[0-9]*$"))
    nine = shaped & _np(pc.equal(pc.utf8_length(number), 9))
    checksum = np.full(len(number), -1)
    checksum[nine] = _checksums(pc.filter(number, pa.array(nine)))

    def reason(problem):
        return lambda i: f"organisasjonsnummer {raw[i].as_py()!r} is not a valid organisation number ({problem})"

    rules.refuse(~shaped, reason(InvalidFormat()))
    rules.refuse(~nine, reason(InvalidLength()))
    rules.refuse(checksum != 0, reason(InvalidChecksum()))
    return number


class _HalfChecksums:
    """stdnum's `orgnr.checksum` of one half of a nine-digit number (the other half zeros), each half
    computed by stdnum once: the checksum is a weighted sum mod 11, so a number's is the sum of its
    halves'. One stdnum call per distinct half (at most 110,000) instead of one per row (about 10 us)."""

    def __init__(self, width: int, before: int) -> None:
        self.width, self.before = width, before
        self.table = np.full(10**width, -1, dtype=np.int64)

    def of(self, halves: np.ndarray) -> np.ndarray:
        missing = np.unique(halves[self.table[halves] < 0])
        for half in missing.tolist():
            digits = f"{half:0{self.width}d}"
            self.table[half] = orgnr.checksum("0" * self.before + digits + "0" * (9 - self.before - self.width))
        return self.table[halves]


_HEADS, _TAILS = _HalfChecksums(5, 0), _HalfChecksums(4, 5)


def _checksums(numbers: pa.Array) -> np.ndarray:
    """stdnum's checksum of nine-digit numbers (0: valid)."""
    if not len(numbers):
        return np.empty(0, dtype=np.int64)
    heads = pc.cast(pc.utf8_slice_codeunits(numbers, 0, 5), pa.int64()).to_numpy()
    tails = pc.cast(pc.utf8_slice_codeunits(numbers, 5, 9), pa.int64()).to_numpy()
    return (_HEADS.of(heads) + _TAILS.of(tails)) % 11


def _int(raw: dict[str, pa.Array], name: str, rules: _Rules) -> pa.Array:
    """A whole number that fits an integer column, or null for an empty field."""
    text = _strip(raw[name])
    shaped = _np(pc.match_substring_regex(text, r"^[+-]?[0-9]+$"))
    rules.refuse(_np(_nonempty(text)) & ~shaped, lambda i: f"{name} is not a whole number: {text[i].as_py()!r}")
    # Up to 11 characters fit an int64 whatever they hold; a longer one (leading zeros) goes to Python's int().
    short = shaped & _np(pc.less_equal(pc.utf8_length(text), 11))
    unsigned = pc.utf8_ltrim(pc.if_else(pa.array(short), text, pa.scalar(None, _STRING)), characters="+")
    values = pc.cast(unsigned, pa.int64())
    if (long := np.flatnonzero(shaped & ~short)).size:
        numbers = values.to_pylist()
        for index in long.tolist():
            number = int(text[index].as_py())
            numbers[index] = number if INT_MIN <= number <= INT_MAX else INT_MAX + 1  # (out of range either way)
        values = pa.array(numbers, pa.int64())
    in_range = pc.and_(pc.greater_equal(values, INT_MIN), pc.less_equal(values, INT_MAX))
    rules.refuse(shaped & ~_np(pc.fill_null(in_range, False)), lambda i: f"{name} is out of range: {text[i].as_py()!r}")
    return pc.if_else(in_range, values, pa.scalar(None, pa.int64())).cast(pa.int32())


def _date(raw: dict[str, pa.Array], name: str, rules: _Rules) -> pa.Array:
    """A YYYY-MM-DD date of the proleptic Gregorian calendar from year 1, or null for an empty field.
    pyarrow's cast takes only real dates and refuses the whole column otherwise; then strptime, which
    rolls an impossible day over (2023-02-29 -> 03-01), decides: a date is real when it reads back as written."""
    text = _strip(raw[name])
    shaped = pc.and_(pc.match_substring_regex(text, r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"), pc.invert(pc.starts_with(text, "0000")))
    candidates = pc.if_else(shaped, text, pa.scalar(None, _STRING))
    try:
        dates = pc.cast(candidates, pa.date32())
    except pa.ArrowInvalid:
        parsed = pc.strptime(candidates, format="%Y-%m-%d", unit="s", error_is_null=True)
        real = pc.fill_null(pc.equal(pc.strftime(parsed, format="%Y-%m-%d"), candidates), False)
        dates = pc.if_else(real, parsed, pa.scalar(None, parsed.type)).cast(pa.date32())
    rules.refuse(_np(_nonempty(text)) & ~_np(pc.is_valid(dates)), lambda i: f"{name} is not a date (YYYY-MM-DD): {text[i].as_py()!r}")
    return dates


def _flag(raw: dict[str, pa.Array], name: str, rules: _Rules) -> pa.Array:
    value = pc.utf8_lower(_strip(raw[name]))
    known = _np(pc.is_in(value, value_set=pa.array(["", "false", "true"])))
    rules.refuse(~known, lambda i: f"{name} is not true or false: {raw[name][i].as_py()!r}")
    return pc.equal(value, "true")
