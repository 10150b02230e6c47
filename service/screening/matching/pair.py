"""Names packed for the compiled comparison of one name with another (`score.name_score`,
`score.compare_names`).

A comparison alone (one query, one list name) is one call: `kernels.scoring.pair_score`
(`pair_alignment` with the alignment) makes the part similarities, the alignment and the
score on two names packed as a search packs its query
(`Vocabulary._query_part`). Each `NormalizedName` is packed once and keeps its
packing (`PackedName`), as normalised names are cached and compared again.

The packing numbers forms, phonetic keys and symbols, so that the kernel compares
numbers, not strings: equal strings get equal numbers within this process. The table
is emptied when it grows past MAX_NUMBERS; packings made before then are made again.
"""

from __future__ import annotations

import threading
from array import array
from typing import NamedTuple

import numpy as np

from .align import PATRONYMIC_MARKERS
from .kernels.packing import PART_OTHER
from .kernels.similarity import SIMILARITY_OTHER
from .normalize import NameToken, NormalizedName
from .vocabulary import SCORER_ROLES, SIMILARITY_ROLES, code_points

MAX_NUMBERS = 1_000_000  # distinct forms, phonetic keys and symbols numbered before the table starts again
MAX_TOKENS = 200_000  # tokens' packed parts remembered

class PackedName(NamedTuple):
    """A normalised name as `kernels.scoring.pair_score` reads it."""

    parts: np.ndarray  # int64: per part its role (kernels.PART_*); per part its letters; per part 1 for
    # a patronymic marker ("bin"); then the parts one after another as kernels.QUERY_*
    weights: np.ndarray  # float64 per part
    joined: np.ndarray  # uint32 code points of `NormalizedName.joined`
    generation: int  # of the number table it was packed with: only packings of one generation compare


class _Numbers:
    """Strings as numbers, equal for equal strings, shared by every packing of a generation;
    and each token's packing as bytes, as names share their words' tokens (`normalize`
    caches them), so that a name is packed by joining its tokens' bytes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.generation = 0
        self._numbers: dict[str, int] = {}
        # id(token): (token, its part's bytes, then its role's, letters', marker's and weight's)
        self.tokens: dict[int, tuple] = {}

    def number(self, text: str) -> int:
        """Called with the lock held."""
        return self._numbers.setdefault(text, len(self._numbers))

    def token(self, token: NameToken) -> tuple:
        """The token's entry in `tokens`, made when missing; called with the lock held."""
        if len(self.tokens) >= MAX_TOKENS:
            self.tokens = {}
        number = self.number
        syllabic = token.form != token.text
        symbols = [number(symbol) for symbol in token.symbols]
        part = [
            len(token.text), len(token.skeleton), len(symbols),
            syllabic,
            number(token.form) if syllabic else -1,
            SIMILARITY_ROLES.get(token.role, SIMILARITY_OTHER),
            number(token.phonetic) if len(token.phonetic) > 2 else -1,
            token.abjad,
            *map(ord, token.text), *map(ord, token.skeleton), *symbols,
        ]
        found = self.tokens[id(token)] = (
            token, array("q", part).tobytes(), array("q", [SCORER_ROLES.get(token.role, PART_OTHER)]).tobytes(),
            array("q", [len(token.text)]).tobytes(), array("q", [token.text in PATRONYMIC_MARKERS]).tobytes(),
            array("d", [token.weight]).tobytes())
        return found

    def start_again_when_full(self) -> None:
        if len(self._numbers) >= MAX_NUMBERS:
            self._numbers = {}
            self.tokens = {}
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
    """Called with the lock held. The arrays are writable and each block of `parts` contiguous,
    as the search's arrays are: the kernels both paths share are compiled once, for those types
    (a read-only `np.frombuffer` of bytes, or a strided view, would compile each again)."""
    tokens = _NUMBERS.tokens
    entries = []
    for token in name.tokens:
        found = tokens.get(id(token))
        entries.append(found if found is not None and found[0] is token else _NUMBERS.token(token))
    return PackedName(
        np.frombuffer(bytearray().join([entry[2] for entry in entries] + [entry[3] for entry in entries]
                                       + [entry[4] for entry in entries] + [entry[1] for entry in entries]),
                      dtype=np.int64),
        np.frombuffer(bytearray().join([entry[5] for entry in entries]), dtype=np.float64),
        code_points(name.joined),
        _NUMBERS.generation,
    )
