"""The similarity of two name parts, and the matrix of query parts against list parts.

`similarities` is the engine's one implementation of the part similarity rule (same text,
script, initial, typo, variant, phonetic, consonant skeleton) with its reason; a search
applies it to the parts of its shortlisted names (`similarity_matrix`), a single comparison
to the parts of two names (`scoring.pair_score`). Compiled because a search compares each
query part with a few hundred list parts.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .packing import (
    INLINE_SYMBOLS,
    PART_ABJAD,
    PART_FIRST_SYMBOLS,
    PART_FLAGS,
    PART_FORM,
    PART_PHONETIC,
    PART_ROLE,
    PART_SYLLABIC,
    PART_SYMBOL_COUNT,
    PART_SYMBOL_START,
    SHORT_LENGTH,
    SKELETON_SLOT,
    packed_part,
    packed_starts,
)
from .spelling import osa_distance, osa_pattern, same_codes, typo_similarity


# -- the similarity of query parts to the list parts of the names scored in full -------------------

# `align.token_similarity`'s reasons, as the matrix below gives them (`REASONS` names them).
REASON_NONE = 0
REASON_EXACT = 1
REASON_SCRIPT = 2
REASON_INITIAL = 3
REASON_TYPO = 4
REASON_VARIANT = 5
REASON_PHONETIC = 6
REASONS = ("", "exact", "script", "initial", "typo", "variant", "phonetic")

# Part roles as `token_similarity` tells them apart.
SIMILARITY_NAME = 0
SIMILARITY_INITIAL = 1
SIMILARITY_NUMBER = 2
SIMILARITY_OTHER = 3  # particles, titles, legal forms, generic words


@njit(cache=True, inline='always')
def _share_symbol(a: np.ndarray, b: np.ndarray) -> bool:
    for x in range(len(a)):
        for y in range(len(b)):
            if a[x] == b[y]:
                return True
    return False


@njit(cache=True, inline='always')
def _skeleton_similarity(a: np.ndarray, b: np.ndarray, a_syllabic: bool, b_syllabic: bool, rows: np.ndarray,
                         skeleton_similarity: float, near_skeleton_similarity: float) -> float:
    """`align._skeleton_similarity`'s value."""
    if a_syllabic or b_syllabic or len(a) < 3 or len(b) < 3 or a[0] != b[0]:
        return 0.0
    if same_codes(a, b):
        return skeleton_similarity
    if min(len(a), len(b)) >= 4 and osa_distance(a, b, 1, rows) <= 1:
        return near_skeleton_similarity
    return 0.0


class PartRules(NamedTuple):
    """The similarities the part rule gives (`align`'s constants)."""

    initial: float
    variant: float
    phonetic: float
    skeleton: float
    near_skeleton: float
    least: float  # below it, two parts are different names


class PartRows(NamedTuple):
    """List parts as `similarities` reads them: part r's code points are
    texts[text_start[r]:text_end[r]], its skeleton and symbol numbers likewise; then per part
    whether Han or Hangul, its form's, role's (SIMILARITY_*) and phonetic key's numbers
    (-1: none) and whether written in an abjad. Code points and numbers are int64, flags bool:
    a search's rows and a comparison alone's are typed alike, so that `similarities` is
    compiled once."""

    texts: np.ndarray
    text_start: np.ndarray
    text_end: np.ndarray
    skeletons: np.ndarray
    skeleton_start: np.ndarray
    skeleton_end: np.ndarray
    symbols: np.ndarray
    symbol_start: np.ndarray
    symbol_end: np.ndarray
    syllabic: np.ndarray
    form: np.ndarray
    role: np.ndarray
    phonetic: np.ndarray
    abjad: np.ndarray


@njit(cache=True)
def similarities(part, rows: PartRows, rules: PartRules, scratch: np.ndarray, values: np.ndarray,
                 reasons: np.ndarray, column: int) -> None:
    """`align.token_similarity(a, b)` of one part a against every part b (row r of values and
    reasons, at `column`): the same floats (and REASON_*) in the same order of tests. `part`,
    as `packing.packed_part` reads it: its code points, skeleton and symbol numbers, whether Han
    or Hangul (syllabic), its form's, role's (SIMILARITY_*) and phonetic key's numbers (-1:
    none), whether written in an abjad. The b parts: `rows`. One call per query part, the loop inside: array arguments cost reference counting
    on each call, which per pair of parts took a third of the time."""
    a, a_skeleton, a_symbols, a_syllabic, a_form, a_role, a_phonetic, a_abjad = part
    (texts, text_start, text_end, skeletons, skeleton_start, skeleton_end, symbols, symbol_start, symbol_end,
     syllabic, form, role, phonetic, abjad) = rows
    initial_similarity, variant_similarity, phonetic_similarity = rules.initial, rules.variant, rules.phonetic
    skeleton_similarity, near_skeleton_similarity, min_similarity = rules.skeleton, rules.near_skeleton, rules.least
    chars, masks = osa_pattern(a if len(a) <= 64 else a[:0])
    for r in range(len(text_start)):
        b = texts[text_start[r]:text_end[r]]
        b_syllabic, b_role = syllabic[r], role[r]
        value, reason = 0.0, REASON_NONE
        if same_codes(a, b):
            if a_syllabic == b_syllabic and (not a_syllabic or a_form == form[r]):
                value, reason = 1.0, REASON_EXACT
            elif not (a_syllabic and b_syllabic):
                value, reason = 1.0, REASON_SCRIPT
        elif a_syllabic and b_syllabic:
            pass
        elif a_role == SIMILARITY_NUMBER or b_role == SIMILARITY_NUMBER:
            pass
        elif a_role == SIMILARITY_INITIAL or b_role == SIMILARITY_INITIAL:
            if (len(a) > 0 and len(b) > 0 and a[0] == b[0] and a_role <= SIMILARITY_INITIAL
                    and b_role <= SIMILARITY_INITIAL):
                value, reason = initial_similarity, REASON_INITIAL
        else:
            value, reason = typo_similarity(a, b, chars, masks, scratch), REASON_TYPO
            if value < variant_similarity and len(a_symbols) > 0 and _share_symbol(
                    a_symbols, symbols[symbol_start[r]:symbol_end[r]]):
                value, reason = variant_similarity, REASON_VARIANT
            if value < phonetic_similarity and a_phonetic >= 0 and a_phonetic == phonetic[r] and a[0] == b[0]:
                value, reason = phonetic_similarity, REASON_PHONETIC
            if a_abjad != abjad[r] and value < skeleton_similarity:
                other = _skeleton_similarity(a_skeleton, skeletons[skeleton_start[r]:skeleton_end[r]], a_syllabic,
                                             b_syllabic, scratch, skeleton_similarity, near_skeleton_similarity)
                # `max` of (value, reason) tuples: on a tie the greater reason wins, "script" only over "phonetic".
                if other > value or (other == value and reason == REASON_PHONETIC):
                    value, reason = other, REASON_SCRIPT
            if value < min_similarity:
                value, reason = 0.0, REASON_NONE
        values[r, column] = value
        reasons[r, column] = reason


class PartTable(NamedTuple):
    """Every vocabulary part as `similarity_matrix` reads it, made once per index."""

    table: np.ndarray  # uint8 [part, 64], see PART_*
    table_ints: np.ndarray  # int32 [part, 16]: the same memory
    codes: np.ndarray  # what does not fit in the rows: texts, symbols and skeletons
    offsets: np.ndarray
    symbols: np.ndarray
    skeletons: np.ndarray
    skeleton_offsets: np.ndarray


@njit(cache=True)
def similarity_matrix(
    rows: np.ndarray,  # int64 list part numbers
    query_count: int,
    query: np.ndarray,  # int64: the query parts one after another, see QUERY_*
    parts: PartTable,
    rules: PartRules,
):
    """`align.similarity_column` of each list part in `rows` against the query parts, compiled:
    (values [row, query part] float64, reasons [row, query part] int8, REASON_*). The same
    floats, in the same order of tests, as `token_similarity(query part, list part)`.
    Numbers (forms, symbols, phonetic keys) are the vocabulary's; -1 is none."""
    table, table_ints, codes, offsets, symbols, skeletons, skeleton_offsets = parts
    count = len(rows)
    values = np.zeros((count, query_count), dtype=np.float64)
    reasons = np.zeros((count, query_count), dtype=np.int8)
    scratch = np.empty((3, 64), dtype=np.int32)
    # The rows' parts copied out first, in loops whose loads do not wait on each other, so
    # that their cache misses overlap.
    text_at = np.empty(count + 1, dtype=np.int64)
    skeleton_at = np.empty(count + 1, dtype=np.int64)
    symbol_at = np.empty(count + 1, dtype=np.int64)
    text_at[0] = skeleton_at[0] = symbol_at[0] = 0
    row_syllabic = np.empty(count, dtype=np.bool_)
    row_abjad = np.empty(count, dtype=np.bool_)
    # Code points and numbers as int64, as a comparison alone packs them (`scoring._compare_pair`):
    # `similarities` is compiled once, for both.
    row_form = np.empty(count, dtype=np.int64)
    row_role = np.empty(count, dtype=np.int64)
    row_phonetic = np.empty(count, dtype=np.int64)
    for r in range(count):
        part = rows[r]
        length = table[part, 0]
        if length == SHORT_LENGTH:
            length = offsets[part + 1] - offsets[part]
        text_at[r + 1] = text_at[r] + length
        length = table[part, SKELETON_SLOT]
        if length == SHORT_LENGTH:
            length = skeleton_offsets[part + 1] - skeleton_offsets[part]
        skeleton_at[r + 1] = skeleton_at[r] + length
        symbol_at[r + 1] = symbol_at[r] + table_ints[part, PART_SYMBOL_COUNT]
        flags = table_ints[part, PART_FLAGS]
        row_syllabic[r], row_abjad[r] = (flags & PART_SYLLABIC) != 0, (flags & PART_ABJAD) != 0
        row_form[r] = table_ints[part, PART_FORM]
        row_role[r], row_phonetic[r] = table_ints[part, PART_ROLE], table_ints[part, PART_PHONETIC]
    row_texts = np.empty(text_at[count], dtype=np.int64)
    row_skeletons = np.empty(skeleton_at[count], dtype=np.int64)
    row_symbols = np.empty(symbol_at[count], dtype=np.int64)
    for r in range(count):
        part = rows[r]
        if table[part, 0] == SHORT_LENGTH:
            row_texts[text_at[r]:text_at[r + 1]] = codes[offsets[part]:offsets[part + 1]]
        else:
            for k in range(text_at[r + 1] - text_at[r]):
                row_texts[text_at[r] + k] = table[part, 1 + k]
        if table[part, SKELETON_SLOT] == SHORT_LENGTH:
            row_skeletons[skeleton_at[r]:skeleton_at[r + 1]] = skeletons[skeleton_offsets[part]:skeleton_offsets[part + 1]]
        else:
            for k in range(skeleton_at[r + 1] - skeleton_at[r]):
                row_skeletons[skeleton_at[r] + k] = table[part, SKELETON_SLOT + 1 + k]
        symbol_count = symbol_at[r + 1] - symbol_at[r]
        if symbol_count <= INLINE_SYMBOLS:
            for k in range(symbol_count):
                row_symbols[symbol_at[r] + k] = table_ints[part, PART_FIRST_SYMBOLS + k]
        else:
            start = table_ints[part, PART_SYMBOL_START]
            row_symbols[symbol_at[r]:symbol_at[r + 1]] = symbols[start:start + symbol_count]
    list_parts = PartRows(row_texts, text_at[:-1], text_at[1:], row_skeletons, skeleton_at[:-1], skeleton_at[1:],
                          row_symbols, symbol_at[:-1], symbol_at[1:], row_syllabic, row_form, row_role, row_phonetic,
                          row_abjad)
    starts = packed_starts(query, query_count)
    for i in range(query_count):
        similarities(packed_part(query, starts[i]), list_parts, rules, scratch, values, reasons, i)
    return values, reasons
