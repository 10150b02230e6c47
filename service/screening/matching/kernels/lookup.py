"""The vocabulary parts found under a query part's lookup keys, with their similarity.

A query part's keys (its deletion keys, symbol, phonetic and skeleton keys) are looked up
in the vocabulary's sorted hashes; each part found is scored by the kind of key that found
it and by `typo_similarity`. Compiled because a part's keys find a few hundred parts, and
the build runs it for every distinct list part (`similar_parts_of_range`, without the GIL).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .hashes import hashed_ranges, prefetch
from .packing import SHORT_ABJAD, SHORT_LENGTH
from .spelling import osa_pattern, query_deletion_hashes, typo_similarity


# Bits for the kinds of lookup key that found a part.
SPELLING_HIT = 1
SYMBOL_HIT = 2
PHONETIC_HIT = 4
SKELETON_HIT = 8


@njit(cache=True, inline='always')
def _hit_similarity(text, other, chars, masks, rows, hit, other_abjad, abjad,
                    variant_similarity, phonetic_similarity, skeleton_similarity) -> float:
    """What `token_similarity` gives a part found under the kinds of key in `hit`."""
    same_first = len(other) > 0 and len(text) > 0 and other[0] == text[0]
    value = typo_similarity(text, other, chars, masks, rows)
    if hit & SYMBOL_HIT:
        value = max(value, variant_similarity)
    if (hit & PHONETIC_HIT) and same_first:
        value = max(value, phonetic_similarity)
    if (hit & SKELETON_HIT) and other_abjad != abjad:
        value = max(value, skeleton_similarity)
    return value


class LookupTables(NamedTuple):
    """The vocabulary's lookup keys and texts, made once per index."""

    hashes: np.ndarray  # uint64 lookup-key hashes, sorted
    buckets: np.ndarray  # `hash_buckets` of hashes
    parts: np.ndarray  # int32, the part each hash was stored for
    texts: np.ndarray  # uint32 code points of every part, back to back
    offsets: np.ndarray
    short_texts: np.ndarray  # `short_text_table`


class LookupRules(NamedTuple):
    """The similarities a kind of key gives (`align`'s constants)."""

    variant: float
    phonetic: float
    skeleton: float
    least: float  # below it, a part found is not kept


@njit(cache=True)
def similar_parts(
    text: np.ndarray,
    kind: int,
    fuzzy: bool,
    extra_hashes: np.ndarray,
    extra_kinds: np.ndarray,
    abjad: bool,
    exact: int,  # the part with the query part's own key, found or not, or -1
    tables: LookupTables,
    rules: LookupRules,
):
    """`Vocabulary` parts found under a query part's lookup keys, with the similarity
    `token_similarity` gives them, and the `exact` part at 1.0: (parts sorted,
    similarities). `fuzzy` adds the deletion keys; `extra_hashes` are the symbol,
    phonetic and skeleton keys."""
    lookup_hashes, lookup_buckets, lookup_parts, texts, offsets, short_texts = tables
    variant_similarity, phonetic_similarity, skeleton_similarity, min_similarity = rules
    if fuzzy:
        spelling = query_deletion_hashes(kind, text)
    else:
        spelling = np.empty(0, dtype=np.uint64)
    key_count = len(spelling) + len(extra_hashes)
    keys = np.empty(key_count, dtype=np.uint64)
    bits = np.empty(key_count, dtype=np.uint8)
    for k in range(key_count):
        if k < len(spelling):
            keys[k], bits[k] = spelling[k], np.uint8(SPELLING_HIT)
        else:
            keys[k], bits[k] = extra_hashes[k - len(spelling)], extra_kinds[k - len(spelling)]
    lows, highs = hashed_ranges(lookup_hashes, lookup_buckets, keys)
    total = 0
    for k in range(key_count):
        total += highs[k] - lows[k]
        if highs[k] > lows[k]:
            prefetch(lookup_parts, lows[k])
    # Distinct parts, each with the kinds of key that found it: a sort of the few hundred hits,
    # which stay in cache, instead of marks in per-part arrays (a cache miss a part).
    hits = np.empty(total, dtype=np.int64)
    n = 0
    for k in range(key_count):
        for position in range(lows[k], highs[k]):
            hits[n] = (np.int64(lookup_parts[position]) << 8) | bits[k]
            n += 1
    hits.sort()
    parts = np.empty(total, dtype=np.int32)
    found_by = np.zeros(total, dtype=np.uint8)
    distinct = 0
    for n in range(total):
        part = np.int32(hits[n] >> 8)
        if distinct == 0 or parts[distinct - 1] != part:
            parts[distinct] = part
            distinct += 1
        found_by[distinct - 1] |= np.uint8(hits[n] & 0xFF)
    # Each hit's slot head (length, script) read in a loop of its own: the loads do not wait
    # on each other, so their cache misses overlap, and the loop below finds the slots in cache.
    heads = np.empty(distinct, dtype=np.uint8)
    for position in range(distinct):
        heads[position] = short_texts[parts[position], 0]
    similarity = np.empty(distinct, dtype=np.float64)
    rows = np.empty((3, 64), dtype=np.int32)
    # The query part's bit pattern, made once for all hits (the table beyond 64 characters).
    chars, masks = osa_pattern(text if len(text) <= 64 else text[:0])
    kept = 0
    for position in range(distinct):
        part = parts[position]
        head = heads[position]
        length = head & SHORT_LENGTH
        # Two calls, not one on a chosen array: numba can not unify the slot's bytes with code points.
        if length != SHORT_LENGTH:
            value = _hit_similarity(text, short_texts[part, 1:1 + length], chars, masks, rows, found_by[position],
                                    (head & SHORT_ABJAD) != 0, abjad,
                                    variant_similarity, phonetic_similarity, skeleton_similarity)
        else:
            value = _hit_similarity(text, texts[offsets[part]:offsets[part + 1]], chars, masks, rows,
                                    found_by[position], (head & SHORT_ABJAD) != 0, abjad,
                                    variant_similarity, phonetic_similarity, skeleton_similarity)
        if part == exact:
            value = 1.0
        if value >= min_similarity:
            parts[kept] = part
            similarity[kept] = value
            kept += 1
    if exact >= 0:
        at = np.searchsorted(parts[:kept], exact)
        if at == kept or parts[at] != exact:
            # Not found under any key (parts too short or in a script without deletion keys).
            parts = np.concatenate((parts[:at], np.array([exact], dtype=np.int32), parts[at:kept]))
            similarity = np.concatenate((similarity[:at], np.ones(1), similarity[at:kept]))
            kept += 1
    return parts[:kept], similarity[:kept]


class OwnParts(NamedTuple):
    """The vocabulary's own parts as `similar_parts_of_range` looks them up."""

    kinds: np.ndarray  # per part: the kind code's character number
    fuzzy: np.ndarray  # bool per part
    abjad: np.ndarray  # bool per part
    named: np.ndarray  # bool per part: a full name part, the only kind a probe looks up
    extra_offsets: np.ndarray  # per part: where its extra keys start in extra_hashes
    extra_hashes: np.ndarray
    extra_kinds: np.ndarray


@njit(cache=True, nogil=True)
def similar_parts_of_range(first: int, last: int, own: OwnParts, tables: LookupTables, rules: LookupRules):
    """`similar_parts` of the vocabulary's own full name parts first..last - 1, each its
    own exact part: (counts per part, parts, similarities), back to back. Runs without
    the GIL, so a build can share the parts among threads."""
    kinds, fuzzy, abjad, named, extra_offsets, extra_hashes, extra_kinds = own
    texts, offsets = tables.texts, tables.offsets
    counts = np.zeros(last - first, dtype=np.int64)
    capacity = 64 * (last - first) + 64
    found_parts = np.empty(capacity, dtype=np.int32)
    found_values = np.empty(capacity, dtype=np.float64)
    n = 0
    for part in range(first, last):
        if not named[part]:
            continue
        parts, values = similar_parts(
            texts[offsets[part]:offsets[part + 1]], kinds[part], fuzzy[part],
            extra_hashes[extra_offsets[part]:extra_offsets[part + 1]],
            extra_kinds[extra_offsets[part]:extra_offsets[part + 1]], abjad[part], part, tables, rules,
        )
        if n + len(parts) > capacity:
            capacity = 2 * (n + len(parts))
            found_parts = np.concatenate((found_parts[:n], np.empty(capacity - n, dtype=np.int32)))
            found_values = np.concatenate((found_values[:n], np.empty(capacity - n, dtype=np.float64)))
        found_parts[n:n + len(parts)] = parts
        found_values[n:n + len(parts)] = values
        n += len(parts)
        counts[part - first] = len(parts)
    return counts, found_parts[:n], found_values[:n]
