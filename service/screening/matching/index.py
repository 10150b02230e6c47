"""The index of a list version: build once, then search it for every screened person.

    index = MatchIndex.build(entities)
    matches = index.search(PersonQuery("Vladimir Putin", birth_date="1952"))

A search asks the blocker (`blocking.py`) for candidate names with estimated
scores, scores the best-estimated entities in full (name alignment, then birth
date, nationality and gender) and returns those reaching the threshold, best
first, one match per entity with its explanation.

Memory: names are numpy arrays of part numbers, strings live in packed UTF-8
buffers; the only Python objects per distinct name part are its `NameToken`.
The index pickles (part lookups use a process-independent hash).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import compress

import numpy as np

from .align import PATRONYMIC_MARKERS
from .blocking import INITIAL_CODES, LETTER_CODES, ROLE_CODES, Blocker, pair_hashes
from .kernels.alignment import SCORE_DONE
from .kernels.packing import (
    PART_OTHER,
    ROLE_INITIAL,
    ROLE_NAME,
    ROLE_OTHER,
    IndexNames,
    distinct_parts,
    name_layout,
    name_records,
)
from .kernels.scoring import ScoredQuery, alignment_scores, joined_scores
from .kernels.shortlist import ShortlistRules, shortlisted_candidates
from .kernels.similarity import REASONS
from .normalize import (
    ORGANIZATION,
    PERSON,
    NameToken,
    NormalizedName,
    joined_letters,
    name_kind,
    normalize,
    normalize_name,
    split_alternatives,
)
from .packed import PackedStrings, PackedStringsBuilder
from .postings import Postings
from .score import (
    DEFAULT_SCORE_RULES,
    DEFAULT_THRESHOLD,
    NO_FACTS,
    SCORE_RULES,
    WEAK_ALIAS_FACTOR,
    DescribedAlignment,
    NameComparison,
    compare_names,
    describe_alignment,
    entity_match,
    explanation,
    fact_adjustments,
    final_score,
    joined_score,
    score_names,
)
from .types import AlignedPart, ListEntity, ListName, Match, PersonQuery
from .vocabulary import SCORER_ROLES, Vocabulary, VocabularyBuilder, code_points

KIND_CODES = {PERSON: "p", ORGANIZATION: "o"}
OTHER_KIND_CODE = "x"
GENDER_CODES = {"male": 1, "female": 2}
GENDER_NAMES = {code: name for name, code in GENDER_CODES.items()}
SHORTLIST_ENTITIES = 30  # entities whose best-estimated name is scored in full (20: recall -0.9 points)
SHORTLIST_SPARE = 10  # more entities than asked for, as estimates can be a little off
ESTIMATE_MARGIN = 0.2  # entities estimated this far below the threshold may still reach it
LONG_SHOT_FLOOR = 0.3
LONG_SHOTS = 5  # best-estimated entities below the margin, scored anyway
MAX_NAME_PARTS = 100  # a longer "name" is a garbled entry: its parts beyond this are not indexed (pair keys grow as the square)
# Bumped whenever the pickled layout changes, so caches of an older layout are rebuilt.
INDEX_FORMAT = 3


@dataclass(frozen=True, slots=True)
class IndexStats:
    names: int
    entities: int
    distinct_parts: int
    lookup_keys: int
    array_bytes: int


@dataclass(frozen=True, slots=True)
class _Names:
    start: np.ndarray  # int64, name n's parts are parts[start[n]:start[n + 1]]
    parts: np.ndarray  # int32 part numbers
    entity: np.ndarray  # int32
    weak: np.ndarray  # bool: a low-quality alias
    texts: PackedStrings


@dataclass(frozen=True, slots=True)
class _Entities:
    ids: PackedStrings
    schemas: list[str]
    schema_codes: np.ndarray  # uint8 index into schemas
    birth_dates: PackedStrings  # ";"-joined
    nationalities: PackedStrings  # ";"-joined
    genders: np.ndarray  # int8, GENDER_CODES or 0


class MatchIndex:
    """Search list entities by name; build with `MatchIndex.build(entities)`."""

    def __init__(self, vocabulary: Vocabulary, blocker: Blocker, names: _Names, entities: _Entities, nbytes: int) -> None:
        self._vocabulary = vocabulary
        self._blocker = blocker
        self._names = names
        self._entities = entities
        self._nbytes = nbytes

    @property
    def _kernel_names(self) -> IndexNames:
        """The names as the kernels read them: views, made per search rather than kept (a
        pickle would copy the texts' views)."""
        names = self._names
        return IndexNames(names.start, names.parts, names.entity, names.weak, *names.texts.arrays())

    @classmethod
    def build(cls, entities: Iterable[ListEntity]) -> MatchIndex:
        builder = _IndexBuilder()
        for entity in entities:
            builder.add(entity)
        return builder.finish()

    def __len__(self) -> int:
        """Number of indexed names (aliases count separately)."""
        return len(self._names.entity)

    def stats(self) -> IndexStats:
        return IndexStats(
            names=len(self),
            entities=len(self._entities.ids),
            distinct_parts=len(self._vocabulary),
            lookup_keys=self._vocabulary.lookup_keys,
            array_bytes=self._nbytes,
        )

    def search(self, query: PersonQuery, *, threshold: float | None = None, limit: int = 10) -> list[Match]:
        """Entities whose best name scores at least `threshold` against the query, best first."""
        threshold = DEFAULT_THRESHOLD if threshold is None else threshold
        kind = name_kind(query.schema)
        query_name = normalize_name(query.name, query.schema)
        arguments = self._blocker.kernel_arguments(query_name, kind, KIND_CODES.get(kind, OTHER_KIND_CODE),
                                                   LONG_SHOT_FLOOR)
        if arguments is None:
            return []
        # The best-estimated name of the most promising entities, and of a few long shots (parts
        # two or three typos apart that the lookup keys do not bring together: the estimate
        # counts them as conflicting, the scorer may not).
        rules = ShortlistRules(float(threshold), max(SHORTLIST_ENTITIES, limit + SHORTLIST_SPARE) + LONG_SHOTS,
                               LONG_SHOTS, ESTIMATE_MARGIN, LONG_SHOT_FLOOR)
        shortlist, gathered, text_bytes = shortlisted_candidates(self._kernel_names, rules, *arguments)
        if not len(shortlist):
            return []  # no candidate at all (most queries against a small index, a list update's delta)
        text_bytes = text_bytes.tobytes()
        shortlisted = []
        first_with_text: dict[str, int] = {}  # lists repeat names across entities: each text is scored once
        start = 0
        for name, (entity, weak, end) in zip(shortlist.tolist(), gathered.tolist()):
            text = text_bytes[start:end].decode()
            start = end
            first_with_text.setdefault(text, name)
            shortlisted.append((entity, weak, text))
        scored = self._score_names(query_name, kind, first_with_text)
        best: dict[int, tuple[float, str, bool]] = {}  # entity: its best name's score, text and weak flag
        for entity, weak, text in shortlisted:
            score = scored.scores[text] * (WEAK_ALIAS_FACTOR if weak else 1.0)
            if entity not in best or score > best[entity][0]:
                best[entity] = (score, text, weak)
        with_facts = bool(query.birth_date or query.nationalities or query.gender)
        facts = {}
        ranked = []
        for entity, (score, _, _) in best.items():
            if with_facts:
                facts[entity] = fact_adjustments(query, self._entity(entity))
                score = final_score(score, facts[entity])
            if score >= threshold:
                ranked.append((-score, entity))
        ranked.sort()  # equal scores in list order
        ids = self._entities.ids
        matches = []
        for _, entity in ranked[:limit]:
            name_score, text, weak = best[entity]
            found = explanation(query.name, text, "weak" if weak else "strong", name_score,
                                facts[entity] if with_facts else NO_FACTS, scored.described(text))
            matches.append(Match(ids[entity], found.final, found))
        return matches

    def score_listed_name(self, query: PersonQuery, name: int) -> Match | None:
        """The query scored against one indexed name (by number), without blocking; None when
        the name is of another kind (a person's against an organisation's), as `search` skips those."""
        entity = self._entity(int(self._names.entity[name]))
        kind = name_kind(query.schema)
        if name_kind(entity.schema) != kind:
            return None
        comparison = self._compare(normalize_name(query.name, query.schema), name, kind)
        return entity_match(query, entity, comparison, self._list_name(name))

    def comparable_texts(self) -> list[str]:
        """Every indexed name as its normalised parts, for exhaustive scans that check the blocking."""
        texts = [part.text for part in self._vocabulary.parts]
        start = self._names.start.tolist()
        parts = self._names.parts
        return [" ".join(texts[part] for part in parts[start[n]:start[n + 1]].tolist()) for n in range(len(self))]

    def _score_names(self, query_name: NormalizedName, kind: str, first_with_text: dict[str, int]) -> _ScoredNames:
        """`compare_names` of the query against names (one per text): scores for all, compiled
        (`kernels.scoring.alignment_scores`), comparisons with their alignments when asked for."""
        scored = _ScoredNames(self, query_name, kind, first_with_text)
        query_tokens = query_name.tokens
        if not query_tokens or any(token.text in PATRONYMIC_MARKERS for token in query_tokens[:-1]):
            # A father's name is weighed against the list name's own (`kernels.scoring.pair_alignment`).
            for text, name in first_with_text.items():
                scored.compare_alone(text, name)
            return scored
        names = np.fromiter(first_with_text.values(), dtype=np.int64, count=len(first_with_text))
        rows = distinct_parts(names, self._names.start, self._names.parts)
        vocabulary = self._vocabulary
        query = vocabulary.query_parts(query_tokens)
        similarity, reasons = vocabulary.similarity_matrix(query, len(query_tokens), rows)
        scored.keep_reasons(rows, reasons)
        query_texts: dict[str, int] = {}
        weights, roles, texts, letters = [], [], [], []
        for token in query_tokens:  # one walk, not one per array
            weights.append(token.weight)
            roles.append(SCORER_ROLES.get(token.role, PART_OTHER))
            texts.append(query_texts.setdefault(token.text, len(query_texts)))
            letters.append(len(token.text))
        scored_query = ScoredQuery(np.array(weights, dtype=np.float64), np.array(roles, dtype=np.int64),
                                   np.array(texts, dtype=np.int64), np.array(letters, dtype=np.int64), query,
                                   code_points(query_name.joined))
        names_arrays = self._kernel_names
        scorer, rules = vocabulary.scorer_tables, SCORE_RULES.get(kind, DEFAULT_SCORE_RULES)
        scores, needs, *scored.alignments = alignment_scores(scored_query, names, names_arrays, rows, similarity,
                                                             scorer, rules)
        left = joined_scores(scores, needs, names, scored_query, names_arrays, scorer, rules)
        # Most names are done: all go in at once, then the few left (their parts glue, or
        # they are joined by Han or Hangul forms) one by one.
        scored.positions = dict(zip(first_with_text, range(len(first_with_text))))
        scored.scores = dict(zip(first_with_text, scores.tolist()))
        if left:
            self._score_names_left(scored, query_name, first_with_text, needs, kind)
        return scored

    def _score_names_left(self, scored: _ScoredNames, query_name: NormalizedName, first_with_text: dict[str, int],
                          needs: np.ndarray, kind: str) -> None:
        """The names `kernels.scoring.joined_scores` left: joined by their parts' forms (Han or
        Hangul), which only Python has."""
        texts = list(first_with_text)
        for position in np.flatnonzero(needs != SCORE_DONE).tolist():
            text = texts[position]
            listed = joined_letters(text, self._tokens(self._part_numbers(first_with_text[text])))
            scored.scores[text] = joined_score(scored.scores[text], int(needs[position]), query_name.joined, listed,
                                               kind)

    def _compare(self, query_name: NormalizedName, name: int, kind: str, text: str | None = None) -> NameComparison:
        """The query against one indexed name (whose `text` the caller may have read already)."""
        text = self._names.texts[name] if text is None else text
        return compare_names(query_name, NormalizedName(text, kind, self._tokens(self._part_numbers(name))))

    def _part_numbers(self, name: int) -> list[int]:
        """The vocabulary numbers of an indexed name's parts, in order."""
        return self._names.parts[self._names.start[name]:self._names.start[name + 1]].tolist()

    def _tokens(self, numbers: list[int]) -> tuple[NameToken, ...]:
        parts = self._vocabulary.parts
        return tuple([parts[number] for number in numbers])

    def _list_name(self, name: int, text: str | None = None) -> ListName:
        """The indexed name as a `ListName`; `text` when the caller has decoded it already."""
        text = self._names.texts[name] if text is None else text
        return ListName(text, "weak" if self._names.weak[name] else "strong")

    def _entity(self, entity: int) -> ListEntity:
        entities = self._entities
        birth_dates = entities.birth_dates[entity]
        nationalities = entities.nationalities[entity]
        return ListEntity(
            id=entities.ids[entity],
            schema=entities.schemas[entities.schema_codes[entity]],
            names=[],
            birth_dates=birth_dates.split(";") if birth_dates else [],
            nationalities=nationalities.split(";") if nationalities else [],
            gender=GENDER_NAMES.get(int(entities.genders[entity])),
        )


class _ScoredNames:
    """The names a search scored (one per text): `scores`, and each one's alignment as the
    explanation shows it (`described`), the same `compare_names` gives, read from the compiled
    pass over all names (or from the `NameComparison` of a name compared alone, `compare_alone`)."""

    def __init__(self, index: MatchIndex, query_name: NormalizedName, kind: str, first_with_text: dict[str, int]):
        self._index = index
        self._query_name = query_name
        self._query_forms = [token.form for token in query_name.tokens]  # as an explanation shows them
        self._kind = kind
        self._first_with_text = first_with_text
        self.scores: dict[str, float] = {}
        self._matrix: tuple[np.ndarray, np.ndarray] | None = None  # kept by `keep_reasons`
        self._rows: dict[int, int] = {}  # list part number: its row in the compiled similarities
        self._reasons: list[list[int]] = []  # [row][query part], kernels.similarity.REASONS numbers
        self.positions: dict[str, int] = {}  # text: its name's position in the compiled pass
        self.alignments: list[np.ndarray] = []  # the compiled pass's pair counts, pairs, values, unmatched flags
        self._comparisons: dict[str, NameComparison] = {}

    def keep_reasons(self, rows: np.ndarray, reasons: np.ndarray) -> None:
        """Why each part in `rows` is like each query part (`similarity_matrix`); read
        (`_read_reasons`) only when an explanation is asked for."""
        self._matrix = (rows, reasons)

    def _read_reasons(self) -> None:
        if self._matrix is not None:
            rows, reasons = self._matrix
            self._rows = dict(zip(rows.tolist(), range(len(rows))))
            self._reasons = reasons.tolist()
            self._matrix = None

    def compare_alone(self, text: str, name: int) -> None:
        comparison = self._comparisons[text] = self._index._compare(self._query_name, name, self._kind, text)
        self.scores[text] = comparison.score

    def described(self, text: str) -> DescribedAlignment:
        """The name's alignment as an explanation shows it (`describe_alignment`); read straight from
        the compiled alignment, without the `NameComparison` the scorer would make."""
        position = self.positions.get(text)
        if position is None:
            return describe_alignment(self._comparisons[text])
        pair_counts, pairs, values, unmatched_query, unmatched_listed = self.alignments
        numbers = self._index._part_numbers(self._first_with_text[text])
        query_forms = self._query_forms
        parts = self._index._vocabulary.parts
        self._read_reasons()
        rows, reasons = self._rows, self._reasons
        aligned = []
        # Sorted in the query's order: a query part is in one pair at most.
        found = [(*pair, value) for pair, value in zip(pairs[position, :pair_counts[position]].tolist(),
                                                        values[position, :pair_counts[position]].tolist())]
        for query_start, query_end, listed_start, listed_end, value in sorted(found):
            if query_end - query_start == 1 and listed_end - listed_start == 1:
                number = numbers[listed_start]
                aligned.append(AlignedPart(query_forms[query_start], parts[number].form, round(value, 3),
                                           REASONS[reasons[rows[number]][query_start]]))
            else:  # glued parts
                aligned.append(AlignedPart(" ".join(query_forms[query_start:query_end]),
                                           " ".join([parts[number].form for number in numbers[listed_start:listed_end]]),
                                           round(value, 3), "joined"))
        return (
            aligned,
            list(compress(query_forms, unmatched_query[position].tolist())),
            [parts[number].form for number in compress(numbers, unmatched_listed[position].tolist())],
        )


def warm_up() -> None:
    """Load rigour's name database and the compiled kernels (compiling them on the first run
    after an install), so that a worker's first real search is not the one that waits."""
    index = MatchIndex.build([
        ListEntity("warm-up-1", "Person", [ListName("Vladimir Vladimirovich Putin"), ListName("V. V. Putin")]),
        ListEntity("warm-up-2", "Person", [ListName("Mohammed Ali Hassan")]),
        ListEntity("warm-up-3", "Organization", [ListName("Rosneft Oil Company")]),
    ])
    for name in ("V. Putin", "Vladimir Putn", "Mohammed Ali", "Hassan"):
        index.search(PersonQuery(name, birth_date="1952-10-07"))
    index.search(PersonQuery("Rosneft", schema="Organization"))
    index.search(PersonQuery("Mohammed bin Ali Hassan"))  # fathers' names: `kernels.scoring.pair_alignment`
    score_names("Vladimir Putn", "Putin, Vladimir")  # one pair alone: `kernels.scoring.pair_score`
    score_names("Vladimir Putin", "Putin")  # and its joined letters, in the same kernel


class _IndexBuilder:
    def __init__(self) -> None:
        self.vocabulary = VocabularyBuilder()
        self.name_start = array("q", [0])
        self.name_parts = array("i")
        self.name_entity = array("i")
        self.name_weak = array("b")
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
        number = len(self.entity_ids)
        self.entity_ids.append(entity.id)
        if entity.schema not in self.entity_schemas:
            self.entity_schemas.append(entity.schema)
        self.entity_schema_codes.append(self.entity_schemas.index(entity.schema))
        self.entity_birth_dates.append(";".join(entity.birth_dates))
        self.entity_nationalities.append(";".join(code.lower() for code in entity.nationalities))
        self.entity_genders.append(GENDER_CODES.get((entity.gender or "").lower(), 0))
        for list_name in entity.names:
            for text in split_alternatives(list_name.name, entity.schema):
                # A garbled entry of thousands of words must not stop the whole list's index.
                tokens = normalize(text, kind).tokens[:MAX_NAME_PARTS]
                if tokens:
                    self._add_name(text, tokens, kind_code, number, list_name.quality == "weak")

    def _add_name(self, text: str, tokens: tuple[NameToken, ...], kind_code: str, entity: int, weak: bool) -> None:
        # Only the part numbers: what the blocking derives from them is computed for all
        # names at once in `finish` (`kernels.packing.name_layout`).
        number = self.vocabulary.number
        self.name_parts.extend([number(kind_code, token) for token in tokens])
        self.name_start.append(len(self.name_parts))
        self.name_entity.append(entity)
        self.name_weak.append(weak)
        self.name_texts.append(text)

    def finish(self) -> MatchIndex:
        vocabulary = self.vocabulary.finish()
        name_start = _numpy(self.name_start, np.int64)
        name_parts = _numpy(self.name_parts, np.int32)
        tokens = vocabulary.parts
        roles = np.fromiter((ROLE_CODES.get(token.role, ROLE_OTHER) for token in tokens), dtype=np.int8,
                            count=len(tokens))
        # `blocking.first_letter` of every part: its first letter where an initial may stand for it.
        letters = np.where((roles == ROLE_NAME) | (roles == ROLE_INITIAL), vocabulary.first_letters, -1)
        (weight, contradicting_weight, part_count, part_letters, repeated_letters, initial_letters,
         single_parts, single_names, pair_codes, pair_names) = name_layout(
            name_start,
            name_parts,
            roles,
            np.fromiter((token.weight for token in tokens), dtype=np.float64, count=len(tokens)),
            letters.astype(np.int8),
            INITIAL_CODES,
            LETTER_CODES,
        )
        occurrences = np.repeat(np.arange(len(self.name_entity), dtype=np.int32), np.diff(name_start))
        parts = Postings.from_pairs(name_parts, occurrences, dense_size=len(vocabulary))
        pairs = Postings.from_pairs(pair_hashes(pair_codes), pair_names)
        singles = Postings.from_pairs(single_parts, single_names, dense_size=len(vocabulary))
        records = name_records(name_start, weight, contradicting_weight, part_count, part_letters,
                                       repeated_letters, initial_letters)
        names = _Names(
            start=name_start,
            parts=name_parts,
            entity=_numpy(self.name_entity, np.int32),
            weak=_numpy(self.name_weak, np.int8).astype(bool),
            texts=self.name_texts.finish(),
        )
        entities = _Entities(
            ids=self.entity_ids.finish(),
            schemas=self.entity_schemas,
            schema_codes=_numpy(self.entity_schema_codes, np.uint8),
            birth_dates=self.entity_birth_dates.finish(),
            nationalities=self.entity_nationalities.finish(),
            genders=_numpy(self.entity_genders, np.int8),
        )
        blocker = Blocker(vocabulary, parts, pairs, singles, records, name_parts)
        nbytes = (
            vocabulary.nbytes + blocker.nbytes
            + sum(a.nbytes for a in (names.start, names.parts, names.entity, names.weak)) + names.texts.nbytes
            + entities.ids.nbytes + entities.birth_dates.nbytes + entities.nationalities.nbytes
            + entities.schema_codes.nbytes + entities.genders.nbytes
        )
        return MatchIndex(vocabulary, blocker, names, entities, nbytes)


def _numpy(values: array, dtype: type) -> np.ndarray:
    return np.frombuffer(values, dtype=dtype).copy() if len(values) else np.empty(0, dtype=dtype)
