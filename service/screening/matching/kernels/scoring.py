"""The alignment and score applied: to a search's shortlisted names against one query
(`alignment_scores`, `joined_scores`) and to one pair of names (`pair_score`, what
`score_names` runs). Compiled so that a comparison is one call, not a Python call per
pair of parts.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .alignment import (
    SCORE_DONE,
    SCORE_JOINED_OTHER_COUNT,
    SCORE_JOINED_SAME_COUNT,
    ScoreRules,
    aligned_score,
    could_glue,
    glue,
    joined_rule,
    pair_up,
)
from .packing import (
    QUERY_ABJAD,
    QUERY_FORM,
    QUERY_HEAD,
    QUERY_PHONETIC,
    QUERY_ROLE,
    QUERY_SYLLABIC,
    IndexNames,
    packed_ends,
    packed_part,
    packed_starts,
    packed_texts,
    part_codes,
    texts_and_fathers,
)
from .similarity import PartRows, PartRules, similarities


class ScoredQuery(NamedTuple):
    """A search's query as the scorer reads it."""

    weights: np.ndarray  # float64 per query part
    roles: np.ndarray  # int64, PART_*: as a pair's packing holds them (`pair.PackedName`), for the shared kernels
    texts: np.ndarray  # int64: equal for query parts of equal text
    letters: np.ndarray  # int64: letters in each query part
    packed: np.ndarray  # the query parts as `similarity_matrix` reads them (QUERY_*)
    joined: np.ndarray  # code points of the query's `NormalizedName.joined`


class ScorerTables(NamedTuple):
    """Per vocabulary part, what the scorer reads; made once per index."""

    weights: np.ndarray  # float64
    roles: np.ndarray  # int8, PART_*
    letters: np.ndarray  # int64, letters in its text
    texts: np.ndarray  # int64, equal for parts of equal text
    syllabic: np.ndarray  # bool: Han or Hangul, kept as written (form != text)
    codes: np.ndarray  # uint32, the parts' texts back to back
    offsets: np.ndarray


@njit(cache=True)
def alignment_scores(
    query: ScoredQuery,
    names: np.ndarray,  # int64 name numbers
    listed: IndexNames,
    rows: np.ndarray,  # int64 `distinct_parts` of the names: the rows of `similarity`
    similarity: np.ndarray,  # float64 [row, query part]: a `similarity_column` per row
    parts: ScorerTables,
    rules: ScoreRules,
):
    """The query against many names: the alignment over the similarity matrix (the caller
    checks that the query has no patronymic markers, `pair_alignment` weighs fathers' names),
    glued parts, repeated parts, the score. Returns (scores, what each still needs: SCORE_*,
    see `joined_scores`, and the alignments: pair_count [name], pairs [name, pair, (first query
    part, end, first list part, end)] best first then glued ones, their values [name, pair],
    and flags of the parts left over, unmatched_query [name, query part] and unmatched_listed
    [name, list part])."""
    query_weights, query_roles, query_texts, query_letters, query_packed = (
        query.weights, query.roles, query.texts, query.letters, query.packed)
    name_start, name_parts = listed.start, listed.parts
    part_weights, part_roles, part_letters, part_texts, part_syllabic, codes, offsets = parts
    penalties, without_full_part_cap, joined_score = rules.penalties, rules.without_full_part_cap, rules.joined_score
    min_similarity = rules.least_similarity
    count = len(names)
    query_count = len(query_weights)
    query_letter_total = 0
    for i in range(query_count):
        query_letter_total += query_letters[i]
    longest = 0
    for n in range(count):
        longest = max(longest, name_start[names[n] + 1] - name_start[names[n]])
    scores = np.zeros(count, dtype=np.float64)
    needs = np.zeros(count, dtype=np.int8)
    pair_counts = np.zeros(count, dtype=np.int64)
    pairs_out = np.zeros((count, query_count, 4), dtype=np.int64)
    values_out = np.zeros((count, query_count), dtype=np.float64)
    unmatched_query = np.zeros((count, query_count), dtype=np.bool_)
    unmatched_listed = np.zeros((count, longest), dtype=np.bool_)
    # Scratch for one name at a time, allocated once.
    values = np.empty(query_count * longest, dtype=np.float64)
    weights = np.empty(query_count * longest, dtype=np.float64)
    queries = np.empty(query_count * longest, dtype=np.int64)
    listeds = np.empty(query_count * longest, dtype=np.int64)
    order = np.empty(query_count * longest, dtype=np.int64)
    free_query = np.empty(query_count, dtype=np.bool_)
    listed_rows = np.empty(longest, dtype=np.int64)
    listed_weights_scratch = np.empty(longest, dtype=np.float64)
    listed_roles_scratch = np.empty(longest, dtype=np.int64)  # int64 as the query's (`ScoredQuery.roles`)
    listed_letters_scratch = np.empty(longest, dtype=np.int64)
    listed_texts_scratch = np.empty(longest, dtype=np.int64)
    # For the test of glued parts: the query parts' code points, and a list name's when asked.
    query_codes, query_at, query_syllabic = packed_texts(query_packed, query_count)
    listed_at = np.zeros(longest + 1, dtype=np.int64)
    listed_syllabic = np.empty(longest, dtype=np.bool_)
    glue_rows = np.empty((3, 64), dtype=np.int32)
    for n in range(count):
        first = name_start[names[n]]
        listed_count = name_start[names[n] + 1] - first
        listed_weights = listed_weights_scratch[:listed_count]
        listed_roles = listed_roles_scratch[:listed_count]
        listed_letters = listed_letters_scratch[:listed_count]
        listed_texts = listed_texts_scratch[:listed_count]
        letter_total = 0
        for k in range(listed_count):
            part = name_parts[first + k]
            listed_rows[k] = np.searchsorted(rows, part)
            listed_weights[k] = part_weights[part]
            listed_roles[k] = part_roles[part]
            listed_letters[k] = part_letters[part]
            listed_texts[k] = part_texts[part]
            letter_total += part_letters[part]
        free_listed = unmatched_listed[n, :listed_count]
        pairs, pair_values = pairs_out[n], values_out[n]
        pair_count = pair_up(query_count, listed_count, listed_rows, similarity, query_weights, listed_weights,
                              values, weights, queries, listeds, order, free_query, free_listed, pairs, pair_values)
        pair_counts[n] = pair_count
        any_query, any_listed = free_query.any(), free_listed.any()
        if any_query and any_listed and (
            could_glue(free_query, query_roles, query_letters, free_listed, listed_letters)
            or could_glue(free_listed, listed_roles, listed_letters, free_query, query_letters)
        ):
            # Lengths allow it: do the texts? (Rarely: 25 of 1,660 such names in the benchmark.)
            for k in range(listed_count):
                part = name_parts[first + k]
                listed_at[k + 1] = listed_at[k] + offsets[part + 1] - offsets[part]
                listed_syllabic[k] = part_syllabic[part]
            listed_codes = part_codes(name_parts, first, first + listed_count, codes, offsets)
            pair_count = glue(query_codes, query_at, query_roles, query_syllabic, free_query,
                              listed_codes, listed_at[:listed_count + 1], listed_roles, listed_syllabic, free_listed,
                              glue_rows, min_similarity, pairs, pair_values, pair_count)
            pair_counts[n] = pair_count
            any_query, any_listed = free_query.any(), free_listed.any()
        scores[n], needs[n] = aligned_score(
            pair_count, pairs, pair_values, any_query, any_listed, free_query, free_listed,
            query_weights, query_roles, query_texts, query_letter_total,
            listed_weights, listed_roles, listed_texts, letter_total, penalties, without_full_part_cap, joined_score,
        )
        unmatched_query[n] = free_query
    return scores, needs, pair_counts, pairs_out, values_out, unmatched_query, unmatched_listed


@njit(cache=True, inline='always')
def _pair_rules(part_constants, score_constants, penalties):
    """The rules of a comparison alone, which come as arrays (`score.PAIR_RULES`): passing a
    NamedTuple from Python costs about a microsecond, a tenth of such a comparison."""
    part_rules = PartRules(part_constants[0], part_constants[1], part_constants[2], part_constants[3],
                           part_constants[4], part_constants[5])
    rules = ScoreRules(penalties, score_constants[0], score_constants[1], score_constants[2],
                       np.int64(score_constants[3]), score_constants[4], score_constants[5])
    return part_rules, rules


@njit(cache=True, inline='always')
def _compare_pair(query_packed, query_weights, query_joined, listed_packed, listed_weights, listed_joined,
                  part_rules: PartRules, rules: ScoreRules):
    """One name against another, for two names packed alike (`pair.PackedName`: per part its
    PART_* role, per part its letters, per part whether a patronymic marker, then the parts as
    QUERY_*; the parts' weights; the joined letters' code points): the part similarities
    (`similarities`), fathers' names weakened, the alignment, the score and the joined letters' rule. Returns
    (score, SCORE_*: which way out of the alignment it took, pair count, pairs as `pair_up`
    gives them, their values, their reasons (REASON_*, -1 for glued parts), free query and
    list parts)."""
    penalties, without_full_part_cap, joined_score = rules.penalties, rules.without_full_part_cap, rules.joined_score
    role_mismatch_factor, min_similarity = rules.fathers_factor, rules.least_similarity
    query_count, listed_count = len(query_weights), len(listed_weights)
    query, listed = query_packed[3 * query_count:], listed_packed[3 * listed_count:]
    query_roles, query_letters = query_packed[0:query_count], query_packed[query_count:2 * query_count]
    listed_roles, listed_letters = listed_packed[0:listed_count], listed_packed[listed_count:2 * listed_count]
    query_starts = packed_starts(query, query_count)
    listed_starts = packed_starts(listed, listed_count)
    query_texts, query_fathers = texts_and_fathers(query, query_starts, query_packed[2 * query_count:3 * query_count])
    listed_texts, listed_fathers = texts_and_fathers(listed, listed_starts,
                                                     listed_packed[2 * listed_count:3 * listed_count])
    similarity = np.zeros((listed_count, query_count), dtype=np.float64)
    reasons = np.zeros((listed_count, query_count), dtype=np.int8)
    scratch = np.empty((3, 64), dtype=np.int32)
    # The list name's parts as `similarities` reads them: ranges of `listed` and arrays.
    text_start, text_end = np.empty(listed_count, dtype=np.int64), np.empty(listed_count, dtype=np.int64)
    skeleton_end, symbol_end = np.empty(listed_count, dtype=np.int64), np.empty(listed_count, dtype=np.int64)
    syllabic, abjad = np.empty(listed_count, dtype=np.bool_), np.empty(listed_count, dtype=np.bool_)
    form, role, phonetic = (np.empty(listed_count, dtype=np.int64), np.empty(listed_count, dtype=np.int64),
                            np.empty(listed_count, dtype=np.int64))
    for j in range(listed_count):
        at = listed_starts[j]
        text_start[j] = at + QUERY_HEAD
        text_end[j], skeleton_end[j], symbol_end[j] = packed_ends(listed, at)
        syllabic[j], abjad[j] = listed[at + QUERY_SYLLABIC] != 0, listed[at + QUERY_ABJAD] != 0
        form[j], role[j], phonetic[j] = listed[at + QUERY_FORM], listed[at + QUERY_ROLE], listed[at + QUERY_PHONETIC]
    list_parts = PartRows(listed, text_start, text_end, listed, text_end, skeleton_end, listed, skeleton_end, symbol_end,
                          syllabic, form, role, phonetic, abjad)
    for i in range(query_count):
        similarities(packed_part(query, query_starts[i]), list_parts, part_rules, scratch, similarity, reasons, i)
    if query_fathers.any() and listed_fathers.any():
        # `align`: with fathers' names on both sides, a father's name stands weaker against a person's own.
        for j in range(listed_count):
            for i in range(query_count):
                if similarity[j, i] > 0.0 and query_fathers[i] != listed_fathers[j]:
                    similarity[j, i] *= role_mismatch_factor
    size = query_count * listed_count
    values, weights = np.empty(size, dtype=np.float64), np.empty(size, dtype=np.float64)
    queries, listeds = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    order = np.empty(size, dtype=np.int64)
    free_query, free_listed = np.empty(query_count, dtype=np.bool_), np.empty(listed_count, dtype=np.bool_)
    pairs = np.empty((min(query_count, listed_count), 4), dtype=np.int64)
    pair_values = np.empty(min(query_count, listed_count), dtype=np.float64)
    pair_count = pair_up(query_count, listed_count, np.arange(listed_count), similarity, query_weights,
                          listed_weights, values, weights, queries, listeds, order, free_query, free_listed,
                          pairs, pair_values)
    any_query, any_listed = free_query.any(), free_listed.any()
    if any_query and any_listed and (
        could_glue(free_query, query_roles, query_letters, free_listed, listed_letters)
        or could_glue(free_listed, listed_roles, listed_letters, free_query, query_letters)
    ):
        query_codes, query_at, query_syllabic = packed_texts(query, query_count)
        listed_codes, listed_at, listed_syllabic = packed_texts(listed, listed_count)
        pair_count = glue(query_codes, query_at, query_roles, query_syllabic, free_query,
                          listed_codes, listed_at, listed_roles, listed_syllabic, free_listed,
                          scratch, min_similarity, pairs, pair_values, pair_count)
        any_query, any_listed = free_query.any(), free_listed.any()
    query_letter_total, letter_total = 0, 0
    for i in range(query_count):
        query_letter_total += query_letters[i]
    for j in range(listed_count):
        letter_total += listed_letters[j]
    score, need = aligned_score(
        pair_count, pairs, pair_values, any_query, any_listed, free_query, free_listed,
        query_weights, query_roles, query_texts, query_letter_total,
        listed_weights, listed_roles, listed_texts, letter_total, penalties, without_full_part_cap, joined_score,
    )
    if need != SCORE_DONE:
        score = joined_rule(score, need, query_joined, listed_joined, rules, scratch)
    pair_reasons = np.full(pair_count, -1, dtype=np.int8)
    for p in range(pair_count):
        if pairs[p, 1] - pairs[p, 0] == 1 and pairs[p, 3] - pairs[p, 2] == 1:
            pair_reasons[p] = reasons[pairs[p, 2], pairs[p, 0]]
    return score, need, pair_count, pairs, pair_values, pair_reasons, free_query, free_listed


@njit(cache=True)
def pair_score(query_packed, query_weights, query_joined, listed_packed, listed_weights, listed_joined,
               part_constants, score_constants, penalties):
    """`_compare_pair`'s score and way out alone: what `score_names` asks, without the
    alignment made into Python objects."""
    part_rules, rules = _pair_rules(part_constants, score_constants, penalties)
    score, need, _, _, _, _, _, _ = _compare_pair(query_packed, query_weights, query_joined, listed_packed,
                                                  listed_weights, listed_joined, part_rules, rules)
    return score, need


@njit(cache=True)
def pair_alignment(query_packed, query_weights, query_joined, listed_packed, listed_weights, listed_joined,
                   part_constants, score_constants, penalties):
    """`_compare_pair` with the alignment: (score, way out, pairs, their values and reasons,
    free query parts, free list parts), the pairs cut to their count."""
    part_rules, rules = _pair_rules(part_constants, score_constants, penalties)
    score, need, count, pairs, values, reasons, free_query, free_listed = _compare_pair(
        query_packed, query_weights, query_joined, listed_packed, listed_weights, listed_joined, part_rules, rules)
    return score, need, pairs[:count], values[:count], reasons, free_query, free_listed


@njit(cache=True)
def joined_scores(
    scores: np.ndarray,
    needs: np.ndarray,  # as `alignment_scores` gives them: changed in place
    names: np.ndarray,
    query: ScoredQuery,
    listed_names: IndexNames,
    parts: ScorerTables,
    rules: ScoreRules,
) -> int:
    """`joined_rule` for the names `alignment_scores` left needing SCORE_JOINED_*; each becomes
    SCORE_DONE. Their joined letters (`normalize.joined_letters`): for a name written in ASCII,
    its letters and digits in lower case, read off the text's bytes; for others, its parts' forms, which are their texts unless Han or Hangul. A name with Han or
    Hangul parts keeps its need, for Python. Returns how many names still need Python."""
    query_joined = query.joined
    name_start, name_parts = listed_names.start, listed_names.parts
    text_offsets, text_bytes = listed_names.text_offsets, listed_names.text_bytes
    part_syllabic, codes, offsets = parts.syllabic, parts.codes, parts.offsets
    rows = np.empty((3, 64), dtype=np.int32)
    # Code points as uint32, as the query's (`code_points`) and as a pair's: one `joined_rule` for all.
    listed = np.empty(64, dtype=np.uint32)
    for n in range(len(names)):
        need = needs[n]
        if need != SCORE_JOINED_OTHER_COUNT and need != SCORE_JOINED_SAME_COUNT:
            continue
        first, last = text_offsets[names[n]], text_offsets[names[n] + 1]
        if last - first > len(listed):
            listed = np.empty(last - first, dtype=np.uint32)
        length = 0
        ascii = True
        for i in range(first, last):
            byte = text_bytes[i]
            if byte >= 128:
                ascii = False
                break
            if 65 <= byte <= 90:
                byte += 32
            if 97 <= byte <= 122 or 48 <= byte <= 57:
                listed[length] = byte
                length += 1
        joined = listed[:length]
        if not ascii:
            first_part, last_part = name_start[names[n]], name_start[names[n] + 1]
            if part_syllabic[name_parts[first_part:last_part]].any():
                continue  # joined by the forms, which are not in `codes`: left to Python
            joined = part_codes(name_parts, first_part, last_part, codes, offsets).astype(np.uint32)
        scores[n] = joined_rule(scores[n], np.int64(need), query_joined, joined, rules, rows)
        needs[n] = SCORE_DONE
    left = 0
    for n in range(len(names)):
        if needs[n] != SCORE_DONE:
            left += 1
    return left
