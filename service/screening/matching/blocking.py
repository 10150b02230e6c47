"""Candidate names for a query, each with an estimate of its score.

Every query part becomes a probe: the list parts like it (see `Vocabulary`).
Rare parts bring in every name that has them. Common parts (Mohammed, Ali,
Maria) would bring in tens of thousands, and a name sharing only one common part
with a query of two or more parts cannot reach the threshold anyway; so common
parts bring in only the names that have two of them together, or one of them and
an initial standing for another query part (postings of part pairs), or no other
full name part (postings of single-part names). The work per query stays
bounded whatever the list size.

The estimate applies the scorer's formula (`score.alignment_score`) to each
query part's best match in the candidate; the best-estimated candidates are then
scored in full. The counting runs compiled (`kernels.candidates.candidates`); this module
decides what each query part looks up.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .align import INITIAL_SIMILARITY
from .kernels.candidates import BlockingRules, BlockingTables, Probes, candidates
from .kernels.hashes import PAIR_MIX, hash_buckets
from .kernels.packing import ROLE_GLUED, ROLE_INITIAL, ROLE_NAME, ROLE_OTHER, ROLE_UNCONTRADICTING
from .keys import part_key
from .normalize import INITIAL, NAME, PARTICLE, ROLE_WEIGHTS, TITLE, NameToken, NormalizedName
from .postings import Postings
from .score import DEFAULT_PENALTY_ARRAY, PENALTY_ARRAYS
from .scratch import ScratchState
from .vocabulary import Vocabulary

COMMON_PART_NAMES = 8_000  # parts in more names than this bring in pairs, not all their names (2,000: recall -1.5 points, no faster)
PROBE_CACHE_SIZE = 200_000  # query parts whose probes (spellings found in the list) are remembered
PAIRED_SPELLINGS = 8  # closest spellings of a common part paired with every spelling of another
GLUED = "glued"
INITIAL_CODES = 2**31 - 32  # pair keys: a part and an initial of the same name
LETTER_CODES = 2**31 - 64  # pair keys: a part and the first letter of another part or initial
ROLE_CODES = {NAME: ROLE_NAME, GLUED: ROLE_GLUED, INITIAL: ROLE_INITIAL,
              PARTICLE: ROLE_UNCONTRADICTING, TITLE: ROLE_UNCONTRADICTING}
EMPTY_PARTS = np.empty(0, dtype=np.int32)
EMPTY_VALUES = np.empty(0, dtype=np.float64)
ONE = np.ones(1, dtype=np.float64)
INITIAL_PAIR_WEIGHTS = np.array([ROLE_WEIGHTS[NAME], ROLE_WEIGHTS[INITIAL]], dtype=np.float64)  # see `kernels.estimate.estimate`


@dataclass(frozen=True, slots=True)
class Probe:
    """A query part (or adjacent parts glued) and the list parts like it."""

    parts: np.ndarray  # int32, sorted: list parts similar to the query part
    values: np.ndarray  # float64: their similarity to it
    weight: float
    role: str  # the query part's role, or GLUED for adjacent parts read as one word
    letter: int  # first letter a-z as 0-25 when an initial may stand for the part, else -1

    @property
    def role_code(self) -> int:
        return ROLE_CODES.get(self.role, ROLE_OTHER)


class Blocker(ScratchState):
    SCRATCH = ("_part_value", "_posting_records", "_probe_cache", "_tables")

    def __init__(
        self,
        vocabulary: Vocabulary,
        parts: Postings,
        pairs: Postings,
        singles: Postings,
        records: np.ndarray,
        name_parts: np.ndarray,
    ) -> None:
        self._vocabulary = vocabulary
        self._name_parts = name_parts
        self._parts = parts
        self._singles = singles
        self._records = records  # kernels.packing.NAME_RECORD per name: what the estimate needs to know of it
        self._pair_keys, *self._pair_rows = pairs.arrays()  # keyed by `kernels.hashes.pair_hash`
        self._pair_buckets = hash_buckets(self._pair_keys)
        self._scratch()

    def _scratch(self) -> None:
        # A per-part table the kernel fills and clears again in each call. Searches hold
        # the GIL while the kernel runs, so threads never share it at once.
        self._part_value = np.zeros(len(self._vocabulary), dtype=np.float64)
        # The records again in the order of the part postings, so that gathering a rare part's
        # names reads them in order instead of missing the cache once per name (with a cold
        # cache the kernel took 1.8x as long). 32 bytes a posting; derived, so not pickled.
        self._posting_records = self._records[self._parts.arrays()[1]]
        self._probe_cache: dict[str, Probe] = {}
        self._tables = BlockingTables(
            self._parts.arrays()[0], *self._singles.arrays(), self._pair_keys, self._pair_buckets, *self._pair_rows,
            self._name_parts, self._records, self._posting_records, self._vocabulary.first_letters, self._part_value,
        )

    @property
    def nbytes(self) -> int:
        """The arrays of the blocking (postings, pair keys, name records), the vocabulary's aside."""
        postings = self._parts.nbytes + self._singles.nbytes + self._pair_buckets.nbytes
        postings += sum(array.nbytes for array in (self._pair_keys, *self._pair_rows))
        return postings + self._records.nbytes + self._posting_records.nbytes

    def candidates(self, query_name: NormalizedName, kind: str, kind_code: str,
                   floor: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """Candidate name numbers (unordered) and their estimated scores; names estimated below
        `floor` may be left out (all are kept at 0)."""
        arguments = self.kernel_arguments(query_name, kind, kind_code, floor)
        return (EMPTY_PARTS, EMPTY_VALUES) if arguments is None else candidates(*arguments)

    def kernel_arguments(self, query_name: NormalizedName, kind: str, kind_code: str, floor: float = 0.0,
                         ) -> tuple[Probes, BlockingTables, BlockingRules] | None:
        """What `kernels.candidates.candidates` takes for this query (its probes, the blocking's arrays),
        for callers that run it inside a kernel of their own; None when no part can be looked up,
        or none brings names (only full parts and glued ones do, `kernels.candidates.candidates`: without
        one the kernel finds nothing, so most queries against a small index stop here)."""
        probes = self.probes(query_name.tokens, kind_code)
        if not any(probe.role in (NAME, GLUED) and len(probe.parts) for probe in probes):
            return None
        offsets, weights, roles, letters = [0], [], [], []
        for probe in probes:  # one walk, not one per array
            offsets.append(offsets[-1] + len(probe.parts))
            weights.append(probe.weight)
            roles.append(probe.role_code)
            letters.append(probe.letter)
        probes_found = Probes(
            np.array(offsets, dtype=np.int64),
            np.concatenate([probe.parts for probe in probes]),
            np.concatenate([probe.values for probe in probes]),
            np.array(weights, dtype=np.float64),
            np.array(roles, dtype=np.int8),
            np.array(letters, dtype=np.int8),
        )
        rules = BlockingRules(COMMON_PART_NAMES, PAIRED_SPELLINGS, INITIAL_CODES, LETTER_CODES, INITIAL_SIMILARITY,
                              INITIAL_PAIR_WEIGHTS, PENALTY_ARRAYS.get(kind, DEFAULT_PENALTY_ARRAY), float(floor))
        return probes_found, self._tables, rules

    def probes(self, tokens: tuple[NameToken, ...], kind_code: str) -> list[Probe]:
        """One probe per distinct query part, plus adjacent full parts glued together ("Patr ushev")."""
        vocabulary = self._vocabulary
        probes = []
        seen: set[str] = set()
        for token in tokens:
            if token.form in seen:
                continue  # "Sergey Sergey Shoigu": a repeated part is evidence once
            seen.add(token.form)
            probes.append(self._probe(kind_code, token))
        names = [token for token in tokens if token.role == NAME]
        for size in (2, 3):
            for start in range(len(names) - size + 1):
                run = names[start:start + size]
                # Found only when the list writes them as one part ("Patr ushev" / Patrushev).
                part = vocabulary.exact_form(kind_code, NAME, "".join(token.text for token in run))
                if part is not None:
                    weight = sum(token.weight for token in run)
                    probes.append(Probe(np.array([part], dtype=np.int32), ONE, weight, GLUED, -1))
        return probes

    def _probe(self, kind_code: str, token: NameToken) -> Probe:
        """A query part's probe, cached by its identity (`keys.part_key`), as its spellings are."""
        key = part_key(kind_code, token)
        probe = self._probe_cache.get(key)
        if probe is None:
            if len(self._probe_cache) >= PROBE_CACHE_SIZE:
                self._probe_cache.clear()
            probe = self._probe_cache[key] = self._new_probe(kind_code, token)
        return probe

    def _new_probe(self, kind_code: str, token: NameToken) -> Probe:
        vocabulary = self._vocabulary
        own = vocabulary.own_spellings(kind_code, token)
        if own is not None:
            parts, values = own
        elif token.role == NAME:
            parts, values = vocabulary.look_up(kind_code, token)
            if not (values == 1.0).any():
                split = vocabulary.split(kind_code, token)
                if split:
                    found = dict(zip(parts.tolist(), values.tolist())) | split
                    parts = np.array(sorted(found), dtype=np.int32)
                    values = np.array([found[part] for part in parts.tolist()], dtype=np.float64)
        else:
            part = vocabulary.exact(kind_code, token)
            parts, values = (EMPTY_PARTS, EMPTY_VALUES) if part is None else (np.array([part], dtype=np.int32), ONE)
        return Probe(parts, values, token.weight, token.role, first_letter(token))


def pair_code(a: int, b: int) -> int:
    """Key of two parts appearing in one name, in either order; stored as `pair_hashes`."""
    return (min(a, b) << 32) | max(a, b)


def pair_hashes(codes: np.ndarray) -> np.ndarray:
    """`kernels.hashes.pair_hash` of `pair_code`s."""
    return codes.astype(np.uint64) * PAIR_MIX


def initial_code(letter: int) -> int:
    """Stands in a pair key for an initial (a-z as 0-25); above every part number."""
    return INITIAL_CODES + letter


def letter_code(letter: int) -> int:
    """Stands in a pair key for any part or initial starting with the letter."""
    return LETTER_CODES + letter


def first_letter(token: NameToken) -> int:
    """First letter a-z as 0-25 of a full name part or initial (what an initial can stand for), else -1."""
    first = token.text[0]
    return ord(first) - 97 if token.role in (NAME, INITIAL) and "a" <= first <= "z" else -1
