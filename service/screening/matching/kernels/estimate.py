"""The estimated score of each candidate name: the scorer's formula
(`alignment.alignment_score`) applied to each query part's best match in the name, with
initials standing for unmatched full parts. Compiled as part of the candidate kernel, which
estimates thousands of names per query.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .packing import ROLE_GLUED, ROLE_INITIAL, ROLE_NAME, ROLE_UNCONTRADICTING


@njit(cache=True)
def match_initials(
    probe_roles, probe_letters, initial_similarity, similarity, records,
) -> np.ndarray:
    """An initial stands for one unmatched full part with its letter on the other side
    ("R. Rivas" against "Salma Rivas": the R of Rivas is taken by Rivas itself). Returns,
    per candidate, a bit set of the probes matched so (probes past the 63rd are not marked)."""
    probe_count = len(probe_roles)
    by_initial = np.zeros(len(records), dtype=np.int64)
    query_initials = False
    for k in range(probe_count):
        if probe_roles[k] == ROLE_INITIAL:
            query_initials = True
    for row in range(len(records)):
        record = records[row]
        listed_initials = np.uint32(record.letters >> np.uint64(32))
        if not query_initials and listed_initials == 0:
            continue
        matched = 0
        for k in range(probe_count):
            if probe_roles[k] == ROLE_NAME and similarity[row, k] > 0:
                matched += 1
        free_parts = np.int64(record.part_count) - matched
        free_initials = np.uint32(listed_initials)
        for k in range(probe_count):
            letter = probe_letters[k]
            if letter < 0 or similarity[row, k] != 0:
                continue
            bit = np.uint32(1) << np.uint32(letter)
            if probe_roles[k] == ROLE_INITIAL:
                taken = False
                for j in range(probe_count):
                    if probe_roles[j] == ROLE_NAME and probe_letters[j] == letter and similarity[row, j] > 0:
                        taken = True
                letters = record.repeated_letters if taken else np.uint32(record.letters & np.uint64(0xFFFFFFFF))
                if free_parts > 0 and (np.uint32(letters) & bit) != 0:
                    free_parts -= 1
                    similarity[row, k] = initial_similarity
                    if k < 63:
                        by_initial[row] |= np.int64(1) << np.int64(k)
            elif (free_initials & bit) != 0:
                free_initials &= ~bit
                similarity[row, k] = initial_similarity
                if k < 63:
                    by_initial[row] |= np.int64(1) << np.int64(k)
    return by_initial


@njit(cache=True)
def probe_totals(probe_weights, probe_roles):
    """The query's weight and contradicting weight as `estimate` counts them (glued parts aside)."""
    query_weight = 0.0
    query_contradicting = 0.0
    for k in range(len(probe_weights)):
        if probe_roles[k] != ROLE_GLUED:
            query_weight += probe_weights[k]
            if probe_roles[k] != ROLE_UNCONTRADICTING:
                query_contradicting += probe_weights[k]
    return query_weight, query_contradicting


@njit(cache=True)
def single_estimate(value: float, weight: float, query_weight: float, query_contradicting: float,
                     listed_weight: float, listed_contradicting: float, conflict: float, query_extra: float,
                     list_extra: float) -> float:
    """`estimate` of a name that one full query part of `weight` matches at `value` and no other
    part or initial does: the same operations, so the same float."""
    pair = (weight + weight) / 2
    return _estimate_of(pair, pair * value, weight, weight, weight, weight, False, query_weight, query_contradicting,
                        listed_weight, listed_contradicting, conflict, query_extra, list_extra)


# Typed, not inferred: `single_estimate` passes `by_initial` as the constant False, which numba
# would compile a copy for.
@njit("(float64, float64, float64, float64, float64, float64, boolean, float64, float64, float64, float64, "
      "float64, float64, float64)", cache=True)
def _estimate_of(evidence: float, achieved: float, query_mass: float, listed_mass: float,
                 query_contradicting_mass: float, listed_contradicting_mass: float, by_initial: bool,
                 query_weight: float, query_contradicting: float, listed_weight: float, listed_contradicting: float,
                 conflict: float, query_extra: float, list_extra: float) -> float:
    """`score.alignment_score`'s formula on the matched parts' sums (see `estimate`)."""
    # Several probes may claim the same listed part: never count more than there is.
    if not by_initial:
        evidence = query_mass = listed_mass = min(evidence, min(query_weight, listed_weight))
    else:
        query_mass = min(query_mass, query_weight)
        listed_mass = min(listed_mass, listed_weight)
        evidence = min(evidence, (query_weight + listed_weight) / 2)
    achieved = min(achieved, evidence)
    conflicting = max(min(query_contradicting - query_contradicting_mass,
                          listed_contradicting - listed_contradicting_mass), 0.0)
    denominator = (
        evidence
        + conflict * conflicting
        + query_extra * max(query_weight - query_mass - conflicting, 0.0)
        + list_extra * max(listed_weight - listed_mass - conflicting, 0.0)
    )
    return achieved / denominator if denominator > 0 else 0.0


@njit(cache=True)
def estimate(probe_weights, probe_roles, role_weights, penalties, similarity, by_initial, records):
    """`score.alignment_score` with each query part aligned to its best match in the name.

    A pair weighs the mean of its two parts' weights. Both parts weigh the same except
    where an initial stands for a full part (`by_initial`): "K." for "Kristina" weighs
    (0.5 + 1) / 2 and uses up the whole of "Kristina", as the scorer counts it."""
    probe_count = len(probe_weights)
    query_weight, query_contradicting = probe_totals(probe_weights, probe_roles)
    full_weight, initial_weight = role_weights[0], role_weights[1]
    conflict, query_extra, list_extra = penalties[0], penalties[1], penalties[2]
    estimates = np.zeros(len(records), dtype=np.float64)
    for row in range(len(records)):
        evidence = achieved = query_mass = listed_mass = query_contradicting_mass = listed_contradicting_mass = 0.0
        initials = by_initial[row]
        for k in range(probe_count):
            value = similarity[row, k]
            if value > 0:
                query_part = probe_weights[k]
                listed_part = query_part
                if k < 63 and (initials >> np.int64(k)) & 1:
                    listed_part = full_weight if probe_roles[k] == ROLE_INITIAL else initial_weight
                pair = (query_part + listed_part) / 2
                evidence += pair
                achieved += pair * value
                query_mass += query_part
                listed_mass += listed_part
                if probe_roles[k] != ROLE_UNCONTRADICTING:
                    query_contradicting_mass += query_part
                    listed_contradicting_mass += listed_part
        estimates[row] = _estimate_of(
            evidence, achieved, query_mass, listed_mass, query_contradicting_mass, listed_contradicting_mass,
            initials != 0, query_weight, query_contradicting, np.float64(records[row].weight),
            np.float64(records[row].contradicting_weight), conflict, query_extra, list_extra)
    return estimates
