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
query part's best match in the candidate, computed for all candidates at once
in numpy; the best-estimated candidates are then scored in full.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from .align import INITIAL_SIMILARITY
from .normalize import INITIAL, NAME, NameToken, NormalizedName, glued_token
from .keys import part_key
from .postings import Postings
from .score import DEFAULT_PENALTIES, PENALTIES, UNCONTRADICTING_ROLES
from .vocabulary import Vocabulary

COMMON_PART_NAMES = 2_000  # parts in more names than this bring in pairs, not all their names
PAIRED_SPELLINGS = 8  # closest spellings of a common part paired with every spelling of another
GATHERED_CACHE_SIZE = 50_000  # rare query parts whose names are kept gathered
GLUED = "glued"
INITIAL_CODES = 2**31 - 32


@dataclass(frozen=True, slots=True)
class Probe:
    key: str  # the query part's identity, for caching
    found: dict[int, float]  # list part -> similarity to the query part
    volume: int  # names having one of the found parts (with repeats)
    weight: float
    role: str  # the query part's role, or GLUED for adjacent parts read as one word
    letter: int | None  # bit of the first letter, when an initial may stand for the part

    @property
    def brings_names(self) -> bool:
        return self.role in (NAME, GLUED) and bool(self.found)

    def spellings(self, most: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The found parts and their similarity, the closest `most` of them."""
        parts = np.fromiter(self.found, dtype=np.int64, count=len(self.found))
        values = np.fromiter(self.found.values(), dtype=np.float64, count=len(self.found))
        if most is not None and len(parts) > most:
            closest = np.argsort(-values, kind="stable")[:most]
            parts, values = parts[closest], values[closest]
        return parts, values


@dataclass(frozen=True, slots=True)
class NameShapes:
    """Per indexed name: what the estimate needs to know about its parts."""

    weight: np.ndarray  # float32, sum of part weights
    contradicting_weight: np.ndarray  # float32, the same without particles and titles
    part_count: np.ndarray  # int16, full name parts
    part_letters: np.ndarray  # uint32, bit set of the first letters of full name parts
    repeated_letters: np.ndarray  # uint32, first letters that start two or more full name parts
    initial_letters: np.ndarray  # uint32, bit set of its initials

    @property
    def nbytes(self) -> int:
        arrays = (self.weight, self.contradicting_weight, self.part_count, self.part_letters, self.repeated_letters,
                  self.initial_letters)
        return sum(array.nbytes for array in arrays)


class Blocker:
    def __init__(
        self,
        vocabulary: Vocabulary,
        parts: Postings,
        pairs: Postings,
        singles: Postings,
        shapes: NameShapes,
        name_start: np.ndarray,
        name_parts: np.ndarray,
    ) -> None:
        self._vocabulary = vocabulary
        self._name_start = name_start
        self._name_parts = name_parts
        self._parts = parts
        self._pairs = pairs
        self._singles = singles
        self._shapes = shapes
        self._frequency = parts.counts()
        self._gathered: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def __getstate__(self) -> dict:
        return {slot: value for slot, value in self.__dict__.items() if slot != "_gathered"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._gathered = {}

    def candidates(self, query_name: NormalizedName, kind: str, kind_code: str) -> tuple[np.ndarray, np.ndarray]:
        """Candidate name numbers (sorted) and their estimated scores."""
        probes = self.probes(query_name.tokens, kind_code)
        sources, opened = self._sources(probes)
        if not sources:
            return np.empty(0, dtype=np.int32), np.empty(0)
        names, similarity = _merge(sources, len(probes))
        refining = [k for k, probe in enumerate(probes) if probe.found and k not in opened]
        if refining:
            self._refine(probes, refining, names, similarity)
        self._match_initials(probes, names, similarity)
        weights = np.array([probe.weight for probe in probes])
        contradicting = np.array([probe.weight * (probe.role not in UNCONTRADICTING_ROLES) for probe in probes])
        aligned = similarity > 0
        query_weight = sum(probe.weight for probe in probes if probe.role != GLUED)
        query_contradicting = sum(w for probe, w in zip(probes, contradicting) if probe.role != GLUED)
        return names, _estimate(
            mass=weights @ aligned,
            achieved=weights @ similarity,
            contradicting_mass=contradicting @ aligned,
            query=(query_weight, query_contradicting),
            listed=(self._shapes.weight[names], self._shapes.contradicting_weight[names]),
            kind=kind,
        )

    def probes(self, tokens: tuple[NameToken, ...], kind_code: str) -> list[Probe]:
        """One probe per distinct query part, plus adjacent full parts glued together ("Patr ushev")."""
        vocabulary = self._vocabulary
        probes = []
        seen: set[str] = set()
        for token in tokens:
            if token.form in seen:
                continue  # "Sergey Sergey Shoigu": a repeated part is evidence once
            seen.add(token.form)
            if token.role == NAME:
                found = vocabulary.similar(kind_code, token)
                if 1.0 not in found.values():
                    found = {**found, **vocabulary.split(kind_code, token)}
            else:
                part = vocabulary.exact(kind_code, token)
                found = {} if part is None else {part: 1.0}
            key = part_key(kind_code, token)
            probes.append(Probe(key, found, self._volume(found), token.weight, token.role, _letter(token)))
        names = [token for token in tokens if token.role == NAME]
        for size in (2, 3):
            for start in range(len(names) - size + 1):
                glued = glued_token(names[start:start + size])
                part = vocabulary.exact(kind_code, glued)
                if part is not None:
                    found = {part: 1.0}
                    key = part_key(kind_code, glued)
                    probes.append(Probe(key, found, self._volume(found), glued.weight, GLUED, None))
        return probes

    def _gather(self, probe: Probe) -> tuple[np.ndarray, np.ndarray]:
        """All names having one of a rare probe's parts, with the part's similarity; cached."""
        gathered = self._gathered.get(probe.key)
        if gathered is None:
            if len(self._gathered) >= GATHERED_CACHE_SIZE:
                self._gathered.clear()
            lists = [self._parts.names(part) for part in probe.found]
            lengths = [len(names) for names in lists]
            names = np.concatenate(lists) if lists else np.empty(0, dtype=np.int32)
            values = np.repeat(np.fromiter(probe.found.values(), dtype=np.float64, count=len(lists)), lengths)
            gathered = self._gathered[probe.key] = (names, values)
        return gathered

    def _volume(self, found: dict[int, float]) -> int:
        return int(self._frequency[list(found)].sum()) if found else 0

    def _sources(self, probes: list[Probe]) -> tuple[list[tuple[int, np.ndarray, np.ndarray | float]], set[int]]:
        """(probe, names, similarities) to merge, and the probes whose every name is in."""
        bringing = [k for k, probe in enumerate(probes) if probe.brings_names]
        single_part_query = sum(probes[k].role == NAME for k in bringing) == 1
        sources: list[tuple[int, np.ndarray, np.ndarray | float]] = []
        opened: set[int] = set()
        for k in bringing:
            if probes[k].volume <= COMMON_PART_NAMES or single_part_query:
                opened.add(k)
                sources.append((k, *self._gather(probes[k])))
        common = [k for k in bringing if k not in opened]
        letters = [probe.letter for probe in probes if probe.letter is not None and probe.role == NAME]
        for k in common:
            parts, values = probes[k].spellings()
            sources.append((k, *self._singles.gather(parts, values)))
            for letter in letters:
                if letter != probes[k].letter or letters.count(letter) > 1:
                    codes = pair_codes(parts, np.full(len(parts), initial_code(letter)))
                    sources.append((k, *self._pairs.gather(self._pairs.rows(codes), values)))
        for first, second in combinations(common, 2):
            # Every spelling of one part with the closest few of the other, both ways round.
            for one, other in ((first, second), (second, first)):
                a, va = probes[one].spellings()
                b, vb = probes[other].spellings(PAIRED_SPELLINGS)
                rows = self._pairs.rows(pair_codes(np.repeat(a, len(b)), np.tile(b, len(a))))
                sources.append((one, *self._pairs.gather(rows, np.repeat(va, len(b)))))
                sources.append((other, *self._pairs.gather(rows, np.tile(vb, len(a)))))
        return [source for source in sources if len(source[1])], opened

    def _refine(self, probes: list[Probe], refining: list[int], names: np.ndarray, similarity: np.ndarray) -> None:
        """Fill in the similarity of probes that did not bring names, by reading each candidate's parts."""
        starts = self._name_start[names]
        lengths = self._name_start[names + 1] - starts
        offsets = np.zeros(len(names), dtype=np.int64)
        np.cumsum(lengths[:-1], out=offsets[1:])
        positions = np.arange(int(lengths.sum())) - np.repeat(offsets - starts, lengths)
        candidate_parts = self._name_parts[positions]
        for k in refining:
            found = probes[k].found
            keys = np.fromiter(found, dtype=np.int32, count=len(found))
            order = np.argsort(keys)
            keys, values = keys[order], np.fromiter(found.values(), dtype=np.float64, count=len(found))[order]
            at = np.minimum(np.searchsorted(keys, candidate_parts), len(keys) - 1)
            per_part = np.where(keys[at] == candidate_parts, values[at], 0.0)
            np.maximum(similarity[k], np.maximum.reduceat(per_part, offsets), out=similarity[k])

    def _match_initials(self, probes: list[Probe], names: np.ndarray, similarity: np.ndarray) -> None:
        """An initial stands for one unmatched full part with its letter on the other side."""
        query_initials = any(probe.role == INITIAL for probe in probes)
        listed_initials = self._shapes.initial_letters[names]
        if not query_initials and not listed_initials.any():
            return
        matched = sum(similarity[k] > 0 for k, probe in enumerate(probes) if probe.role == NAME)
        free_parts = self._shapes.part_count[names] - matched
        free_initials = listed_initials.copy()
        part_letters = self._shapes.part_letters[names]
        repeated_letters = self._shapes.repeated_letters[names]
        for k, probe in enumerate(probes):
            if probe.letter is None:
                continue
            bit = np.uint32(1 << probe.letter)
            unmatched = similarity[k] == 0
            if probe.role == INITIAL:
                # "R. Rivas" against "Salma Rivas": the R of Rivas is taken by Rivas itself.
                taken = sum(
                    similarity[j] > 0 for j, other in enumerate(probes) if other.role == NAME and other.letter == probe.letter
                )
                letters = np.where(np.asarray(taken) > 0, repeated_letters, part_letters)
                standing_for = unmatched & (free_parts > 0) & ((letters & bit) > 0)
                free_parts -= standing_for
            else:
                standing_for = unmatched & ((free_initials & bit) > 0)
                free_initials[standing_for] &= ~bit
            similarity[k][standing_for] = INITIAL_SIMILARITY


def pair_code(a: int, b: int) -> int:
    """Key of two parts appearing in one name, in either order."""
    return (min(a, b) << 32) | max(a, b)


def pair_codes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`pair_code` for arrays of parts."""
    a, b = a.astype(np.int64), b.astype(np.int64)
    return (np.minimum(a, b) << 32) | np.maximum(a, b)


def initial_code(letter: int) -> int:
    """Stands in a pair key for an initial (a-z as 0-25); above every part number."""
    return INITIAL_CODES + letter


def _letter(token: NameToken) -> int | None:
    first = token.text[0]
    return ord(first) - 97 if token.role in (NAME, INITIAL) and "a" <= first <= "z" else None


def _merge(
    sources: list[tuple[int, np.ndarray, np.ndarray | float]], probe_count: int
) -> tuple[np.ndarray, np.ndarray]:
    """Distinct names of all sources, and each probe's best similarity to each (one row per probe)."""
    lengths = [len(names) for _, names, _ in sources]
    ids = np.concatenate([names for _, names, _ in sources])
    names, inverse = np.unique(ids, return_inverse=True)
    rows = np.repeat([row for row, _, _ in sources], lengths)
    values = np.concatenate([
        value if isinstance(value, np.ndarray) else np.full(length, value)
        for (_, _, value), length in zip(sources, lengths)
    ])
    # A name rarely has two spellings of one query part; summing and capping is as good as max.
    cells = np.bincount(rows * len(names) + inverse, weights=values, minlength=probe_count * len(names))
    return names, np.minimum(cells.reshape(probe_count, len(names)), 1.0)


def _estimate(
    mass: np.ndarray,
    achieved: np.ndarray,
    contradicting_mass: np.ndarray,
    query: tuple[float, float],
    listed: tuple[np.ndarray, np.ndarray],
    kind: str,
) -> np.ndarray:
    """`score.alignment_score` with each query part aligned to its best match in the name.

    `query` and `listed` give the total weight of the parts and of those that can contradict.
    """
    penalties = PENALTIES.get(kind, DEFAULT_PENALTIES)
    query_weight, query_contradicting = query
    listed_weight, listed_contradicting = listed
    mass = np.minimum(mass, np.minimum(query_weight, listed_weight))
    achieved = np.minimum(achieved, mass)
    query_left = query_weight - mass
    listed_left = listed_weight - mass
    conflicting = np.clip(
        np.minimum(query_contradicting - contradicting_mass, listed_contradicting - contradicting_mass), 0, None
    )
    denominator = (
        mass
        + penalties.conflict * conflicting
        + penalties.query_extra * np.maximum(query_left - conflicting, 0)
        + penalties.list_extra * np.maximum(listed_left - conflicting, 0)
    )
    return np.divide(achieved, denominator, out=np.zeros_like(achieved), where=denominator > 0)
