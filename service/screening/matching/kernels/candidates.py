"""Candidate names of a query, from its probes' postings (`blocking.Blocker` describes the
strategy: which probes bring which names), with their estimated scores (`estimate`).

Compiled because a query gathers thousands of postings, through a small hash table that
stays in cache, and the gathering waits on memory rather than on arithmetic.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import from_dtype, njit, types

from .estimate import estimate, match_initials, probe_totals, single_estimate
from .hashes import bucket_shift, find_pair, prefetch
from .packing import ROLE_GLUED, ROLE_INITIAL, ROLE_NAME


@njit(cache=True)
def _closest(values: np.ndarray, most: int) -> np.ndarray:
    """Positions of the `most` largest values, largest first (stable)."""
    order = np.argsort(-values, kind="mergesort")
    return order[:most]


# Candidate names and their similarity per probe are kept through a small open-addressing
# hash table (keys: name, rows: its row): it stays in cache, where per-name marks over the
# whole list would not.


@njit(cache=True)
def _table(capacity: int, probes: int, record_type):
    size = 64
    while size < 2 * capacity:
        size *= 2
    keys = np.full(size, -1, dtype=np.int32)
    rows = np.empty(size, dtype=np.int32)
    similarity = np.zeros((size // 2, probes), dtype=np.float64)
    records = np.empty(size // 2, dtype=record_type)  # a row's name is its record's
    return keys, rows, similarity, records


FROM_POSTINGS = 0  # part postings, through their copy of the records (`posting_records`)
FROM_SINGLES = 1  # single-part names
FROM_PAIRS = 2  # names with a pair of parts


# A range of postings to gather, with the probe (and its spelling's similarity) that brings it.
GATHER_RANGE = np.dtype([
    ("start", np.int64), ("end", np.int64), ("probe", np.int32), ("value", np.float64), ("source", np.int8),
], align=True)


# Typed, not inferred: called with constants (the source, a count of 0), which numba would compile
# a copy for, once per constant.
@njit((types.Array(from_dtype(GATHER_RANGE), 1, "C"), types.int64, types.int64, types.int64, types.int64,
       types.int64, types.float64), cache=True)
def _add_range(ranges, count: int, source: int, start: int, end: int, probe: int, value: float) -> int:
    """Appends a non-empty range; the new count."""
    if end <= start:
        return count
    if count == len(ranges):
        raise IndexError("more ranges of postings than the candidate kernel's bound")
    entry = ranges[count]
    entry.source, entry.start, entry.end = source, start, end
    entry.probe, entry.value = probe, value
    return count + 1


class Probes(NamedTuple):
    """A query's probes (`blocking.Probe`) back to back, as `candidates` reads them."""

    offsets: np.ndarray  # int64, probe k's found parts are parts[offsets[k]:offsets[k + 1]]
    parts: np.ndarray  # int32, sorted within each probe
    values: np.ndarray  # float64, each found part's similarity to the probe's part
    weights: np.ndarray  # float64 per probe
    roles: np.ndarray  # int8, ROLE_*
    letters: np.ndarray  # int8, first letter a-z as 0-25, -1 when none


class BlockingTables(NamedTuple):
    """The blocking's arrays, made once per index (`blocking.Blocker`)."""

    part_starts: np.ndarray  # part postings: names of part p at postings[part_starts[p]:part_starts[p + 1]]
    single_starts: np.ndarray  # single-part names, by part
    single_names: np.ndarray
    pair_keys: np.ndarray  # uint64 `pair_hash`es, sorted
    pair_buckets: np.ndarray  # `hash_buckets` of pair_keys
    pair_starts: np.ndarray
    pair_names: np.ndarray
    name_parts: np.ndarray
    name_records: np.ndarray  # NAME_RECORD per name
    posting_records: np.ndarray  # name_records[part postings' names]: the same, in postings order (part_starts)
    part_first_letters: np.ndarray  # int8 per vocabulary part: its first letter a-z as 0-25, else -1
    part_value: np.ndarray  # float64 per vocabulary part: scratch, zero between calls


class BlockingRules(NamedTuple):
    """The settings of one call (`blocking.Blocker.kernel_arguments`)."""

    common_part_names: int  # parts in more names than this bring pairs, not all their names
    paired_spellings: int
    initial_codes: int  # pair keys: a part and an initial
    letter_codes: int  # pair keys: a part and another part's first letter
    initial_similarity: float
    role_weights: np.ndarray  # weight of a full name part, of an initial
    penalties: np.ndarray  # conflict, query_extra, list_extra
    floor: float  # names estimated below it may be left out (0: none)


@njit(cache=True)
def candidates(probes: Probes, tables: BlockingTables, rules: BlockingRules):
    """Candidate names (unordered) and their estimated scores; `blocking.Blocker` describes
    the strategy. Which probes bring names:

    - a rare part (in at most `common_part_names` names), or the only full part: all its names,
      except, when the query has another full part or an initial, names that show nothing
      another query part could match (`_rare_part_evidence`);
    - a common part: names that have no other full part, names with it and an initial
      of another query part, and names with it and another common query part (each
      spelling of one with the closest `paired_spellings` of the other).
    """
    probe_offsets, found_parts, found_values, probe_weights, probe_roles, probe_letters = probes
    (part_starts, single_starts, single_names, pair_keys, pair_buckets, pair_starts, pair_names, name_parts,
     name_records, posting_records, part_first_letters, part_value) = tables
    (common_part_names, paired_spellings, initial_codes, letter_codes, initial_similarity, role_weights, penalties,
     floor) = rules
    probe_count = len(probe_weights)
    pair_shift = bucket_shift(pair_buckets)

    # Which probes bring names, and how.
    volume = np.zeros(probe_count, dtype=np.int64)
    for f in range(probe_offsets[probe_count]):
        prefetch(part_starts, found_parts[f])
    brings = np.zeros(probe_count, dtype=np.bool_)
    named = 0
    for k in range(probe_count):
        if probe_roles[k] == ROLE_NAME or probe_roles[k] == ROLE_GLUED:
            if probe_offsets[k + 1] > probe_offsets[k]:
                brings[k] = True
                if probe_roles[k] == ROLE_NAME:
                    named += 1
        for f in range(probe_offsets[k], probe_offsets[k + 1]):
            part = found_parts[f]
            volume[k] += part_starts[part + 1] - part_starts[part]
    query_initials = False
    for k in range(probe_count):
        if probe_roles[k] == ROLE_INITIAL and probe_letters[k] >= 0:
            query_initials = True
    opened = np.zeros(probe_count, dtype=np.bool_)
    common = np.zeros(probe_count, dtype=np.bool_)
    for k in range(probe_count):
        if brings[k]:
            # The only full part opens all its names, unless initials can narrow it down.
            if volume[k] <= common_part_names or (named == 1 and not query_initials):
                opened[k] = True
            else:
                common[k] = True

    needed = _rare_part_evidence(probe_offsets, found_parts, probe_roles, probe_letters, opened, named, query_initials,
                                 part_first_letters)

    # Rare full parts and nothing else that could match (no initials, no common part, no
    # particle found in the list): a name that only one of them brings is estimated on that one
    # alone (`single_estimate`), mostly a third of its similarity or less (another full part
    # is a conflict). The full part with the most postings has its ranges gathered last and
    # leaves out a new name estimated below `floor` that way: no name it leaves out could reach
    # the floor, as every name another probe brings is in the table by then.
    skipping = -1
    if floor > 0 and named >= 2 and not query_initials:
        for k in range(probe_count):
            if probe_roles[k] == ROLE_INITIAL:
                skipping = -2
                break
            if probe_offsets[k + 1] == probe_offsets[k]:
                continue  # found nothing: matches nothing
            if not opened[k]:
                skipping = -2
                break
            if probe_roles[k] == ROLE_NAME and (skipping == -1 or volume[k] > volume[skipping]):
                skipping = k
        skipping = max(skipping, -1)

    # Where the candidates come from: ranges of postings, each for one probe, collected first,
    # so that the table is sized once and one loop gathers them all. (A helper called per
    # posting cost more than the gathering itself: numba passes each array argument with
    # reference counting.)
    # At most, per spelling: its own range, one pair per other probe (its letter or initial)
    # and `paired_spellings` pairs per other common probe.
    most_ranges = probe_offsets[probe_count] * (1 + probe_count * (1 + paired_spellings))
    ranges = np.empty(most_ranges, dtype=GATHER_RANGE)
    range_count = 0
    for step in range(probe_count):
        k = step
        if skipping >= 0:  # the skipping probe's ranges last
            k = skipping if step == probe_count - 1 else (step + 1 if step >= skipping else step)
        if not (opened[k] or common[k]):
            continue
        for f in range(probe_offsets[k], probe_offsets[k + 1]):
            part = found_parts[f]
            if opened[k]:
                # The postings' own copy of the records: read in order, not name by name.
                range_count = _add_range(ranges, range_count, FROM_POSTINGS, part_starts[part], part_starts[part + 1],
                                         k, found_values[f])
            else:
                range_count = _add_range(ranges, range_count, FROM_SINGLES, single_starts[part], single_starts[part + 1],
                                         k, found_values[f])

    # Pairs: a common part with an initial of another query part, or with another common part.
    for k in range(probe_count):
        if not common[k]:
            continue
        for j in range(probe_count):
            letter = probe_letters[j]
            if j == k or probe_roles[j] != ROLE_NAME or letter < 0:
                continue
            if letter == probe_letters[k]:
                # Its own letter stands for another part only when two query parts share it.
                shared = 0
                for m in range(probe_count):
                    if probe_roles[m] == ROLE_NAME and probe_letters[m] == letter:
                        shared += 1
                if shared < 2:
                    continue
            for f in range(probe_offsets[k], probe_offsets[k + 1]):
                row = find_pair(pair_keys, pair_buckets, pair_shift, found_parts[f], initial_codes + letter)
                if row >= 0:
                    range_count = _add_range(ranges, range_count, FROM_PAIRS, pair_starts[row], pair_starts[row + 1],
                                             k, found_values[f])
        if named == 1:
            # "J. Garcia": names with a Garcia and another part or an initial starting with J.
            for j in range(probe_count):
                if probe_roles[j] != ROLE_INITIAL or probe_letters[j] < 0:
                    continue
                for f in range(probe_offsets[k], probe_offsets[k + 1]):
                    row = find_pair(pair_keys, pair_buckets, pair_shift, found_parts[f], letter_codes + probe_letters[j])
                    if row >= 0:
                        range_count = _add_range(ranges, range_count, FROM_PAIRS, pair_starts[row], pair_starts[row + 1],
                                                 k, found_values[f])
    for one in range(probe_count):
        if not common[one]:
            continue
        for other in range(probe_count):
            if other == one or not common[other]:
                continue
            # Every spelling of `one` with the closest few of `other`.
            other_values = found_values[probe_offsets[other]:probe_offsets[other + 1]]
            closest = _closest(other_values, paired_spellings)
            for f in range(probe_offsets[one], probe_offsets[one + 1]):
                for c in closest:
                    g = probe_offsets[other] + c
                    # The other part as int64, as the codes of the calls above are: one `find_pair`.
                    row = find_pair(pair_keys, pair_buckets, pair_shift, found_parts[f], np.int64(found_parts[g]))
                    if row >= 0:
                        range_count = _add_range(ranges, range_count, FROM_PAIRS, pair_starts[row], pair_starts[row + 1],
                                                 one, found_values[f])

    # Gather. A name met again keeps each probe's best similarity; a new name's row gets its
    # NAME_RECORD. The insertion is written out here, once, for the reason above.
    upper = 0
    for r in range(range_count):
        upper += ranges[r].end - ranges[r].start
        # Every range's first postings asked for at once: their cache misses overlap.
        if ranges[r].source == FROM_POSTINGS:
            for p in range(ranges[r].start, min(ranges[r].end, ranges[r].start + 8), 2):
                prefetch(posting_records, p)
        elif ranges[r].source == FROM_SINGLES:
            prefetch(single_names, ranges[r].start)
        else:
            prefetch(pair_names, ranges[r].start)
    for r in range(range_count):
        if ranges[r].source == FROM_SINGLES:
            for p in range(ranges[r].start, ranges[r].end):
                prefetch(name_records, single_names[p])
        elif ranges[r].source == FROM_PAIRS:
            for p in range(ranges[r].start, ranges[r].end):
                prefetch(name_records, pair_names[p])
    keys, rows, similarity, records = _table(max(upper, 32), probe_count, name_records.dtype)
    mask = len(keys) - 1
    count = 0
    query_weight, query_contradicting = probe_totals(probe_weights, probe_roles)
    for r in range(range_count):
        entry = ranges[r]
        source, probe, value = entry.source, entry.probe, entry.value
        need = needed[probe] if source == FROM_POSTINGS else np.uint64(0)
        skips = probe == skipping
        for p in range(entry.start, entry.end):
            if source == FROM_POSTINGS:
                name = posting_records[p].name
                # A name with a single full part always counts (`_rare_part_evidence`).
                if need != 0 and posting_records[p].part_count > 1 and (posting_records[p].letters & need) == 0:
                    continue
            elif source == FROM_SINGLES:
                name = single_names[p]
            else:
                name = pair_names[p]
            slot = (name * 2654435761) & mask
            while True:
                key = keys[slot]
                if key == name:
                    row = rows[slot]
                    break
                if key == -1:
                    # (Listed initials may stand for the other part: such names always go in.)
                    if (skips and source == FROM_POSTINGS and (posting_records[p].letters >> np.uint64(32)) == 0
                            and single_estimate(value, probe_weights[probe], query_weight, query_contradicting,
                                                 np.float64(posting_records[p].weight),
                                                 np.float64(posting_records[p].contradicting_weight),
                                                 penalties[0], penalties[1], penalties[2]) < floor):
                        row = -1
                        break
                    row = count
                    keys[slot] = name
                    rows[slot] = row
                    records[row] = posting_records[p] if source == FROM_POSTINGS else name_records[name]
                    count += 1
                    break
                slot = (slot + 1) & mask
            if row >= 0 and value > similarity[row, probe]:
                similarity[row, probe] = value

    similarity = similarity[:count]
    records = records[:count]
    names = np.empty(count, dtype=np.int32)
    for row in range(count):
        names[row] = records[row].name

    # Probes that brought no names (initials, particles) and common parts, whatever brought
    # their names, are read off each candidate's own parts, through a per-part table of their
    # values: a pair's other part gets its value here.
    pending = False
    for k in range(probe_count):
        if not opened[k] and probe_offsets[k + 1] > probe_offsets[k]:
            pending = True
    if pending:
        for row in range(count):
            prefetch(name_parts, records[row].first_part)
    for k in range(probe_count):
        if opened[k] or probe_offsets[k + 1] == probe_offsets[k]:
            continue
        for f in range(probe_offsets[k], probe_offsets[k + 1]):
            part_value[found_parts[f]] = found_values[f]
        for row in range(count):
            first = records[row].first_part
            for position in range(first, first + records[row].length):
                value = part_value[name_parts[position]]
                if value > similarity[row, k]:
                    similarity[row, k] = value
        for f in range(probe_offsets[k], probe_offsets[k + 1]):
            part_value[found_parts[f]] = 0.0

    by_initial = match_initials(probe_roles, probe_letters, initial_similarity, similarity, records)
    estimates = estimate(probe_weights, probe_roles, role_weights, penalties, similarity, by_initial, records)
    return names, estimates


# Typed, not inferred: `named` and `query_initials` start as constants, which numba would compile
# a copy for before it knows their final types.
@njit("(int64[::1], int32[::1], int8[::1], int8[::1], boolean[::1], int64, boolean, int8[::1])", cache=True)
def _rare_part_evidence(probe_offsets, found_parts, probe_roles, probe_letters, opened, named, query_initials,
                        part_first_letters):
    """What a name brought in by a rare part must show to reach the threshold, per probe, in
    the layout of `NAME_RECORD.letters` (letters one of its other full parts may start with,
    and above them letters its initials may have), or 0 when every name counts. A name with
    a single full part always counts.

    With two or more full parts in the query, a name that matches one of them and has a
    different other full part is a conflict (score at most 1 / 3), the rule that already
    keeps common parts from bringing all their names. A rare part's name therefore counts
    only when it has a single full part, or a full part starting as another query part or
    one of its spellings does (or as a query initial), or an initial of a query part's
    letter. Reading these letters is one look per name, instead of the part reads and the
    estimate that a candidate costs; most of a typo-rich list's names fail it. Scripts
    without Latin first letters are not checked."""
    probe_count = len(probe_roles)
    needed = np.zeros(probe_count, dtype=np.uint64)
    if named < 2 and not (named == 1 and query_initials):
        return needed
    spelled = np.zeros(probe_count, dtype=np.uint32)  # first letters of a probe's own and its spellings' texts
    full_letters = np.uint32(0)
    initial_letters = np.uint32(0)
    for j in range(probe_count):
        letter = probe_letters[j]
        if probe_roles[j] == ROLE_INITIAL and letter >= 0:
            initial_letters |= np.uint32(1) << np.uint32(letter)
        if probe_roles[j] != ROLE_NAME:
            continue
        if letter < 0:
            return needed
        spelled[j] = np.uint32(1) << np.uint32(letter)
        full_letters |= spelled[j]
        for f in range(probe_offsets[j], probe_offsets[j + 1]):
            first = part_first_letters[found_parts[f]]
            if first < 0:
                return needed
            spelled[j] |= np.uint32(1) << np.uint32(first)
    for k in range(probe_count):
        if not opened[k] or probe_roles[k] != ROLE_NAME:
            continue
        others = initial_letters
        for j in range(probe_count):
            if j != k and probe_roles[j] == ROLE_NAME:
                others |= spelled[j]
        needed[k] = np.uint64(others) | (np.uint64(full_letters | initial_letters) << np.uint64(32))
    return needed
