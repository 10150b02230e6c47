"""Typos: the edit distance of two name parts within the typo budget, and the deletion
keys (SymSpell) under which the index finds parts a typo or two apart.

`typo_similarity` is the engine's one definition of "a typo apart" (the budget: none up to
three letters, one up to four, two up to nine, three beyond, one less for a differing first
letter); the deletion keys are shaped by the same budget, so that a key meets only parts
that can be within it. Compiled because a search measures a few hundred spellings per query
part and the build makes keys for every distinct part of a million names.
"""

from __future__ import annotations

import numpy as np
from numba import njit


FNV_OFFSET = np.uint64(0xCBF29CE484222325)
FNV_PRIME = np.uint64(0x100000001B3)
DELETION_MARK = 126  # "~", as in the former string keys "p~word"
MIN_FUZZY_KEY_LENGTH = 4  # deletions of shorter parts would meet half the list
MIN_DOUBLE_DELETION_LENGTH = 5  # shorter parts are not allowed two typos


# -- spellings: deletion keys and the typo budget ----------------------------------------------


# Deletion keys live in spaces of their own, so that a key only meets keys that can lead
# to a pair within the typo budget (`edit_similarity`): four-letter parts may differ by
# one edit, longer parts by two when they start with the same letter, parts of ten
# letters and more by two whatever their first letter.
SHORT_SINGLE = 1  # four-letter parts: the part and its one-letter deletions
LONG_SINGLE = 2  # longer parts: the part and its one-letter deletions
LONG_DOUBLE = 3  # longer parts: two-letter deletions, keyed with the part's first letter too
VERY_LONG_DOUBLE = 4  # from ten letters, two typos may include the first letter: the same, unkeyed
VERY_LONG = 10

# The three helpers below are called with constants (a key space, the first letter 0, "no letter
# skipped"), which numba types as literals and would compile a copy of each helper for, once per
# constant and per caller (38 copies): their types are given instead, so each compiles once.


@njit("(int64, int64, int64, uint32[::1], int64, int64)", cache=True)
def _deletion_hash(kind: int, space: int, first: int, text: np.ndarray, skip_a: int, skip_b: int) -> np.uint64:
    h = FNV_OFFSET
    h = (h ^ np.uint64(kind)) * FNV_PRIME
    h = (h ^ np.uint64(DELETION_MARK + space)) * FNV_PRIME
    h = (h ^ np.uint64(first)) * FNV_PRIME
    for i in range(len(text)):
        if i != skip_a and i != skip_b:
            h = (h ^ np.uint64(text[i])) * FNV_PRIME
    return h


@njit("(int64, int64, int64, uint32[::1], uint64[::1], int64)", cache=True)
def _single_level(kind: int, space: int, first: int, text: np.ndarray, out: np.ndarray, n: int) -> int:
    """The part and its one-letter deletions, into out[n:]; the new n."""
    out[n] = _deletion_hash(kind, space, first, text, -1, -1)
    n += 1
    for i in range(len(text)):
        out[n] = _deletion_hash(kind, space, first, text, i, -1)
        n += 1
    return n


@njit("(int64, int64, int64, uint32[::1], uint64[::1], int64)", cache=True)
def _double_level(kind: int, space: int, first: int, text: np.ndarray, out: np.ndarray, n: int) -> int:
    """The part's two-letter deletions, into out[n:]; the new n."""
    for i in range(len(text)):
        for j in range(i + 1, len(text)):
            out[n] = _deletion_hash(kind, space, first, text, i, j)
            n += 1
    return n


@njit(cache=True)
def listed_deletion_hashes(kind: int, text: np.ndarray) -> np.ndarray:
    """Deletion keys a list part is stored under (SymSpell): distinct, sorted."""
    length = len(text)
    if length < MIN_FUZZY_KEY_LENGTH:
        return np.empty(0, dtype=np.uint64)
    if length < MIN_DOUBLE_DELETION_LENGTH:
        out = np.empty(length + 1, dtype=np.uint64)
        _single_level(kind, SHORT_SINGLE, 0, text, out, 0)
        return np.unique(out)
    doubles = length * (length - 1) // 2
    out = np.empty(length + 1 + (2 if length >= VERY_LONG else 1) * doubles, dtype=np.uint64)
    n = _single_level(kind, LONG_SINGLE, 0, text, out, 0)
    n = _double_level(kind, LONG_DOUBLE, text[0], text, out, n)
    if length >= VERY_LONG:
        _double_level(kind, VERY_LONG_DOUBLE, 0, text, out, n)
    return np.unique(out)


@njit(cache=True)
def query_deletion_hashes(kind: int, text: np.ndarray) -> np.ndarray:
    """Deletion keys a query part looks up: each pair of spellings within the typo budget
    shares one, and few others do."""
    length = len(text)
    if length < MIN_FUZZY_KEY_LENGTH:
        return np.empty(0, dtype=np.uint64)
    if length < MIN_DOUBLE_DELETION_LENGTH:
        # One edit: against four-letter parts and the one-letter deletions of five-letter ones.
        out = np.empty(2 * (length + 1), dtype=np.uint64)
        n = _single_level(kind, SHORT_SINGLE, 0, text, out, 0)
        _single_level(kind, LONG_SINGLE, 0, text, out, n)
        return np.unique(out)
    doubles = length * (length - 1) // 2
    very_long = length >= VERY_LONG
    out = np.empty((4 if very_long else 3) * (length + 1) + (3 if very_long else 2) * doubles, dtype=np.uint64)
    n = _single_level(kind, SHORT_SINGLE, 0, text, out, 0)  # one edit from a four-letter part
    n = _single_level(kind, LONG_SINGLE, 0, text, out, n)  # one or two edits (one deletion each side)
    n = _single_level(kind, LONG_DOUBLE, text[0], text, out, n)  # two insertions, or one and a swap
    n = _double_level(kind, LONG_SINGLE, 0, text, out, n)  # two deletions, or one each side
    n = _double_level(kind, LONG_DOUBLE, text[0], text, out, n)  # two substitutions
    if very_long:  # the same against very long parts, whatever their first letter
        n = _single_level(kind, VERY_LONG_DOUBLE, 0, text, out, n)
        _double_level(kind, VERY_LONG_DOUBLE, 0, text, out, n)
    return np.unique(out)


@njit(cache=True)
def all_deletion_hashes(kinds: np.ndarray, texts: np.ndarray, offsets: np.ndarray, eligible: np.ndarray):
    """`listed_deletion_hashes` of every eligible vocabulary part: (hashes, part numbers)."""
    total = 0
    for part in range(len(kinds)):
        if eligible[part]:
            length = offsets[part + 1] - offsets[part]
            total += length + 1 + (2 if length >= VERY_LONG else 1) * (length * (length - 1) // 2)
    hashes = np.empty(total, dtype=np.uint64)
    parts = np.empty(total, dtype=np.int32)
    n = 0
    for part in range(len(kinds)):
        if eligible[part]:
            found = listed_deletion_hashes(kinds[part], texts[offsets[part]:offsets[part + 1]])
            hashes[n:n + len(found)] = found
            parts[n:n + len(found)] = part
            n += len(found)
    return hashes[:n], parts[:n]


PATTERN_ASCII = 128  # characters whose bit set `osa_pattern` keeps at their own code


# Compiled for the code points it is given: uint32 as the vocabulary stores them, against a part's
# 16-byte slot (uint8) in the lookup; int64 as a name's packing holds them (the scorer). Given, not
# inferred: some callers pass the cutoff as a constant, which numba would compile another copy for.
@njit(["(uint32[::1], uint32[::1], int64, int32[:, ::1])", "(uint32[::1], uint8[::1], int64, int32[:, ::1])",
       "(int64[::1], int64[::1], int64, int32[:, ::1])"], cache=True)
def osa_distance(a: np.ndarray, b: np.ndarray, cutoff: int, rows: np.ndarray) -> int:
    """Optimal string alignment distance (a swap of neighbours is one edit); cutoff + 1
    when it is larger than cutoff. Mirrors rapidfuzz's OSA.distance. `rows` is scratch
    of shape (3, at least len(b) + 1)."""
    la, lb = len(a), len(b)
    if abs(la - lb) > cutoff:
        return cutoff + 1
    if lb + 1 > rows.shape[1]:
        rows = np.empty((3, lb + 1), dtype=np.int32)
    before, previous, current = 0, 1, 2
    for j in range(lb + 1):
        rows[previous, j] = j
    for i in range(1, la + 1):
        rows[current, 0] = i
        row_best = i
        for j in range(1, lb + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(rows[previous, j] + 1, rows[current, j - 1] + 1, rows[previous, j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, rows[before, j - 2] + 1)
            rows[current, j] = value
            if value < row_best:
                row_best = value
        if row_best > cutoff:
            return cutoff + 1
        before, previous, current = previous, current, before
    return min(rows[previous, lb], cutoff + 1)


@njit(cache=True)
def osa_pattern(a: np.ndarray):
    """What `osa_distance_bits` needs of a text of at most 64 characters: per character,
    the bit set of the positions where it stands. An ASCII character's set is read at its
    code (masks[0:128]), without a search: most texts compared are ASCII, and searching the
    text's distinct characters for each character compared took half the lookup's time.
    Other characters are listed in `chars`, their sets at masks[128 + k]. An empty text
    gives an empty pattern: `typo_similarity` then measures with the table."""
    if len(a) == 0:
        return np.empty(0, dtype=np.uint32), np.empty(0, dtype=np.uint64)
    chars = np.empty(len(a), dtype=np.uint32)
    masks = np.zeros(PATTERN_ASCII + len(a), dtype=np.uint64)
    distinct = 0
    for i in range(len(a)):
        code = a[i]
        if code < PATTERN_ASCII:
            at = code
        else:
            at = -1
            for c in range(distinct):
                if chars[c] == code:
                    at = PATTERN_ASCII + c
                    break
            if at < 0:
                chars[distinct] = code
                at = PATTERN_ASCII + distinct
                distinct += 1
        masks[at] |= np.uint64(1) << np.uint64(i)
    return chars[:distinct], masks[:PATTERN_ASCII + distinct]


@njit(cache=True, inline='always')
def osa_distance_bits(chars: np.ndarray, masks: np.ndarray, length: int, b: np.ndarray, cutoff: int) -> int:
    """`osa_distance` of a text given by `osa_pattern` (1 to 64 characters) and b, one
    machine word per character of b instead of a row of the table (Hyyrö 2003, the
    algorithm rapidfuzz uses for OSA)."""
    one = np.uint64(1)
    vp = ~np.uint64(0)
    vn = np.uint64(0)
    d0 = np.uint64(0)
    pm_old = np.uint64(0)
    distance = length
    last = one << np.uint64(length - 1)
    for j in range(len(b)):
        code = b[j]
        if code < PATTERN_ASCII:
            pm = masks[code]
        else:
            pm = np.uint64(0)
            for c in range(len(chars)):
                if chars[c] == code:
                    pm = masks[PATTERN_ASCII + c]
                    break
        transposed = (((~d0) & pm) << one) & pm_old
        d0 = (((pm & vp) + vp) ^ vp) | pm | vn | transposed
        hp = vn | ~(d0 | vp)
        hn = d0 & vp
        if hp & last:
            distance += 1
        elif hn & last:
            distance -= 1
        hp = (hp << one) | one
        hn = hn << one
        vp = hn | ~(d0 | hp)
        vn = hp & d0
        pm_old = pm
    return distance if distance <= cutoff else cutoff + 1


@njit(cache=True, inline='always')
def typo_budget(a: np.ndarray, b: np.ndarray) -> int:
    """Edits `align.edit_similarity` accepts between a and b; 0 when none, or when their
    lengths alone differ by more."""
    la, lb = len(a), len(b)
    shortest = min(la, lb)
    if shortest <= 3:
        return 0
    if shortest <= 4:
        budget = 1
    else:
        budget = (2 if shortest <= 9 else 3) - (1 if a[0] != b[0] else 0)
    if budget <= 0 or abs(la - lb) > budget:
        return 0
    return budget


@njit(cache=True, inline='always')
def typo_similarity(a: np.ndarray, b: np.ndarray, chars: np.ndarray, masks: np.ndarray, rows: np.ndarray) -> float:
    """`align.edit_similarity` on code point arrays: 1 - edits / length within the typo budget.
    With a's `osa_pattern` (made once by a caller comparing a with many texts) the distance
    is measured bit-parallel, else (empty pattern) with the table of `osa_distance`."""
    budget = typo_budget(a, b)
    if budget == 0:
        return 0.0
    if len(masks) > 0:
        distance = osa_distance_bits(chars, masks, len(a), b, budget)
    else:
        distance = osa_distance(a, b, budget, rows)
    if distance > budget:
        return 0.0
    return 1.0 - distance / max(len(a), len(b))


@njit(cache=True)
def edit_similarity(a: np.ndarray, b: np.ndarray, rows: np.ndarray) -> float:
    """`typo_similarity` without a pattern."""
    return typo_similarity(a, b, np.empty(0, dtype=np.uint32), np.empty(0, dtype=np.uint64), rows)


@njit(cache=True, inline='always')
def same_codes(a: np.ndarray, b: np.ndarray) -> bool:
    if len(a) != len(b):
        return False
    for k in range(len(a)):
        if a[k] != b[k]:
            return False
    return True
