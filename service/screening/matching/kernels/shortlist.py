"""The names of a search worth scoring in full: the best-estimated name of the most
promising entities, a runner-up alias, a few long shots; with their entities, weak flags
and texts read in one pass. Compiled so that the candidates and their estimates never go
to Python and back.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .candidates import BlockingRules, BlockingTables, Probes, candidates
from .hashes import prefetch
from .packing import IndexNames


@njit(cache=True)
def shortlist(
    names: np.ndarray,
    estimates: np.ndarray,
    name_entity: np.ndarray,
    threshold: float,
    wanted: int,
    long_shots: int,
    margin: float,
    floor: float,
) -> np.ndarray:
    """The best-estimated name of the most promising entities, an entity's runner-up alias
    when estimated about as well, and the best names of a few long shots below the margin."""
    keep = np.flatnonzero(estimates >= floor)
    most = 4 * wanted
    if len(keep) > most:
        # Only names estimated at least as well as the most-th best can be among the first
        # most in (estimate, name) order: select those before sorting (thousands -> ~most).
        negated = -estimates[keep]
        cutoff = np.partition(negated, most - 1)[most - 1]
        keep = keep[negated <= cutoff]
    by_name = keep[np.argsort(names[keep])]
    order = by_name[np.argsort(-estimates[by_name], kind="mergesort")][:most]
    n = len(order)
    entities = name_entity[names[order]]
    # Each entity's first (best-estimated) name, through a small hash set of the entities.
    first = np.zeros(n, dtype=np.bool_)
    size = 16
    while size < 2 * n:
        size *= 2
    seen = np.full(size, -1, dtype=np.int64)
    slot_of = np.empty(n, dtype=np.int64)  # the entity's slot
    for i in range(n):
        entity = entities[i]
        slot = (entity * 2654435761) & (size - 1)
        while seen[slot] != -1 and seen[slot] != entity:
            slot = (slot + 1) & (size - 1)
        if seen[slot] == -1:
            seen[slot] = entity
            first[i] = True
        slot_of[i] = slot
    chosen = np.empty(n, dtype=np.int64)
    shots = np.empty(n, dtype=np.int64)
    is_chosen = np.zeros(size, dtype=np.bool_)  # per entity slot
    has_runner = np.zeros(size, dtype=np.bool_)
    chosen_count = shot_count = 0
    for i in range(n):
        if not first[i]:
            continue
        if estimates[order[i]] >= threshold - margin:
            if chosen_count < wanted - long_shots:
                chosen[chosen_count] = i
                chosen_count += 1
                is_chosen[slot_of[i]] = True
        elif shot_count < long_shots:
            shots[shot_count] = i
            shot_count += 1
    runners = np.empty(n, dtype=np.int64)
    runner_count = 0
    for i in range(n):
        if first[i] or estimates[order[i]] < threshold - margin:
            continue
        slot = slot_of[i]
        if is_chosen[slot] and not has_runner[slot]:
            # The entity's second name in estimate order, once.
            has_runner[slot] = True
            runners[runner_count] = i
            runner_count += 1
    out = np.empty(chosen_count + runner_count + shot_count, dtype=np.int32)
    for c in range(chosen_count):
        out[c] = names[order[chosen[c]]]
    for r in range(runner_count):
        out[chosen_count + r] = names[order[runners[r]]]
    for s in range(shot_count):
        out[chosen_count + runner_count + s] = names[order[shots[s]]]
    return out


@njit(cache=True)
def shortlisted_names(names: np.ndarray, name_entity: np.ndarray, name_weak: np.ndarray, text_offsets: np.ndarray,
                      text_blob: np.ndarray):
    """Each name's entity, weak flag and text (`MatchIndex._names`): rows [name, (entity, weak,
    end of its text)] and the UTF-8 texts back to back. The index's arrays are far apart in
    memory; read here, one name's waits overlap the next's, which a Python loop's do not."""
    count = len(names)
    rows = np.empty((count, 3), dtype=np.int64)
    for k in range(count):
        prefetch(name_entity, names[k])
        prefetch(name_weak, names[k])
    total = 0
    for k in range(count):
        total += text_offsets[names[k] + 1] - text_offsets[names[k]]
        prefetch(text_blob, text_offsets[names[k]])
    texts = np.empty(total, dtype=np.uint8)
    end = 0
    for k in range(count):
        name = names[k]
        start = end
        end += text_offsets[name + 1] - text_offsets[name]
        texts[start:end] = text_blob[text_offsets[name]:text_offsets[name + 1]]
        rows[k, 0] = name_entity[name]
        rows[k, 1] = name_weak[name]
        rows[k, 2] = end
    return rows, texts


class ShortlistRules(NamedTuple):
    threshold: float
    wanted: int  # entities scored in full, long shots included
    long_shots: int  # of those, entities estimated below the margin
    margin: float  # entities estimated this far below the threshold may still reach it
    floor: float  # estimates below it are never shortlisted


@njit(cache=True)
def shortlisted_candidates(listed: IndexNames, rules: ShortlistRules, probes: Probes, tables: BlockingTables,
                           blocking: BlockingRules):
    """`candidates`, `shortlist` and `shortlisted_names` in one call: the shortlisted names and
    their entities, weak flags and texts. The thousands of candidates and their estimates stay
    here instead of going to Python and back (two calls fewer, two arrays not made objects)."""
    names, estimates = candidates(probes, tables, blocking)
    chosen = shortlist(names, estimates, listed.entity, rules.threshold, rules.wanted, rules.long_shots,
                       rules.margin, rules.floor)
    rows, texts = shortlisted_names(chosen, listed.entity, listed.weak, listed.text_offsets, listed.text_bytes)
    return chosen, rows, texts
