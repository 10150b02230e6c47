"""Pairing the parts of two names, and the name score.

The engine's one implementation of the alignment rules: candidate pairs best first, each
part used once (`pair_up`), fathers' names weakened (`scoring`), parts that glue
(`glue_either_way`), repeated parts dropped (`drop_repeats`), then the score with its
penalties for parts left over (`alignment_score`). Compiled because a search scores its
shortlisted names in one call, and a single comparison is one call too.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .packing import PART_NAME, PART_UNCONTRADICTING
from .spelling import edit_similarity, osa_distance, same_codes


# -- comparison: the scores of the shortlisted names ----------------------------------------------

# What a name's score still needs after its alignment: the joined letters (`joined_rule`).
SCORE_DONE = 0
SCORE_JOINED_OTHER_COUNT = 1  # below JOINED_SIMILARITY, part counts differ: `joined_similarity`
SCORE_JOINED_SAME_COUNT = 2  # below it, same part and letter counts: the same letters split elsewhere?

LONGEST_GLUED_RUN = 4  # "Plat Ono Vich" -> "Platonovich"
LARGEST_TYPO_BUDGET = 3  # align.edit_similarity's, for the longest parts


class ScoreRules(NamedTuple):
    """The constants of the alignment and the name score (`score`, `align`), per kind of name."""

    penalties: np.ndarray  # conflict, query_extra, list_extra
    without_full_part_cap: float
    joined_score: float  # the same letters spaced differently
    joined_typo_score: float  # the same with one typo
    joined_typo_min_length: int
    least_similarity: float  # glued parts at least this alike
    fathers_factor: float  # a father's name aligned with a person's own name


@njit(cache=True)
def could_glue(free_one, roles_one, letters_one, free_other, letters_other) -> bool:
    """Whether a free full part of one side could equal a run of adjacent free parts of the
    other glued together (`align._glue_runs`): only if their lengths are within a typo budget."""
    for i in range(len(free_one)):
        if not free_one[i] or roles_one[i] != PART_NAME:
            continue
        for start in range(len(free_other)):
            if not free_other[start]:
                continue
            length = letters_other[start]
            end = start + 1
            while end - start < LONGEST_GLUED_RUN and end < len(free_other) and free_other[end]:
                length += letters_other[end]
                end += 1
                if abs(length - letters_one[i]) <= LARGEST_TYPO_BUDGET:
                    return True
    return False


# `glue`, `_glue_runs` and `_drop_repeats` are called with constants (which side, a pair count of
# 0), which numba types as literals and would compile a copy for, once per constant: their types
# are given instead. Parts' code points and numbers are int64, as both a search's query and a
# comparison alone hold them; flags bool.
@njit("(int64[::1], int64[::1], int64[::1], boolean[::1], boolean[::1], int64[::1], int64[::1], boolean[::1], "
      "boolean[::1], int64[::1], int32[:, ::1], float64, boolean, int64[:, ::1], float64[::1], int64)", cache=True)
def _glue_runs(one_codes, one_at, one_roles, one_syllabic, free_one, other_codes, other_at, other_syllabic, free_other,
               glued, rows, least: float, one_is_query: bool, pairs, pair_values, pair_count: int) -> int:
    """Free full parts of one side equal, or similar enough, to a run of adjacent free parts of
    the other glued together ("Patr ushev" / "Patrushev"), each with its best run; appended to
    pairs as ranges (see `pair_up`). Parts' code points are one_codes[one_at[i]:one_at[i + 1]];
    `glued` is scratch, long enough. Returns the new pair count."""
    for i in range(len(free_one)):
        if not free_one[i] or one_roles[i] != PART_NAME:
            continue
        token = one_codes[one_at[i]:one_at[i + 1]]
        best, best_start, best_end = 0.0, -1, -1
        for start in range(len(free_other)):
            if not free_other[start]:
                continue
            length = other_at[start + 1] - other_at[start]
            glued[:length] = other_codes[other_at[start]:other_at[start + 1]]
            syllabic = one_syllabic[i] or other_syllabic[start]
            end = start + 1
            while end - start < LONGEST_GLUED_RUN and end < len(free_other) and free_other[end]:
                part = other_codes[other_at[end]:other_at[end + 1]]
                glued[length:length + len(part)] = part
                length += len(part)
                syllabic = syllabic or other_syllabic[end]
                end += 1
                if same_codes(token, glued[:length]):
                    value = 1.0
                elif syllabic:
                    continue  # Han, Hangul: a different character is another name, not a typo
                else:
                    value = edit_similarity(token, glued[:length], rows)
                if value >= least and (best_start < 0 or value > best):
                    best, best_start, best_end = value, start, end
        if best_start >= 0:
            free_one[i] = False
            free_other[best_start:best_end] = False
            if one_is_query:
                pairs[pair_count, 0], pairs[pair_count, 1], pairs[pair_count, 2], pairs[pair_count, 3] = (
                    i, i + 1, best_start, best_end)
            else:
                pairs[pair_count, 0], pairs[pair_count, 1], pairs[pair_count, 2], pairs[pair_count, 3] = (
                    best_start, best_end, i, i + 1)
            pair_values[pair_count] = best
            pair_count += 1
    return pair_count


@njit("(int64[::1], int64[::1], int64[::1], boolean[::1], boolean[::1], int64[::1], int64[::1], int64[::1], "
      "boolean[::1], boolean[::1], int32[:, ::1], float64, int64[:, ::1], float64[::1], int64)", cache=True)
def glue(query_codes, query_at, query_roles, query_syllabic, free_query,
         listed_codes, listed_at, listed_roles, listed_syllabic, free_listed,
         rows, least: float, pairs, pair_values, pair_count: int) -> int:
    """After `pair_up`, parts left over glued: a free query part to a run of list parts, then
    a free list part to a run of query parts. query_at and listed_at: where each part's code
    points start, and the end. Returns the new pair count."""
    glued = np.empty(max(query_at[len(query_at) - 1], listed_at[len(listed_at) - 1]), dtype=np.int64)
    pair_count = _glue_runs(query_codes, query_at, query_roles, query_syllabic, free_query,
                            listed_codes, listed_at, listed_syllabic, free_listed, glued, rows, least, True,
                            pairs, pair_values, pair_count)
    return _glue_runs(listed_codes, listed_at, listed_roles, listed_syllabic, free_listed,
                      query_codes, query_at, query_syllabic, free_query, glued, rows, least, False,
                      pairs, pair_values, pair_count)


@njit(cache=True, inline='always')
def pair_up(query_count, listed_count, listed_rows, similarity, query_weights, listed_weights,
             values, weights, queries, listeds, order, free_query, free_listed, pairs, pair_values) -> int:
    """`align.align`'s pairing over columns (list part j's column is similarity[listed_rows[j]]):
    the candidate pairs sorted best first, (similarity, weight, -distance, i, j) descending as
    `align` sorts its tuples, then each part used once. Fills pairs [pair, (first query part,
    end, first list part, end)] (one part each; `glue` adds runs), pair_values and the free
    flags; returns the number of pairs. values, weights,
    queries, listeds and order are scratch of query_count * listed_count."""
    candidates = 0
    for j in range(listed_count):
        for i in range(query_count):
            value = similarity[listed_rows[j], i]
            if value > 0.0:
                values[candidates] = value
                weights[candidates] = query_weights[i] + listed_weights[j]
                queries[candidates] = i
                listeds[candidates] = j
                candidates += 1
    for a in range(candidates):
        order[a] = a
    for a in range(1, candidates):  # insertion sort: a few dozen pairs
        c = order[a]
        b = a - 1
        while b >= 0 and _pair_before(c, order[b], values, weights, queries, listeds):
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = c
    free_query[:] = True
    free_listed[:] = True
    pair_count = 0
    for a in range(candidates):
        c = order[a]
        i, j = queries[c], listeds[c]
        if free_query[i] and free_listed[j]:
            free_query[i] = False
            free_listed[j] = False
            pairs[pair_count, 0], pairs[pair_count, 1], pairs[pair_count, 2], pairs[pair_count, 3] = i, i + 1, j, j + 1
            pair_values[pair_count] = values[c]
            pair_count += 1
    return pair_count


@njit(cache=True, inline='always')
def aligned_score(pair_count, pairs, pair_values, any_query, any_listed, free_query, free_listed,
                   query_weights, query_roles, query_texts, query_letter_total,
                   listed_weights, listed_roles, listed_texts, letter_total, penalties, without_full_part_cap,
                   joined_score):
    """After `pair_up` and `glue`: repeated parts dropped, then `alignment_score`; (score,
    SCORE_*: what `joined_rule` still does with it). any_query and any_listed: whether parts
    were left free before the repeats went."""
    if not any_listed and any_query:
        _drop_repeats(free_query, query_texts, pairs, pair_count, 0)
    if not any_query and any_listed:
        _drop_repeats(free_listed, listed_texts, pairs, pair_count, 1)
    score = _alignment_score(pair_count, pairs, pair_values, query_weights, query_roles,
                             listed_weights, listed_roles, free_query, free_listed, penalties,
                             without_full_part_cap)
    need = SCORE_DONE
    if score < joined_score:
        if len(listed_weights) != len(query_weights):
            need = SCORE_JOINED_OTHER_COUNT
        elif letter_total == query_letter_total:
            need = SCORE_JOINED_SAME_COUNT
    return score, need


@njit("(boolean[::1], int64[::1], int64[:, ::1], int64, int64)", cache=True)
def _drop_repeats(free: np.ndarray, texts: np.ndarray, pairs: np.ndarray, pair_count: int, side: int) -> None:
    """"Sergey Sergey Shoigu": a part left over on one side (0 the query's, 1 the list name's)
    whose text is aligned already adds nothing, unless it stands against another name."""
    for k in range(len(free)):
        if free[k]:
            for p in range(pair_count):
                for m in range(pairs[p, 2 * side], pairs[p, 2 * side + 1]):
                    if texts[m] == texts[k]:
                        free[k] = False
                if not free[k]:
                    break


@njit(cache=True, inline='always')
def _pair_before(a: int, b: int, values, weights, queries, listeds) -> bool:
    """Whether candidate pair a sorts before b in `align`'s descending tuple order."""
    if values[a] != values[b]:
        return values[a] > values[b]
    if weights[a] != weights[b]:
        return weights[a] > weights[b]
    distance_a, distance_b = abs(queries[a] - listeds[a]), abs(queries[b] - listeds[b])
    if distance_a != distance_b:
        return distance_a < distance_b
    if queries[a] != queries[b]:
        return queries[a] > queries[b]
    return listeds[a] > listeds[b]


@njit(cache=True)
def _leftover(free: np.ndarray, weights: np.ndarray, roles: np.ndarray):
    left = 0.0
    contradicting = 0.0
    for position in range(len(free)):
        if free[position]:
            left += weights[position]
            if roles[position] != PART_UNCONTRADICTING:
                contradicting += weights[position]
    return left, contradicting


@njit(cache=True)
def _alignment_score(pair_count, pairs, pair_values, query_weights, query_roles, listed_weights, listed_roles,
                     free_query, free_listed, penalties, without_full_part_cap) -> float:
    """The name score (`score` describes it): each pair's similarity weighted by the mean of its
    parts' weights, over that weight plus the penalties for parts left over."""
    achieved = 0.0
    evidence = 0.0
    full_part_aligned = False
    for p in range(pair_count):
        weight = 0.0
        for i in range(pairs[p, 0], pairs[p, 1]):
            weight += query_weights[i]
        for j in range(pairs[p, 2], pairs[p, 3]):
            weight += listed_weights[j]
        weight /= 2
        achieved += pair_values[p] * weight
        evidence += weight
        full_part_aligned = full_part_aligned or (
            query_roles[pairs[p, 0]] == PART_NAME and listed_roles[pairs[p, 2]] == PART_NAME
        )
    if achieved == 0.0:
        return 0.0
    if not full_part_aligned:
        achieved = min(achieved, evidence * without_full_part_cap)
    query_left, query_contradicting = _leftover(free_query, query_weights, query_roles)
    listed_left, listed_contradicting = _leftover(free_listed, listed_weights, listed_roles)
    conflicting = min(query_contradicting, listed_contradicting)
    denominator = (
        evidence
        + penalties[0] * conflicting
        + penalties[1] * (query_left - conflicting)
        + penalties[2] * (listed_left - conflicting)
    )
    return achieved / denominator


@njit(cache=True)
def joined_rule(score: float, need: int, query_joined: np.ndarray, listed_joined: np.ndarray, rules: ScoreRules,
                rows: np.ndarray) -> float:
    """The score with the joined letters' rule applied (`normalize.joined_letters` of both names
    as code points): names split into other parts ("SiemensAG" / "Siemens AG", at most one typo
    in a long name), or the same letters split elsewhere ("Hon-gsop" / "Hong-sop")."""
    same = same_codes(query_joined, listed_joined)
    if need == SCORE_JOINED_SAME_COUNT:
        return rules.joined_score if same else score
    if need != SCORE_JOINED_OTHER_COUNT:
        return score
    value = 0.0
    shortest = min(len(query_joined), len(listed_joined))
    if same and len(query_joined) > 0:
        value = rules.joined_score
    elif (shortest >= rules.joined_typo_min_length and abs(len(query_joined) - len(listed_joined)) <= 1
          and osa_distance(query_joined, listed_joined, 1, rows) <= 1):
        value = rules.joined_typo_score
    return max(score, value)
