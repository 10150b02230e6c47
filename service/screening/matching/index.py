"""A blocking index over list names, built once per list version.

Searching compares the query with a few dozen list names instead of all of
them. Three steps:

1. *Vocabulary matches.* Every distinct name part on the list is stored once.
   A query part finds its spellings on the list through keys: the part itself
   and each one-letter deletion of it (so one typo or swapped pair of letters
   still meets), its metaphone key (Scholz / Schulze) and its consonant
   skeleton (Latin spellings of Arabic names). Each hit is verified with the
   scorer's own part similarity.
2. *Candidates.* Postings (part -> names) of the matched parts are merged in
   numpy and each name gets a quick estimate of its score. Parts shared by more
   than `COMMON_PART_POSTINGS` names (Mohammed, Ali) do not open candidates on
   their own, they only add to candidates opened by rarer parts, which keeps
   the work per query bounded.
3. *Scoring.* The best-estimated names are scored in full (alignment, birth
   date, nationality, gender), one match per entity.

Memory: names are numpy arrays of part ids, strings live in packed UTF-8
buffers, and the only Python objects per distinct part are its `NameToken`.
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .align import token_similarity
from .normalize import (
    NAME,
    ORGANIZATION,
    PERSON,
    NameToken,
    NormalizedName,
    glued_token,
    joined_letters,
    name_kind,
    normalize,
    normalize_name,
    split_alternatives,
)
from .packed import PackedStrings, PackedStringsBuilder
from .score import (
    DEFAULT_PENALTIES,
    DEFAULT_THRESHOLD,
    PENALTIES,
    NameComparison,
    compare_names,
    entity_match,
    listed_name_score,
)
from .types import ListEntity, ListName, Match, PersonQuery

KIND_CODES = {PERSON: "p", ORGANIZATION: "o"}
OTHER_KIND_CODE = "x"
GENDER_CODES = {"male": 1, "female": 2}
GENDER_NAMES = {code: name for name, code in GENDER_CODES.items()}
COMMON_PART_POSTINGS = 5_000  # parts in more names than this only refine candidates
SHORTLIST_SIZE = 24  # names scored in full per query
ESTIMATE_MARGIN = 0.2  # names estimated this far below the threshold may still reach it
MIN_FUZZY_KEY_LENGTH = 4  # deletions of shorter parts would match half the list


@dataclass(frozen=True, slots=True)
class IndexStats:
    names: int
    entities: int
    distinct_parts: int
    lookup_keys: int
    array_bytes: int


class MatchIndex:
    """Search list entities by name; build with `MatchIndex.build(entities)`."""

    def __init__(
        self,
        parts: list[NameToken],
        part_keys: dict[str, int],
        lookup_hashes: np.ndarray,
        lookup_parts: np.ndarray,
        postings_start: np.ndarray,
        postings: np.ndarray,
        name_start: np.ndarray,
        name_parts: np.ndarray,
        name_entity: np.ndarray,
        name_weak: np.ndarray,
        name_weight: np.ndarray,
        name_texts: PackedStrings,
        entity_ids: PackedStrings,
        entity_schemas: list[str],
        entity_schema_codes: np.ndarray,
        entity_birth_dates: PackedStrings,
        entity_nationalities: PackedStrings,
        entity_genders: np.ndarray,
    ) -> None:
        self._parts = parts
        self._part_keys = part_keys
        self._lookup_hashes = lookup_hashes
        self._lookup_parts = lookup_parts
        self._postings_start = postings_start
        self._postings = postings
        self._part_frequency = np.diff(postings_start)
        self._name_start = name_start
        self._name_parts = name_parts
        self._name_entity = name_entity
        self._name_weak = name_weak
        self._name_weight = name_weight
        self._name_texts = name_texts
        self._entity_ids = entity_ids
        self._entity_schemas = entity_schemas
        self._entity_schema_codes = entity_schema_codes
        self._entity_birth_dates = entity_birth_dates
        self._entity_nationalities = entity_nationalities
        self._entity_genders = entity_genders

    @classmethod
    def build(cls, entities: Iterable[ListEntity]) -> MatchIndex:
        builder = _IndexBuilder()
        for entity in entities:
            builder.add(entity)
        return builder.finish()

    def __len__(self) -> int:
        """Number of indexed names (aliases count separately)."""
        return len(self._name_start) - 1

    def stats(self) -> IndexStats:
        arrays = (
            self._lookup_hashes, self._lookup_parts, self._postings_start, self._postings,
            self._name_start, self._name_parts, self._name_entity, self._name_weak,
            self._name_weight, self._entity_schema_codes, self._entity_genders,
        )
        packed = (self._name_texts, self._entity_ids, self._entity_birth_dates, self._entity_nationalities)
        return IndexStats(
            names=len(self),
            entities=len(self._entity_ids),
            distinct_parts=len(self._parts),
            lookup_keys=len(self._lookup_hashes),
            array_bytes=sum(a.nbytes for a in arrays) + sum(p.nbytes for p in packed),
        )

    def search(self, query: PersonQuery, *, threshold: float | None = None, limit: int = 10) -> list[Match]:
        """Entities whose best name scores at least `threshold` against the query, best first."""
        threshold = DEFAULT_THRESHOLD if threshold is None else threshold
        kind = name_kind(query.schema)
        query_name = normalize_name(query.name, query.schema)
        names, estimates = self._candidates(query_name, kind)
        if len(names) == 0:
            return []
        keep = estimates >= threshold - ESTIMATE_MARGIN
        names, estimates = names[keep], estimates[keep]
        shortlist = names[np.argsort(-estimates, kind="stable")[:SHORTLIST_SIZE]]
        best: dict[int, tuple[float, NameComparison, ListName]] = {}
        for name in shortlist.tolist():
            comparison, list_name = self._compare(query_name, name, kind)
            score = listed_name_score(comparison, list_name)
            entity = int(self._name_entity[name])
            if entity not in best or score > best[entity][0]:
                best[entity] = (score, comparison, list_name)
        matches = [
            entity_match(query, self._entity(entity), comparison, list_name)
            for entity, (_, comparison, list_name) in best.items()
        ]
        matches = [match for match in matches if match.score >= threshold]
        matches.sort(key=lambda match: (-match.score, match.entity_id))
        return matches[:limit]

    def _compare(self, query_name: NormalizedName, name: int, kind: str) -> tuple[NameComparison, ListName]:
        start, end = self._name_start[name], self._name_start[name + 1]
        tokens = tuple(self._parts[part] for part in self._name_parts[start:end].tolist())
        text = self._name_texts[name]
        listed = NormalizedName(text, kind, tokens, joined_letters(text, tokens))
        quality = "weak" if self._name_weak[name] else "strong"
        return compare_names(query_name, listed), ListName(text, quality)

    def _entity(self, entity: int) -> ListEntity:
        birth_dates = self._entity_birth_dates[entity]
        nationalities = self._entity_nationalities[entity]
        return ListEntity(
            id=self._entity_ids[entity],
            schema=self._entity_schemas[self._entity_schema_codes[entity]],
            names=[],
            birth_dates=birth_dates.split(";") if birth_dates else [],
            nationalities=nationalities.split(";") if nationalities else [],
            gender=GENDER_NAMES.get(int(self._entity_genders[entity])),
        )

    # -- blocking ---------------------------------------------------------------------------

    def _candidates(self, query_name: NormalizedName, kind: str) -> tuple[np.ndarray, np.ndarray]:
        """Names sharing a part (or a spelling of one) with the query, with estimated scores."""
        kind_code = KIND_CODES.get(kind, OTHER_KIND_CODE)
        probes = _blocking_probes(query_name.tokens)
        matches = [self._part_matches(probe, kind_code) for probe, _ in probes]
        volumes = [int(sum(self._part_frequency[part] for part in found)) for found in matches]
        opening = [k for k, volume in enumerate(volumes) if 0 < volume <= COMMON_PART_POSTINGS]
        refining = [k for k, volume in enumerate(volumes) if volume > COMMON_PART_POSTINGS]
        if opening:
            names, evidence = self._merge_postings([(matches[k], probes[k][1]) for k in opening])
        elif refining:
            names = self._common_seed([matches[k] for k in refining])
            evidence = np.zeros(len(names), dtype=np.float64)
        else:
            return np.empty(0, dtype=np.int32), np.empty(0)
        for k in refining:
            for part, similarity in matches[k].items():
                evidence += similarity * probes[k][1] * self._contains(part, names)
        query_weight = sum(token.weight for token in query_name.tokens if token.role == NAME)
        return names, self._estimate(evidence, query_weight, self._name_weight[names], kind)

    def _part_matches(self, probe: NameToken, kind_code: str) -> dict[int, float]:
        """List parts similar to a query part, with the scorer's similarity."""
        found: dict[int, float] = {}
        exact = self._part_keys.get(_part_key(kind_code, probe))
        if exact is not None:
            found[exact] = 1.0
        keys = _lookup_keys(kind_code, probe)
        if not keys:
            return found
        hashes = np.fromiter((_hash(key) for key in keys), dtype=np.uint64, count=len(keys))
        low = np.searchsorted(self._lookup_hashes, hashes, side="left")
        high = np.searchsorted(self._lookup_hashes, hashes, side="right")
        for start, end in zip(low.tolist(), high.tolist()):
            for part in self._lookup_parts[start:end].tolist():
                if part not in found:
                    similarity, _ = token_similarity(probe, self._parts[part])
                    if similarity > 0.0:
                        found[part] = similarity
        return found

    def _merge_postings(self, probe_matches: list[tuple[dict[int, float], float]]) -> tuple[np.ndarray, np.ndarray]:
        ids: list[np.ndarray] = []
        values: list[np.ndarray] = []
        for found, weight in probe_matches:
            for part, similarity in found.items():
                names = self._postings[self._postings_start[part]:self._postings_start[part + 1]]
                ids.append(names)
                values.append(np.full(len(names), similarity * weight))
        names, inverse = np.unique(np.concatenate(ids), return_inverse=True)
        return names, np.bincount(inverse, weights=np.concatenate(values), minlength=len(names))

    def _common_seed(self, refining: list[dict[int, float]]) -> np.ndarray:
        """Only common parts: the names having the two rarest of them together."""
        exact = sorted(
            (self._postings[self._postings_start[p]:self._postings_start[p + 1]] for found in refining for p in found),
            key=len,
        )
        if len(exact) == 1:
            return exact[0]
        return np.intersect1d(exact[0], exact[1], assume_unique=True)

    def _contains(self, part: int, names: np.ndarray) -> np.ndarray:
        postings = self._postings[self._postings_start[part]:self._postings_start[part + 1]]
        position = np.minimum(np.searchsorted(postings, names), len(postings) - 1)
        return postings[position] == names

    @staticmethod
    def _estimate(evidence: np.ndarray, query_weight: float, name_weight: np.ndarray, kind: str) -> np.ndarray:
        """The score formula of `score.alignment_score`, assuming every matched part aligns."""
        penalties = PENALTIES.get(kind, DEFAULT_PENALTIES)
        matched = np.minimum(evidence, np.minimum(query_weight, name_weight))
        query_left = query_weight - matched
        listed_left = name_weight - matched
        conflicting = np.minimum(query_left, listed_left)
        denominator = (
            matched
            + penalties.conflict * conflicting
            + penalties.query_extra * (query_left - conflicting)
            + penalties.list_extra * (listed_left - conflicting)
        )
        return np.divide(matched, denominator, out=np.zeros_like(matched), where=denominator > 0)


def _blocking_probes(tokens: tuple[NameToken, ...]) -> list[tuple[NameToken, float]]:
    """Query parts that open candidates, with their weight; adjacent parts also glued together."""
    probes = [(token, token.weight) for token in tokens if token.role == NAME]
    names = [token for token in tokens if token.role == NAME]
    for size in (2, 3):
        for start in range(len(names) - size + 1):
            glued = glued_token(names[start:start + size])
            probes.append((glued, glued.weight))
    return probes


def _part_key(kind_code: str, token: NameToken) -> str:
    return f"{kind_code}{token.role[0]}{token.form}"


def _lookup_keys(kind_code: str, token: NameToken) -> list[str]:
    """Keys under which similar spellings of a name part meet."""
    if token.role != NAME or token.syllabic:
        return []
    keys = []
    text = token.text
    if len(text) >= MIN_FUZZY_KEY_LENGTH and text.isascii():
        keys.append(f"{kind_code}~{text}")
        keys.extend(f"{kind_code}~{text[:i]}{text[i + 1:]}" for i in range(len(text)))
    if len(token.phonetic) >= 2:
        keys.append(f"{kind_code}#{token.phonetic}")
    if len(token.skeleton) >= 3:
        keys.append(f"{kind_code}%{token.skeleton}")
    return keys


def _hash(key: str) -> int:
    """Stable 64-bit hash (Python's own changes between processes)."""
    data = key.encode()
    return (zlib.crc32(data) << 32) | zlib.adler32(data)


class _IndexBuilder:
    def __init__(self) -> None:
        self.parts: list[NameToken] = []
        self.part_keys: dict[str, int] = {}
        self.name_start = array("q", [0])
        self.name_parts = array("i")
        self.name_entity = array("i")
        self.name_weak = array("b")
        self.name_weight = array("f")
        self.name_texts = PackedStringsBuilder()
        self.entity_ids = PackedStringsBuilder()
        self.entity_schemas: list[str] = []
        self.entity_schema_codes = array("B")
        self.entity_birth_dates = PackedStringsBuilder()
        self.entity_nationalities = PackedStringsBuilder()
        self.entity_genders = array("b")

    def add(self, entity: ListEntity) -> None:
        kind = name_kind(entity.schema)
        kind_code = KIND_CODES.get(kind, OTHER_KIND_CODE)
        entity_index = len(self.entity_ids)
        self.entity_ids.append(entity.id)
        if entity.schema not in self.entity_schemas:
            self.entity_schemas.append(entity.schema)
        self.entity_schema_codes.append(self.entity_schemas.index(entity.schema))
        self.entity_birth_dates.append(";".join(entity.birth_dates))
        self.entity_nationalities.append(";".join(code.lower() for code in entity.nationalities))
        self.entity_genders.append(GENDER_CODES.get((entity.gender or "").lower(), 0))
        for list_name in entity.names:
            for text in split_alternatives(list_name.name, entity.schema):
                tokens = normalize(text, kind).tokens
                if tokens:
                    self._add_name(text, tokens, kind_code, entity_index, list_name.quality == "weak")

    def _add_name(self, text: str, tokens: tuple[NameToken, ...], kind_code: str, entity: int, weak: bool) -> None:
        for token in tokens:
            key = _part_key(kind_code, token)
            part = self.part_keys.get(key)
            if part is None:
                part = self.part_keys[key] = len(self.parts)
                self.parts.append(token)
            self.name_parts.append(part)
        self.name_start.append(len(self.name_parts))
        self.name_entity.append(entity)
        self.name_weak.append(weak)
        self.name_weight.append(sum(token.weight for token in tokens if token.role == NAME))
        self.name_texts.append(text)

    def finish(self) -> MatchIndex:
        name_start = np.frombuffer(self.name_start, dtype=np.int64).copy()
        name_parts = np.frombuffer(self.name_parts, dtype=np.int32).copy()
        postings_start, postings = self._postings(name_start, name_parts)
        lookup_hashes, lookup_parts = self._lookup_table()
        return MatchIndex(
            parts=self.parts,
            part_keys=self.part_keys,
            lookup_hashes=lookup_hashes,
            lookup_parts=lookup_parts,
            postings_start=postings_start,
            postings=postings,
            name_start=name_start,
            name_parts=name_parts,
            name_entity=np.frombuffer(self.name_entity, dtype=np.int32).copy(),
            name_weak=np.frombuffer(self.name_weak, dtype=np.int8).astype(bool),
            name_weight=np.frombuffer(self.name_weight, dtype=np.float32).copy(),
            name_texts=self.name_texts.finish(),
            entity_ids=self.entity_ids.finish(),
            entity_schemas=self.entity_schemas,
            entity_schema_codes=np.frombuffer(self.entity_schema_codes, dtype=np.uint8).copy(),
            entity_birth_dates=self.entity_birth_dates.finish(),
            entity_nationalities=self.entity_nationalities.finish(),
            entity_genders=np.frombuffer(self.entity_genders, dtype=np.int8).copy(),
        )

    def _postings(self, name_start: np.ndarray, name_parts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Part -> sorted, distinct name ids (CSR)."""
        names = np.repeat(np.arange(len(name_start) - 1, dtype=np.int32), np.diff(name_start))
        pairs = np.unique((name_parts.astype(np.int64) << 32) | names)
        parts = (pairs >> 32).astype(np.int32)
        postings = (pairs & 0xFFFFFFFF).astype(np.int32)
        counts = np.bincount(parts, minlength=len(self.parts))
        postings_start = np.zeros(len(self.parts) + 1, dtype=np.int64)
        np.cumsum(counts, out=postings_start[1:])
        return postings_start, postings

    def _lookup_table(self) -> tuple[np.ndarray, np.ndarray]:
        """Sorted hashes of every part's lookup keys, with the part each key leads to."""
        hashes = array("Q")
        parts = array("i")
        for key, part in self.part_keys.items():
            kind_code = key[0]
            for lookup_key in set(_lookup_keys(kind_code, self.parts[part])):
                hashes.append(_hash(lookup_key))
                parts.append(part)
        hash_array = np.frombuffer(hashes, dtype=np.uint64)
        part_array = np.frombuffer(parts, dtype=np.int32)
        order = np.argsort(hash_array, kind="stable")
        return hash_array[order], part_array[order]
