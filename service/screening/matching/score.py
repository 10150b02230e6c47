"""Score a query against list names and entities.

Name score: the query's parts are aligned with the list name's parts (see
`align`). Each aligned pair contributes its similarity, weighted by how much
its parts count as evidence (a full name part 1, an initial 0.5, a particle
0.2, ...). Parts left over lower the score, by how much depends on which side
they are on:

- parts left over on *both* sides are a conflict (Hans *Joachim* Friedrich vs
  Hans *Otto* Friedrich): the strongest penalty; particles and titles never
  conflict, they only count as extras;
- parts only the list name has are the usual missing middle names: mild;
- parts only the query has mean the list name is the less specific one: a bit
  more than mild.

    score = sum(similarity * weight) /
            (sum(weight) + CONFLICT * conflicting + QUERY_EXTRA * query_only + LIST_EXTRA * list_only)

The entity score adds birth date, nationality and gender adjustments (`facts`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from rapidfuzz.distance import OSA

from . import kernels
from .align import Columns, NameAlignment, PartPair, align
from .facts import NO_EVIDENCE, Adjustment, birth_date_adjustment, gender_adjustment, nationality_adjustment
from .normalize import NAME, PARTICLE, PERSON, TITLE, NameToken, NormalizedName, normalize_name, split_alternatives
from .pair import ALIGNMENT_CONSTANTS, pair_packings
from .types import AlignedPart, Explanation, ListEntity, ListName, Match, PersonQuery

# From this score a result is reported as a possible match (see docs/matching.md).
DEFAULT_THRESHOLD = 0.75
WEAK_ALIAS_FACTOR = 0.9  # low-quality aliases ("a.k.a." nicknames) count less
JOINED_SIMILARITY = 0.95
JOINED_TYPO_SIMILARITY = 0.9
JOINED_TYPO_MIN_LENGTH = 9
UNCONTRADICTING_ROLES = frozenset({PARTICLE, TITLE})  # "al" or "Dr." on one side only is no conflict
WITHOUT_FULL_PART_CAP = 0.5  # "N.N." against "Nursultan Nazarbayev": initials alone identify no one


class Penalties(NamedTuple):
    conflict: float
    query_extra: float
    list_extra: float


# Companies with an extra distinctive word are often sister companies, so extras cost more.
PENALTIES = {
    PERSON: Penalties(conflict=2.0, query_extra=0.3, list_extra=0.15),
}
DEFAULT_PENALTIES = Penalties(conflict=2.0, query_extra=0.5, list_extra=0.4)
# The same, as the compiled scorer reads them.
PENALTY_ARRAYS = {kind: np.array(penalties, dtype=np.float64) for kind, penalties in PENALTIES.items()}
DEFAULT_PENALTY_ARRAY = np.array(DEFAULT_PENALTIES, dtype=np.float64)
PAIR_CONSTANTS = np.array([*ALIGNMENT_CONSTANTS, WITHOUT_FULL_PART_CAP, JOINED_SIMILARITY], dtype=np.float64)


# The aligned parts (in the query's order), the query's parts left over and the list name's.
DescribedAlignment = tuple[list[AlignedPart], list[str], list[str]]


class NameComparison(NamedTuple):
    score: float
    query: NormalizedName
    listed: NormalizedName
    alignment: NameAlignment


def score_names(a: str, b: str, schema: str = "Person") -> float:
    """Similarity in [0, 1] of a query name `a` and a list name `b`."""
    if "/" not in a and "/" not in b:
        return name_score(normalize_name(a, schema), normalize_name(b, schema))
    return max(
        name_score(normalize_name(query, schema), normalize_name(listed, schema))
        for query in split_alternatives(a, schema)
        for listed in split_alternatives(b, schema)
    )


def name_score(query: NormalizedName, listed: NormalizedName) -> float:
    """`compare_names(query, listed).score`, compiled (`kernels.pair_score`) unless the names
    need Python's `align`: no parts, or parts that glue."""
    if not query.tokens or not listed.tokens:
        return compare_names(query, listed).score
    query_packed, listed_packed = pair_packings(query, listed)
    score, need = kernels.pair_score(
        query_packed.parts, query_packed.weights, listed_packed.parts, listed_packed.weights,
        PENALTY_ARRAYS.get(query.kind, DEFAULT_PENALTY_ARRAY), PAIR_CONSTANTS,
    )
    if need == kernels.SCORE_DONE:
        return score
    if need == kernels.SCORE_JOINED_OTHER_COUNT:
        return max(score, joined_similarity(query.joined, listed.joined))
    if need == kernels.SCORE_JOINED_SAME_COUNT:
        return JOINED_SIMILARITY if query.joined == listed.joined else score
    return compare_names(query, listed).score  # parts glue: `align` pairs them


def compare_names(
    query: NormalizedName,
    listed: NormalizedName,
    columns: Columns | None = None,
) -> NameComparison:
    """`columns`: see `align.align`."""
    alignment = align(query.tokens, listed.tokens, columns)
    score = alignment_score(query.tokens, listed.tokens, alignment, PENALTIES.get(query.kind, DEFAULT_PENALTIES))
    if score < JOINED_SIMILARITY:
        if len(query.tokens) != len(listed.tokens):
            score = max(score, joined_similarity(query.joined, listed.joined))
        elif _letter_count(query) == _letter_count(listed) and query.joined == listed.joined:
            score = JOINED_SIMILARITY  # "Hon-gsop" / "Hong-sop": the same letters split elsewhere
    return NameComparison(score, query, listed, alignment)


def _letter_count(name: NormalizedName) -> int:
    return sum(len(token.text) for token in name.tokens)


def joined_similarity(query: str, listed: str) -> float:
    """Same letters, spaced differently ("SiemensAG", "Good Will"), at most one typo in a long name.

    Only asked when the names split into a different number of parts; otherwise
    the part-by-part comparison has already judged every letter.
    """
    if query == listed and query:
        return JOINED_SIMILARITY
    if (
        min(len(query), len(listed)) >= JOINED_TYPO_MIN_LENGTH
        and abs(len(query) - len(listed)) <= 1  # else more than one edit apart: no need to measure
        and OSA.distance(query, listed, score_cutoff=1) <= 1
    ):
        return JOINED_TYPO_SIMILARITY
    return 0.0


def alignment_score(
    query: tuple[NameToken, ...],
    listed: tuple[NameToken, ...],
    alignment: NameAlignment,
    penalties: Penalties,
) -> float:
    achieved = 0.0
    evidence = 0.0
    full_part_aligned = False
    for pair in alignment.pairs:
        weight = 0.0
        for i in pair.query:
            weight += query[i].weight
        for j in pair.listed:
            weight += listed[j].weight
        weight /= 2
        achieved += pair.similarity * weight
        evidence += weight
        full_part_aligned = full_part_aligned or (
            query[pair.query[0]].role == NAME and listed[pair.listed[0]].role == NAME
        )
    if achieved == 0.0:
        return 0.0
    if not full_part_aligned:
        achieved = min(achieved, evidence * WITHOUT_FULL_PART_CAP)
    query_left, query_contradicting = _leftover(query, alignment.unmatched_query)
    listed_left, listed_contradicting = _leftover(listed, alignment.unmatched_listed)
    conflicting = min(query_contradicting, listed_contradicting)
    denominator = (
        evidence
        + penalties.conflict * conflicting
        + penalties.query_extra * (query_left - conflicting)
        + penalties.list_extra * (listed_left - conflicting)
    )
    return achieved / denominator


def _leftover(tokens: tuple[NameToken, ...], positions: tuple[int, ...]) -> tuple[float, float]:
    """Weight of unaligned parts, and of those that can contradict (particles and titles cannot)."""
    left = contradicting = 0.0
    for position in positions:
        token = tokens[position]
        left += token.weight
        if token.role not in UNCONTRADICTING_ROLES:
            contradicting += token.weight
    return left, contradicting


def score_pair(query: PersonQuery, entity: ListEntity) -> Match:
    """The best of the entity's names against the query, then birth date, nationality, gender."""
    query_name = normalize_name(query.name, query.schema)
    best: tuple[float, NameComparison, ListName] | None = None
    for list_name in entity.names:
        comparison = compare_names(query_name, normalize_name(list_name.name, entity.schema))
        score = listed_name_score(comparison, list_name)
        if best is None or score > best[0]:
            best = (score, comparison, list_name)
    if best is None:
        return entity_match(query, entity, None, None)
    _, comparison, list_name = best
    return entity_match(query, entity, comparison, list_name)


def listed_name_score(comparison: NameComparison, list_name: ListName) -> float:
    return comparison.score * (WEAK_ALIAS_FACTOR if list_name.quality == "weak" else 1.0)


def entity_match(
    query: PersonQuery,
    entity: ListEntity,
    comparison: NameComparison | None,
    list_name: ListName | None,
) -> Match:
    """The match for the entity's best-matching name, with birth date, nationality and gender applied."""
    name_score = listed_name_score(comparison, list_name) if comparison and list_name else 0.0
    explanation = _explain(query, comparison, list_name, name_score, entity)
    return Match(entity.id, explanation.final, explanation)


def fact_adjustments(query: PersonQuery, entity: ListEntity) -> tuple[Adjustment, Adjustment, Adjustment]:
    """Birth date, nationality and gender evidence, in that order."""
    return (
        birth_date_adjustment(query.birth_date, entity.birth_dates),
        nationality_adjustment(query.nationalities, entity.nationalities),
        gender_adjustment(query.gender, entity.gender),
    )


# What `fact_adjustments` gives for any entity when the query has no birth date, nationality or gender.
NO_FACTS = (NO_EVIDENCE, NO_EVIDENCE, NO_EVIDENCE)


def final_score(name_score: float, adjustments: tuple[Adjustment, ...]) -> float:
    total = 0.0  # summed first, as `sum` did: the same float
    for adjustment in adjustments:
        total += adjustment.value
    return min(1.0, max(0.0, name_score + total))


def _explain(
    query: PersonQuery,
    comparison: NameComparison | None,
    list_name: ListName | None,
    name_score: float,
    entity: ListEntity,
) -> Explanation:
    return explanation(
        query.name,
        list_name.name if list_name else "",
        list_name.quality if list_name else "",
        name_score,
        fact_adjustments(query, entity),
        describe_alignment(comparison) if comparison is not None else None,
    )


def explanation(
    query_name: str,
    matched_name: str,
    quality: str,
    name_score: float,
    adjustments: tuple[Adjustment, Adjustment, Adjustment],
    alignment: DescribedAlignment | None,
) -> Explanation:
    """The explanation of a name score (of `matched_name`, "" when the entity has no name) with
    the fact `adjustments` applied; `alignment` is None when no name was compared."""
    birth, nationality, gender = adjustments
    final = final_score(name_score, adjustments)
    notes = [note for note in (birth.note, nationality.note, gender.note) if note]
    if alignment is None:
        return Explanation(query_name, matched_name, quality, round(name_score, 4), birth.value, nationality.value,
                           gender.value, round(final, 4), notes=notes)
    if quality == "weak":
        notes.insert(0, "matched a low-quality alias")
    aligned, unmatched_query, unmatched_listed = alignment
    return Explanation(query_name, matched_name, quality, round(name_score, 4), birth.value, nationality.value,
                       gender.value, round(final, 4), aligned, unmatched_query, unmatched_listed, notes)


def describe_alignment(comparison: NameComparison) -> DescribedAlignment:
    """The aligned parts in the query's order, and the parts left over, as the explanation shows them."""
    query_tokens = comparison.query.tokens
    listed_tokens = comparison.listed.tokens
    alignment = comparison.alignment
    pairs = alignment.pairs
    if len(pairs) > 1:
        pairs = sorted(pairs, key=_first_query_part)  # in the query's order
    return (
        [AlignedPart(_forms(query_tokens, pair.query), _forms(listed_tokens, pair.listed), round(pair.similarity, 3),
                     pair.reason)
         for pair in pairs],
        [query_tokens[i].form for i in alignment.unmatched_query],
        [listed_tokens[j].form for j in alignment.unmatched_listed],
    )


def _first_query_part(pair: PartPair) -> int:
    return pair.query[0]


def _forms(tokens: tuple[NameToken, ...], positions: tuple[int, ...]) -> str:
    """The parts as written, one or several glued ("patr ushev")."""
    if len(positions) == 1:
        return tokens[positions[0]].form
    return " ".join([tokens[i].form for i in positions])
