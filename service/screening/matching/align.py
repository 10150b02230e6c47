"""The rules that pair the parts of two names: their constants, and the alignment's shape.

A part's similarity to another (same spelling, a typo, a known variant of the same name,
an initial, a phonetic or consonant match across scripts) and the pairing of query parts
with list parts (best pairs first, glued runs of split or joined words, repeated parts
ignored, fathers' names weighed apart) are computed once, compiled, in
`kernels.similarity` and `kernels.alignment`; docs/matching.md states the rules.
"""

from __future__ import annotations

from typing import NamedTuple

# "son/daughter of": the part after it is the father's name.
PATRONYMIC_MARKERS = frozenset({"bin", "ibn", "ben", "bint", "binti", "ould"})
ROLE_MISMATCH_FACTOR = 0.5  # a father's name aligned with a person's own name

VARIANT_SIMILARITY = 0.9  # rigour knows both spellings as one name (Mohammed / Muhammad)
PHONETIC_SIMILARITY = 0.8  # same metaphone key (Scholz / Schulze)
SKELETON_SIMILARITY = 0.85  # same consonants, one side written without vowels (Arabic, Hebrew)
NEAR_SKELETON_SIMILARITY = SKELETON_SIMILARITY - 0.15  # consonants one edit apart
INITIAL_SIMILARITY = 0.8  # "V." for "Vladimir": consistent, but weaker than the full name
MIN_SIMILARITY = 0.55  # below this two parts are different names, not variants


class PartPair(NamedTuple):
    """Query tokens aligned with list tokens (usually one each; more when glued)."""

    query: tuple[int, ...]
    listed: tuple[int, ...]
    similarity: float
    reason: str


class NameAlignment(NamedTuple):
    pairs: tuple[PartPair, ...]
    unmatched_query: tuple[int, ...]
    unmatched_listed: tuple[int, ...]
