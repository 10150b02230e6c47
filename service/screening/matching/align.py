"""Pair the parts of two names.

`token_similarity` says how alike two name parts are and why (same spelling,
a typo, a known variant of the same name, an initial, a phonetic or consonant
match across scripts). `align` pairs query parts with list parts, best pairs
first, then glues split or joined words ("Patr ushev" / "Patrushev",
"VladimirPutin" / "Vladimir Putin") and ignores repeated parts.
"""

from __future__ import annotations

from typing import NamedTuple

from rapidfuzz.distance import OSA

from .normalize import INITIAL, NAME, NUMBER, NameToken

# "son/daughter of": the part after it is the father's name.
PATRONYMIC_MARKERS = frozenset({"bin", "ibn", "ben", "bint", "binti", "ould"})
ROLE_MISMATCH_FACTOR = 0.5  # a father's name aligned with a person's own name
NAME_LIKE = frozenset({NAME, INITIAL})

VARIANT_SIMILARITY = 0.9  # rigour knows both spellings as one name (Mohammed / Muhammad)
PHONETIC_SIMILARITY = 0.8  # same metaphone key (Scholz / Schulze)
SKELETON_SIMILARITY = 0.85  # same consonants, one side written without vowels (Arabic, Hebrew)
NEAR_SKELETON_SIMILARITY = SKELETON_SIMILARITY - 0.15  # consonants one edit apart
INITIAL_SIMILARITY = 0.8  # "V." for "Vladimir": consistent, but weaker than the full name
MIN_SIMILARITY = 0.55  # below this two parts are different names, not variants
LONGEST_GLUED_RUN = 4  # "Plat Ono Vich" -> "Platonovich"
SHORTEST_TYPO_PART = 3  # "Ole" / "Ola", "Ali" / "Ari": in short names one letter is another name


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


Column = tuple[tuple[float, str], ...]  # one list part's similarity (and reason) to each query part
Columns = list[Column]  # per list part of a name


def align(
    query: tuple[NameToken, ...],
    listed: tuple[NameToken, ...],
    columns: Columns | None = None,
) -> NameAlignment:
    """Pair query and list name parts, most similar first; each part is used once.

    `columns`, when given, holds each list part's similarity to every query part
    (`similarity_column`): callers comparing one query with many names reuse the
    columns of list parts those names share.
    """
    query_fathers = _patronymic_positions(query)
    listed_fathers = _patronymic_positions(listed) if query_fathers else set()
    candidates = []
    if columns is None:
        # One comparison alone (`score_names`, `score_pair`): similarities computed in the loop,
        # as building columns no other name reuses costs such a comparison about 12 %.
        for i, q in enumerate(query):
            for j, part in enumerate(listed):
                if q.text == part.text and q.form == part.form:
                    value, reason = 1.0, "exact"  # the common case, without a call
                else:
                    value, reason = token_similarity(q, part)
                if value > 0.0:
                    if listed_fathers and (i in query_fathers) != (j in listed_fathers):
                        value *= ROLE_MISMATCH_FACTOR
                    # Ties go to the heavier pair, then to parts in the same position.
                    candidates.append((value, q.weight + part.weight, -abs(i - j), i, j, reason))
    else:
        # The same loop over columns a search shares across the names it compares.
        for j, column in enumerate(columns):
            listed_weight = listed[j].weight
            for i, (value, reason) in enumerate(column):
                if value > 0.0:
                    if listed_fathers and (i in query_fathers) != (j in listed_fathers):
                        value *= ROLE_MISMATCH_FACTOR
                    candidates.append((value, query[i].weight + listed_weight, -abs(i - j), i, j, reason))
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


def similarity_column(query: tuple[NameToken, ...], part: NameToken) -> Column:
    """One list part's similarity to each query part; the same spelling is the common case,
    answered without a call."""
    text, form = part.text, part.form
    return tuple([(1.0, "exact") if q.text == text and q.form == form else token_similarity(q, part) for q in query])


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
