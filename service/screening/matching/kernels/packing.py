"""The layouts the kernels read, and the index build's per-name pass.

- a name's `NAME_RECORD` (what the estimate needs, in one 32-byte read) and its pair keys,
  computed for all names at once by `name_layout` (a Python loop over a million names
  took most of the build);
- a part's text in a 16-byte slot (`short_text_table`) and its 64-byte row of the
  similarity table (PART_*);
- a packed name part (QUERY_*): what a query part, or either name of a pair, carries into
  the similarity and scoring kernels, with the helpers that read it.
Roles as the blocking (ROLE_*) and the scorer (PART_*) tell parts apart are defined here,
beside the layouts that carry them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .spelling import same_codes


# Probe roles, as the blocking kernel sees them.
ROLE_NAME = 0
ROLE_GLUED = 1
ROLE_INITIAL = 2
ROLE_UNCONTRADICTING = 3  # particles and titles
ROLE_OTHER = 4  # legal forms, generic words, numbers


class IndexNames(NamedTuple):
    """The index's names as the shortlist and the scorer read them (`MatchIndex._names`)."""

    start: np.ndarray  # int64, name n's parts are parts[start[n]:start[n + 1]]
    parts: np.ndarray  # int32 part numbers
    entity: np.ndarray  # int32 per name
    weak: np.ndarray  # bool per name: a low-quality alias
    text_offsets: np.ndarray  # name n's UTF-8 text is text_bytes[text_offsets[n]:text_offsets[n + 1]]
    text_bytes: np.ndarray  # uint8


# What the candidate kernel reads of a name, in one 32-byte record: a candidate costs one
# memory read instead of one per array (the kernel waits on memory, not on arithmetic).
# The blocker keeps a copy in the order of the part postings, which is why the record
# carries its own name number.
NAME_RECORD = np.dtype([
    ("letters", np.uint64),  # bit set of the first letters a-z of its full parts; above bit 32, of its initials
    ("weight", np.float32),  # sum of part weights
    ("contradicting_weight", np.float32),  # the same without particles and titles
    ("name", np.int32),  # its number
    ("repeated_letters", np.uint32),  # first letters that start two or more full name parts
    ("first_part", np.uint32),  # its parts are name_parts[first_part:first_part + length]
    ("part_count", np.int16),  # full name parts
    ("length", np.uint16),  # all parts
], align=True)
assert NAME_RECORD.itemsize == 32


# -- the index build: what each name's parts say, in one pass ----------------------------------


# Typed, not inferred: called once with the constant 0 (counting only), which numba would
# compile a copy for.
@njit("(int64[::1], int64, int64[::1], int64, int64, int64, int64[::1], int64)", cache=True)
def _name_keys(full: np.ndarray, full_count: int, letters_of: np.ndarray, initials: int,
               initial_codes: int, letter_codes: int, out: np.ndarray, n: int) -> int:
    """Pair keys of one name into out[n:] (or only counted when out is empty); the new n.

    Two full parts together; each full part with each initial; and, when the name has
    more than one full part or an initial, each full part with the first letter of every
    other full part or initial ("J. Garcia" meets "Juan Garcia")."""
    write = len(out) > 0
    for i in range(full_count):
        for j in range(i + 1, full_count):
            if write:
                low, high = min(full[i], full[j]), max(full[i], full[j])
                out[n] = (np.int64(low) << 32) | np.int64(high)
            n += 1
    for letter in range(26):
        if initials & (np.int64(1) << np.int64(letter)):
            for i in range(full_count):
                if write:
                    out[n] = (np.int64(full[i]) << 32) | np.int64(initial_codes + letter)
                n += 1
    if full_count > 1 or initials:
        for i in range(full_count):
            letters = np.int64(initials)
            for j in range(full_count):
                if j != i and letters_of[j] >= 0:
                    letters |= np.int64(1) << np.int64(letters_of[j])
            for letter in range(26):
                if letters & (np.int64(1) << np.int64(letter)):
                    if write:
                        out[n] = (np.int64(full[i]) << 32) | np.int64(letter_codes + letter)
                    n += 1
    return n


@njit(cache=True)
def _full_parts(name_parts, first, last, part_roles, part_letters, full, full_letters):
    """A name's distinct full parts in order, into `full` (their first letters into
    `full_letters`), and the bit set of its initials' letters: (count, initials)."""
    full_count = 0
    initials = np.int64(0)
    for position in range(first, last):
        part = name_parts[position]
        if part_roles[part] == ROLE_NAME:
            known = False
            for i in range(full_count):
                if full[i] == part:
                    known = True
                    break
            if not known:
                full[full_count] = part
                full_letters[full_count] = part_letters[part]
                full_count += 1
        elif part_roles[part] == ROLE_INITIAL and part_letters[part] >= 0:
            initials |= np.int64(1) << np.int64(part_letters[part])
    return full_count, initials


@njit(cache=True)
def name_layout(
    name_start: np.ndarray,  # int64, name n's parts are name_parts[name_start[n]:name_start[n + 1]]
    name_parts: np.ndarray,  # int32
    part_roles: np.ndarray,  # int8, ROLE_* of each vocabulary part
    part_weights: np.ndarray,  # float64
    part_letters: np.ndarray,  # int8, first letter a-z as 0-25, -1 when none
    initial_codes: int,
    letter_codes: int,
):
    """Per name, what the blocking needs (packed by `name_records`), its single full part,
    and its pair keys (`blocking.pair_code`, `initial_code`, `letter_code`): computed from
    the part arrays instead of token by token while names are added.

    Returns (weight, contradicting_weight, part_count, part_letters, repeated_letters,
    initial_letters, single_parts, single_names, pair_codes, pair_names)."""
    n = len(name_start) - 1
    weight = np.empty(n, dtype=np.float32)
    contradicting = np.empty(n, dtype=np.float32)
    part_count = np.empty(n, dtype=np.int16)
    letters = np.empty(n, dtype=np.uint32)
    repeated = np.empty(n, dtype=np.uint32)
    initial_letters = np.empty(n, dtype=np.uint32)
    longest = 1
    for name in range(n):
        longest = max(longest, name_start[name + 1] - name_start[name])
    full = np.empty(longest, dtype=np.int64)
    full_letters = np.empty(longest, dtype=np.int64)
    single_parts = np.empty(n, dtype=np.int32)
    single_names = np.empty(n, dtype=np.int32)
    singles = 0
    key_count = np.zeros(n + 1, dtype=np.int64)
    no_keys = np.empty(0, dtype=np.int64)
    for name in range(n):
        total = 0.0
        contradicting_total = 0.0
        seen = np.int64(0)
        repeats = np.int64(0)
        for position in range(name_start[name], name_start[name + 1]):
            part = name_parts[position]
            role = part_roles[part]
            total += part_weights[part]
            if role != ROLE_UNCONTRADICTING:
                contradicting_total += part_weights[part]
            letter = part_letters[part]
            if role == ROLE_NAME and letter >= 0:
                bit = np.int64(1) << np.int64(letter)
                repeats |= seen & bit
                seen |= bit
        full_count, initials = _full_parts(name_parts, name_start[name], name_start[name + 1], part_roles, part_letters,
                                           full, full_letters)
        weight[name] = total
        contradicting[name] = contradicting_total
        part_count[name] = min(full_count, 32767)
        letters[name] = seen
        repeated[name] = repeats
        initial_letters[name] = initials
        if full_count == 1:
            single_parts[singles] = full[0]
            single_names[singles] = name
            singles += 1
        key_count[name + 1] = key_count[name] + _name_keys(
            full, full_count, full_letters, initials, initial_codes, letter_codes, no_keys, 0)
    pair_codes = np.empty(key_count[n], dtype=np.int64)
    pair_names = np.empty(key_count[n], dtype=np.int32)
    for name in range(n):
        if key_count[name + 1] == key_count[name]:
            continue
        full_count, initials = _full_parts(name_parts, name_start[name], name_start[name + 1], part_roles, part_letters,
                                           full, full_letters)
        _name_keys(full, full_count, full_letters, initials, initial_codes, letter_codes, pair_codes, key_count[name])
        pair_names[key_count[name]:key_count[name + 1]] = name
    return (weight, contradicting, part_count, letters, repeated, initial_letters,
            single_parts[:singles], single_names[:singles], pair_codes, pair_names)


# Every part's text in a 16-byte slot when it is ASCII and at most 15 letters long (almost
# all name parts): 16 bytes a part, so the lookup's verification of a few hundred hits reads
# one small table, mostly from cache, instead of an offset and the code points of each.
# Byte 0: the length (SHORT_LENGTH: not in the table, read the code points) and whether
# the part was written in an abjad.
SHORT_SLOT = 16
SHORT_LENGTH = 0x7F
SHORT_ABJAD = 0x80


@njit(cache=True)
def short_text_table(codes: np.ndarray, offsets: np.ndarray, abjad: np.ndarray) -> np.ndarray:
    table = np.zeros((len(offsets) - 1, SHORT_SLOT), dtype=np.uint8)
    for part in range(len(offsets) - 1):
        first, last = offsets[part], offsets[part + 1]
        short = last - first < SHORT_SLOT
        for i in range(first, last):
            if codes[i] >= 128:
                short = False
        table[part, 0] = (last - first) if short else SHORT_LENGTH
        if abjad[part]:
            table[part, 0] |= SHORT_ABJAD
        if short:
            for i in range(first, last):
                table[part, 1 + i - first] = codes[i]
    return table


# How `similarity_matrix` reads a query part: these numbers, then the code points of its text
# and of its skeleton and its symbol numbers; the next part follows.
QUERY_TEXT_LENGTH, QUERY_SKELETON_LENGTH, QUERY_SYMBOL_COUNT = 0, 1, 2
QUERY_SYLLABIC, QUERY_FORM, QUERY_ROLE, QUERY_PHONETIC, QUERY_ABJAD = 3, 4, 5, 6, 7
QUERY_HEAD = 8


@njit(cache=True)
def packed_starts(query: np.ndarray, query_count: int) -> np.ndarray:
    """Where each query part's numbers start in `query` (QUERY_*)."""
    starts = np.empty(query_count, dtype=np.int64)
    at = 0
    for i in range(query_count):
        starts[i] = at
        at += QUERY_HEAD + query[at + QUERY_TEXT_LENGTH] + query[at + QUERY_SKELETON_LENGTH] + query[at + QUERY_SYMBOL_COUNT]
    return starts


@njit(cache=True, inline='always')
def packed_ends(query: np.ndarray, at: int):
    """Where the text, the skeleton and the symbols of the part starting at query[at] (QUERY_*) end."""
    text_end = at + QUERY_HEAD + query[at + QUERY_TEXT_LENGTH]
    skeleton_end = text_end + query[at + QUERY_SKELETON_LENGTH]
    return text_end, skeleton_end, skeleton_end + query[at + QUERY_SYMBOL_COUNT]


@njit(cache=True, inline='always')
def packed_part(query: np.ndarray, at: int):
    """The part starting at query[at] (QUERY_*): its code points, skeleton and symbol numbers,
    then whether syllabic, its form, role, phonetic key and whether written in an abjad."""
    text_end, skeleton_end, symbol_end = packed_ends(query, at)
    return (query[at + QUERY_HEAD:text_end], query[text_end:skeleton_end], query[skeleton_end:symbol_end],
            query[at + QUERY_SYLLABIC] != 0, query[at + QUERY_FORM], query[at + QUERY_ROLE],
            query[at + QUERY_PHONETIC], query[at + QUERY_ABJAD] != 0)


# What `similarity_matrix` reads of a vocabulary part, in one 64-byte row (one cache line
# instead of a miss in each of eleven arrays). Bytes 0-15 and 16-31: its text and its
# skeleton as `short_text_table` slots (SHORT_LENGTH: read the arrays instead); then, as
# int32 at these positions of the row's int32 view:
PART_FORM, PART_PHONETIC, PART_SYMBOL_START, PART_SYMBOL_COUNT, PART_ROLE, PART_FLAGS = range(8, 14)
PART_FIRST_SYMBOLS = 14  # its first two symbol numbers, inline
INLINE_SYMBOLS = 2
PART_SYLLABIC, PART_ABJAD = 1, 2  # PART_FLAGS bits
SKELETON_SLOT = 16


def name_records(
    name_start: np.ndarray,
    weight: np.ndarray,
    contradicting_weight: np.ndarray,
    part_count: np.ndarray,
    part_letters: np.ndarray,
    repeated_letters: np.ndarray,
    initial_letters: np.ndarray,
) -> np.ndarray:
    """`name_layout`'s per-name arrays as one `NAME_RECORD` per name."""
    lengths = np.diff(name_start)
    if len(name_start) and (name_start[-1] >= 2**32 or (len(lengths) and lengths.max() >= 2**16)):
        raise ValueError("too many name parts for the index layout: at most 65,535 a name and 2**32 in all")
    records = np.zeros(len(weight), dtype=NAME_RECORD)
    records["letters"] = part_letters.astype(np.uint64) | (initial_letters.astype(np.uint64) << np.uint64(32))
    records["weight"] = weight
    records["contradicting_weight"] = contradicting_weight
    records["name"] = np.arange(len(weight), dtype=np.int32)
    records["repeated_letters"] = repeated_letters
    records["first_part"] = name_start[:-1]
    records["part_count"] = part_count
    records["length"] = lengths
    return records

# Part roles, as the scorer tells them apart.
PART_NAME = 0
PART_UNCONTRADICTING = 1  # particles and titles
PART_OTHER = 2  # initials, legal forms, generic words, numbers


@njit(cache=True)
def distinct_parts(names: np.ndarray, name_start: np.ndarray, name_parts: np.ndarray) -> np.ndarray:
    """The parts of the names, sorted, each once."""
    total = 0
    for name in names:
        total += name_start[name + 1] - name_start[name]
    found = np.empty(total, dtype=np.int64)
    n = 0
    for name in names:
        for position in range(name_start[name], name_start[name + 1]):
            found[n] = name_parts[position]
            n += 1
    return np.unique(found)


@njit(cache=True)
def packed_texts(query: np.ndarray, query_count: int):
    """The query parts' texts (QUERY_*) as `_glues` reads them: code points back to back
    (int64), where each starts, and whether each is syllabic."""
    starts = packed_starts(query, query_count)
    at = np.zeros(query_count + 1, dtype=np.int64)
    syllabic = np.empty(query_count, dtype=np.bool_)
    for i in range(query_count):
        at[i + 1] = at[i] + query[starts[i] + QUERY_TEXT_LENGTH]
        syllabic[i] = query[starts[i] + QUERY_SYLLABIC] != 0
    codes = np.empty(at[query_count], dtype=np.int64)
    for i in range(query_count):
        text = starts[i] + QUERY_HEAD
        codes[at[i]:at[i + 1]] = query[text:text + at[i + 1] - at[i]]
    return codes, at, syllabic


@njit(cache=True)
def texts_and_fathers(query: np.ndarray, starts: np.ndarray, markers: np.ndarray):
    """Of packed parts (QUERY_*): a number per part, equal for parts of equal text (the
    first such part's position), and whether each is a father's name (the part after a
    patronymic marker, `align._patronymic_positions`)."""
    count = len(starts)
    texts = np.empty(count, dtype=np.int64)
    fathers = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        texts[k] = k
        for before in range(k):
            if same_codes(packed_part(query, starts[k])[0], packed_part(query, starts[before])[0]):
                texts[k] = before
                break
        fathers[k] = k > 0 and markers[k - 1] != 0
    return texts, fathers


@njit(cache=True)
def part_codes(name_parts: np.ndarray, first: int, last: int, codes: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The texts of parts name_parts[first:last] as code points, back to back."""
    total = 0
    for k in range(first, last):
        total += offsets[name_parts[k] + 1] - offsets[name_parts[k]]
    out = np.empty(total, dtype=np.int64)
    at = 0
    for k in range(first, last):
        part = name_parts[k]
        out[at:at + offsets[part + 1] - offsets[part]] = codes[offsets[part]:offsets[part + 1]]
        at += offsets[part + 1] - offsets[part]
    return out
