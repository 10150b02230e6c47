"""Score a query against list names and entities.

Name score: the query's parts are aligned with the list name's parts (`align`
holds the rules' constants; `kernels.alignment` computes them). Each aligned pair contributes its similarity, weighted by how much
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

from .align import MIN_SIMILARITY, ROLE_MISMATCH_FACTOR, NameAlignment, PartPair
from .facts import NO_EVIDENCE, Adjustment, birth_date_adjustment, gender_adjustment, nationality_adjustment
from .kernels.alignment import ScoreRules, joined_rule
from .kernels.scoring import pair_alignment, pair_score
from .kernels.similarity import REASONS
from .normalize import PERSON, NameToken, NormalizedName, normalize_name, split_alternatives
from .pair import pair_packings
from .types import AlignedPart, Explanation, ListEntity, ListName, Match, PersonQuery
from .vocabulary import PART_RULES, code_points

# From this score a result is reported as a possible match (see docs/matching.md).
DEFAULT_THRESHOLD = 0.75
WEAK_ALIAS_FACTOR = 0.9  # low-quality aliases ("a.k.a." nicknames) count less
JOINED_SIMILARITY = 0.95
JOINED_TYPO_SIMILARITY = 0.9
JOINED_TYPO_MIN_LENGTH = 9
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
# The same, as the compiled estimate and scorer read them.
PENALTY_ARRAYS = {kind: np.array(penalties, dtype=np.float64) for kind, penalties in PENALTIES.items()}
DEFAULT_PENALTY_ARRAY = np.array(DEFAULT_PENALTIES, dtype=np.float64)


def _score_rules(penalties: np.ndarray) -> ScoreRules:
    return ScoreRules(penalties, WITHOUT_FULL_PART_CAP, JOINED_SIMILARITY, JOINED_TYPO_SIMILARITY, JOINED_TYPO_MIN_LENGTH,
                      MIN_SIMILARITY, ROLE_MISMATCH_FACTOR)


SCORE_RULES = {kind: _score_rules(penalties) for kind, penalties in PENALTY_ARRAYS.items()}
DEFAULT_SCORE_RULES = _score_rules(DEFAULT_PENALTY_ARRAY)


def _pair_rules(rules: ScoreRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return np.array(PART_RULES, dtype=np.float64), np.array(rules[1:], dtype=np.float64), rules.penalties


# The same for a comparison alone (`kernels.scoring.pair_score`), as arrays: a NamedTuple costs
# about a microsecond to pass from Python.
PAIR_RULES = {kind: _pair_rules(rules) for kind, rules in SCORE_RULES.items()}
DEFAULT_PAIR_RULES = _pair_rules(DEFAULT_SCORE_RULES)


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
    """`compare_names(query, listed).score` without the alignment (`kernels.scoring.pair_score`)."""
    query_packed, listed_packed = pair_packings(query, listed)
    return pair_score(query_packed.parts, query_packed.weights, query_packed.joined, listed_packed.parts,
                      listed_packed.weights, listed_packed.joined, *PAIR_RULES.get(query.kind, DEFAULT_PAIR_RULES))[0]


def compare_names(query: NormalizedName, listed: NormalizedName) -> NameComparison:
    """The query's name against a list name: the score and the alignment that explains it,
    compiled (`kernels.scoring.pair_alignment`)."""
    query_packed, listed_packed = pair_packings(query, listed)
    score, _, pairs, values, reasons, free_query, free_listed = pair_alignment(
        query_packed.parts, query_packed.weights, query_packed.joined, listed_packed.parts, listed_packed.weights,
        listed_packed.joined, *PAIR_RULES.get(query.kind, DEFAULT_PAIR_RULES))
    alignment = NameAlignment(
        tuple([PartPair(tuple(range(query_start, query_end)), tuple(range(listed_start, listed_end)), value,
                        REASONS[reason] if reason >= 0 else "joined")
               for (query_start, query_end, listed_start, listed_end), value, reason
               in zip(pairs.tolist(), values.tolist(), reasons.tolist())]),
        tuple(np.flatnonzero(free_query).tolist()),
        tuple(np.flatnonzero(free_listed).tolist()),
    )
    return NameComparison(score, query, listed, alignment)


def joined_score(score: float, need: int, query_joined: str, listed_joined: str, kind: str) -> float:
    """The score with the rule of joined letters applied (`kernels.alignment.joined_rule`), for
    a search's name whose joined letters only Python has (`MatchIndex._score_names_left`)."""
    return joined_rule(score, need, code_points(query_joined), code_points(listed_joined),
                       SCORE_RULES.get(kind, DEFAULT_SCORE_RULES), np.empty((3, 64), dtype=np.int32))


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
