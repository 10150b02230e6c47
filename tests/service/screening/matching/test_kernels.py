"""The compiled kernels agree with the plain definitions they mirror.

Typo finding rests on one promise: any two spellings the scorer accepts as typos of
each other (within the budget of `align.edit_similarity`) and at most two edits apart
share a deletion key. (Parts of ten letters or more may be three edits apart; those
the search reaches as long shots, see `MatchIndex._shortlist`.)
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import OSA

from service.screening.matching import kernels
from service.screening.matching.align import edit_similarity
from service.screening.matching.vocabulary import code_points

LETTERS = "abdeilmnorsu"  # few letters, so that random spellings often come close
words = st.text(alphabet=LETTERS, min_size=1, max_size=12)


def _edited(word: str, edits: list[tuple[int, int, str]]) -> str:
    for kind, at, letter in edits:
        at = at % (len(word) + 1)
        if kind == 0:
            word = word[:at] + letter + word[at:]
        elif kind == 1 and at < len(word):
            word = word[:at] + word[at + 1:]
        elif kind == 2 and at < len(word):
            word = word[:at] + letter + word[at + 1:]
        elif kind == 3 and at + 1 < len(word):
            word = word[:at] + word[at + 1] + word[at] + word[at + 2:]
    return word


edits = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 20), st.sampled_from(LETTERS)), max_size=3)


@settings(max_examples=400, deadline=None)
@given(words, words, st.integers(0, 4))
def test_it_measures_osa_distance_as_rapidfuzz_does(a, b, cutoff):
    rows = np.empty((3, 4), dtype=np.int32)  # too small on purpose: the kernel must make its own
    expected = OSA.distance(a, b)
    got = kernels.osa_distance(code_points(a), code_points(b), cutoff, rows)
    assert got == (expected if expected <= cutoff else cutoff + 1)


@settings(max_examples=400, deadline=None)
@given(words, edits)
def test_it_gives_the_typo_similarity_the_scorer_gives(word, changes):
    other = _edited(word, changes)
    rows = np.empty((3, 64), dtype=np.int32)
    assert kernels.edit_similarity(code_points(word), code_points(other), rows) == edit_similarity(word, other)


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=LETTERS, min_size=4, max_size=12), edits)
def test_it_gives_every_accepted_typo_a_shared_deletion_key(listed, changes):
    query = _edited(listed, changes)
    if len(query) < 4 or edit_similarity(query, listed) == 0.0 or OSA.distance(query, listed) > 2:
        return  # the scorer would not call these typos of each other, or they are three edits apart
    shared = np.intersect1d(
        kernels.query_deletion_hashes(ord("p"), code_points(query)),
        kernels.listed_deletion_hashes(ord("p"), code_points(listed)),
    )
    assert len(shared), f"{query!r} and {listed!r} share no deletion key"


def test_it_keeps_keys_of_other_kinds_of_name_apart():
    person = kernels.listed_deletion_hashes(ord("p"), code_points("petrov"))
    organisation = kernels.query_deletion_hashes(ord("o"), code_points("petrov"))
    assert not len(np.intersect1d(person, organisation))


def test_it_does_not_let_a_short_key_meet_every_long_part():
    # "maria" minus two letters is "mar"; "mark" minus one letter is "mar" too, but a
    # four-letter part may differ by one edit only, so the two must not meet.
    assert not len(np.intersect1d(
        kernels.query_deletion_hashes(ord("p"), code_points("maria")),
        kernels.listed_deletion_hashes(ord("p"), code_points("mark")),
    ))


def test_it_finds_sorted_hashes_through_their_buckets():
    rng = np.random.default_rng(7)
    hashes = np.sort(rng.integers(0, 2**63, 5000, dtype=np.int64).astype(np.uint64) * np.uint64(2))
    hashes = np.sort(np.concatenate([hashes, hashes[:10]]))  # some repeated keys
    buckets = kernels.hash_buckets(hashes)
    shift = kernels.bucket_shift(buckets)
    for key in list(hashes[::97]) + [np.uint64(1), np.uint64(2**64 - 1)]:
        first, end = kernels.hashed_range(hashes, buckets, shift, np.uint64(key))
        assert (first, end) == (np.searchsorted(hashes, key, "left"), np.searchsorted(hashes, key, "right"))
