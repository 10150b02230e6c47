"""One name against another, compiled: `score.score_names` without Python's part-by-part loop.

A comparison alone (one query, one list name) spent most of its time in Python calls:
a part similarity per pair of parts, the alignment, the score. `kernels.pair_score`
does all three in one call on two names packed as a search packs its query
(`Vocabulary._query_part`). Each `NormalizedName` is packed once and keeps its
packing (`PackedName`), as normalised names are cached and compared again.

The packing numbers forms, phonetic keys and symbols, so that the kernel compares
numbers, not strings: equal strings get equal numbers within this process. The table
is emptied when it grows past MAX_NUMBERS; packings made before then are made again.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np

from . import kernels
from .align import (
    INITIAL_SIMILARITY,
    MIN_SIMILARITY,
    NEAR_SKELETON_SIMILARITY,
    PHONETIC_SIMILARITY,
    ROLE_MISMATCH_FACTOR,
    SKELETON_SIMILARITY,
    VARIANT_SIMILARITY,
    _patronymic_positions,
)
from .normalize import NormalizedName
from .vocabulary import SCORER_ROLES, SIMILARITY_ROLES

MAX_NUMBERS = 1_000_000  # distinct forms, phonetic keys and symbols numbered before the table starts again

# The alignment's constants, in the order `kernels.pair_score` reads them; the caller
# appends the score's (without-full-part cap, joined similarity).
ALIGNMENT_CONSTANTS = (INITIAL_SIMILARITY, VARIANT_SIMILARITY, PHONETIC_SIMILARITY, SKELETON_SIMILARITY,
                       NEAR_SKELETON_SIMILARITY, MIN_SIMILARITY, ROLE_MISMATCH_FACTOR)


class PackedName(NamedTuple):
    """A normalised name as `kernels.pair_score` reads it."""

    parts: np.ndarray  # int64, the parts one after another (kernels.QUERY_*)
    weights: np.ndarray  # float64 per part
    scorer: np.ndarray  # int64 [4, part]: role (kernels.PART_*), letters, text number (equal texts, equal
    # numbers), 1 for a father's name (the part after a patronymic marker, `align._patronymic_positions`)
    generation: int  # of the number table it was packed with: only packings of one generation compare


class _Numbers:
    """Strings as numbers, equal for equal strings, shared by every packing of a generation."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.generation = 0
        self._numbers: dict[str, int] = {}

    def number(self, text: str) -> int:
        """Called with the lock held."""
        return self._numbers.setdefault(text, len(self._numbers))

    def start_again_when_full(self) -> None:
        if len(self._numbers) >= MAX_NUMBERS:
            self._numbers = {}
            self.generation += 1


_NUMBERS = _Numbers()


def pair_packings(query: NormalizedName, listed: NormalizedName) -> tuple[PackedName, PackedName]:
    """Both names' packings, made on first use (and again after the number table started
    again), always of the same generation of numbers."""
    query_packed, listed_packed = query._packed, listed._packed
    generation = _NUMBERS.generation
    if (query_packed is None or listed_packed is None or query_packed.generation != generation
            or listed_packed.generation != generation):
        with _NUMBERS.lock:  # the table starts again only here, before both are packed
            _NUMBERS.start_again_when_full()
            generation = _NUMBERS.generation
            for name in (query, listed):
                if name._packed is None or name._packed.generation != generation:
                    name._packed = _pack(name)
            query_packed, listed_packed = query._packed, listed._packed
    return query_packed, listed_packed


def packed(name: NormalizedName) -> PackedName:
    return pair_packings(name, name)[0]


def _pack(name: NormalizedName) -> PackedName:
    number = _NUMBERS.number
    parts: list[int] = []
    texts: dict[str, int] = {}
    tokens = name.tokens
    fathers = _patronymic_positions(tokens)
    for token in tokens:
        syllabic = token.form != token.text
        symbols = [number(symbol) for symbol in token.symbols]
        parts += [
            len(token.text), len(token.skeleton), len(symbols),
            syllabic,
            number(token.form) if syllabic else -1,
            SIMILARITY_ROLES.get(token.role, kernels.SIMILARITY_OTHER),
            number(token.phonetic) if len(token.phonetic) > 2 else -1,
            token.abjad,
            *map(ord, token.text), *map(ord, token.skeleton), *symbols,
        ]
    scorer = np.array([
        [SCORER_ROLES.get(token.role, kernels.PART_OTHER) for token in tokens],
        [len(token.text) for token in tokens],
        [texts.setdefault(token.text, len(texts)) for token in tokens],
        [position in fathers for position in range(len(tokens))],
    ], dtype=np.int64).reshape(4, len(tokens))
    return PackedName(
        np.array(parts, dtype=np.int64),
        np.array([token.weight for token in tokens], dtype=np.float64),
        scorer,
        _NUMBERS.generation,
    )
