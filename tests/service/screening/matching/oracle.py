"""The matching rules in plain Python: the oracle the compiled engine is held to.

Each function states one rule as simply as it can be read (`align`'s part similarity and
pairing, glued and repeated parts, fathers' names; `alignment_score` and the joined
letters); production computes them once, compiled (`service.screening.matching.kernels`).
The tests compare the engine's scores, alignments and reasons with these, exactly.
"""

from __future__ import annotations

from rapidfuzz.distance import OSA

from service.screening.matching.align import (
    INITIAL_SIMILARITY,
    MIN_SIMILARITY,
    NEAR_SKELETON_SIMILARITY,
    PATRONYMIC_MARKERS,
    PHONETIC_SIMILARITY,
    ROLE_MISMATCH_FACTOR,
    SKELETON_SIMILARITY,
    VARIANT_SIMILARITY,
    NameAlignment,
    PartPair,
)
from service.screening.matching.kernels.alignment import LONGEST_GLUED_RUN
from service.screening.matching.normalize import INITIAL, NAME, NUMBER, PARTICLE, TITLE, NameToken, NormalizedName
from service.screening.matching.score import (
    DEFAULT_PENALTIES,
    JOINED_SIMILARITY,
    JOINED_TYPO_MIN_LENGTH,
    JOINED_TYPO_SIMILARITY,
    PENALTIES,
    WITHOUT_FULL_PART_CAP,
    NameComparison,
    Penalties,
)

NAME_LIKE = frozenset({NAME, INITIAL})
SHORTEST_TYPO_PART = 3  # "Ole" / "Ola", "Ali" / "Ari": in short names one letter is another name
UNCONTRADICTING_ROLES = frozenset({PARTICLE, TITLE})  # "al" or "Dr." on one side only is no conflict


def edit_similarity(a: str, b: str) -> float:
    """1 - edits / length when within the typo budget, else 0 (a swap of two letters is one edit).

    The budget: no typos in parts of three letters or fewer ("Ole" / "Ola" are two
    names), one up to four letters, two up to nine, three beyond. A differing first
    letter is rarer as a typo than as a different name, so it costs one edit of the
    budget in parts longer than four letters.
    """
    length_a, length_b = len(a), len(b)
    shortest = length_a if length_a < length_b else length_b
    if shortest <= SHORTEST_TYPO_PART:
        return 0.0
    if shortest <= 4:
        budget = 1
    else:
        budget = (2 if shortest <= 9 else 3) - (a[0] != b[0])
    if abs(length_a - length_b) > budget:
        return 0.0
    distance = OSA.distance(a, b, score_cutoff=budget)
    if distance > budget:
        return 0.0
    return 1.0 - distance / (length_a if length_a > length_b else length_b)


def token_similarity(a: NameToken, b: NameToken) -> tuple[float, str]:
    """How alike two name parts are, in [0, 1], and the reason a reviewer would give."""
    # The scorer's innermost call: attributes are read once, `syllabic` is spelt out.
    a_text, b_text = a.text, b.text
    if a_text == b_text:
        if a.form == b.form:
            return 1.0, "exact"
        # Same romanisation, different characters: one Han or Hangul character is another name.
        return (0.0, "") if a.form != a_text and b.form != b_text else (1.0, "script")
    if a.form != a_text and b.form != b_text:
        return 0.0, ""
    a_role, b_role = a.role, b.role
    if a_role == NUMBER or b_role == NUMBER:
        return 0.0, ""
    if a_role == INITIAL or b_role == INITIAL:
        # An initial stands for a name (or is the same initial), never for a particle or title.
        if a_text[0] == b_text[0] and a_role in NAME_LIKE and b_role in NAME_LIKE:
            return INITIAL_SIMILARITY, "initial"
        return 0.0, ""
    best, reason = edit_similarity(a_text, b_text), "typo"
    if best < VARIANT_SIMILARITY and a.symbols and not a.symbols.isdisjoint(b.symbols):
        best, reason = VARIANT_SIMILARITY, "variant"
    if (
        best < PHONETIC_SIMILARITY
        and len(a.phonetic) > 2  # two-letter keys are shared by too many names ("JN": John, Jan, Juan)
        and a.phonetic == b.phonetic
        and a_text[0] == b_text[0]  # "Ginta" and "Janett" sound alike to metaphone only
    ):
        best, reason = PHONETIC_SIMILARITY, "phonetic"
    if a.abjad != b.abjad and best < SKELETON_SIMILARITY:
        best, reason = max((best, reason), _skeleton_similarity(a, b))
    return (best, reason) if best >= MIN_SIMILARITY else (0.0, "")


def _skeleton_similarity(a: NameToken, b: NameToken) -> tuple[float, str]:
    """A Latin spelling against one from an abjad: compare consonants only."""
    if a.syllabic or b.syllabic or len(a.skeleton) < 3 or len(b.skeleton) < 3 or a.skeleton[0] != b.skeleton[0]:
        return 0.0, ""
    if a.skeleton == b.skeleton:
        return SKELETON_SIMILARITY, "script"
    if min(len(a.skeleton), len(b.skeleton)) >= 4 and OSA.distance(a.skeleton, b.skeleton, score_cutoff=1) <= 1:
        return NEAR_SKELETON_SIMILARITY, "script"
    return 0.0, ""


def align(query: tuple[NameToken, ...], listed: tuple[NameToken, ...]) -> NameAlignment:
    """Pair query and list name parts, most similar first; each part is used once."""
    query_fathers = _patronymic_positions(query)
    listed_fathers = _patronymic_positions(listed) if query_fathers else set()
    candidates = []
    for i, q in enumerate(query):
        for j, part in enumerate(listed):
            value, reason = token_similarity(q, part)
            if value > 0.0:
                if listed_fathers and (i in query_fathers) != (j in listed_fathers):
                    value *= ROLE_MISMATCH_FACTOR
                # Ties go to the heavier pair, then to parts in the same position.
                candidates.append((value, q.weight + part.weight, -abs(i - j), i, j, reason))
    candidates.sort(reverse=True)
    free_query = set(range(len(query)))
    free_listed = set(range(len(listed)))
    pairs: list[PartPair] = []
    for value, _, _, i, j, reason in candidates:
        if i in free_query and j in free_listed:
            free_query.discard(i)
            free_listed.discard(j)
            pairs.append(PartPair((i,), (j,), value, reason))
    if free_query and free_listed:
        if _has_run(free_listed):
            for single, glued, value in _glue_runs(query, listed, free_query, free_listed):
                pairs.append(PartPair((single,), glued, value, "joined"))
        if _has_run(free_query):
            for single, glued, value in _glue_runs(listed, query, free_listed, free_query):
                pairs.append(PartPair(glued, (single,), value, "joined"))
    if not free_listed and free_query:
        _drop_repeats(query, pairs, free_query, side=0)
    if not free_query and free_listed:
        _drop_repeats(listed, pairs, free_listed, side=1)
    return NameAlignment(tuple(pairs), tuple(sorted(free_query)), tuple(sorted(free_listed)))


def _has_run(free: set[int]) -> bool:
    """Two adjacent free parts: something that could be glued."""
    return any(position + 1 in free for position in free)


def _glue_runs(
    one: tuple[NameToken, ...],
    other: tuple[NameToken, ...],
    free_one: set[int],
    free_other: set[int],
) -> list[tuple[int, tuple[int, ...], float]]:
    """Free parts of `one` equal to several adjacent free parts of `other` glued together."""
    glued: list[tuple[int, tuple[int, ...], float]] = []
    for i in sorted(free_one):
        token = one[i]
        if token.role != NAME or i not in free_one:
            continue
        best: tuple[float, tuple[int, ...]] | None = None
        for start in sorted(free_other):
            run = [start]
            while len(run) < LONGEST_GLUED_RUN and run[-1] + 1 in free_other:
                run.append(run[-1] + 1)
                text = "".join(other[k].text for k in run)
                if text == token.text:
                    similarity = 1.0
                elif token.syllabic or any(other[k].syllabic for k in run):
                    continue  # Han, Hangul: a different character is another name, not a typo
                else:
                    similarity = edit_similarity(token.text, text)
                if similarity >= MIN_SIMILARITY and (best is None or similarity > best[0]):
                    best = (similarity, tuple(run))
        if best is not None:
            similarity, parts = best
            free_one.discard(i)
            free_other.difference_update(parts)
            glued.append((i, parts, similarity))
    return glued


def _patronymic_positions(tokens: tuple[NameToken, ...]) -> set[int]:
    return {i + 1 for i in range(len(tokens) - 1) if tokens[i].text in PATRONYMIC_MARKERS}


def _drop_repeats(tokens: tuple[NameToken, ...], pairs: list[PartPair], free: set[int], side: int) -> None:
    """"Sergey Sergey Shoigu": a repeated part adds nothing, unless it stands against another name."""
    aligned_texts = {tokens[k].text for pair in pairs for k in (pair.query if side == 0 else pair.listed)}
    for k in [k for k in free if tokens[k].text in aligned_texts]:
        free.discard(k)


def compare_names(query: NormalizedName, listed: NormalizedName) -> NameComparison:
    alignment = align(query.tokens, listed.tokens)
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
