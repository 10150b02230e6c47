"""Every distinct name part on the list, stored once, and how to find its spellings."""

from __future__ import annotations

import os
from array import array
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from .align import (
    INITIAL_SIMILARITY,
    MIN_SIMILARITY,
    NEAR_SKELETON_SIMILARITY,
    PHONETIC_SIMILARITY,
    SKELETON_SIMILARITY,
    VARIANT_SIMILARITY,
)
from .kernels.hashes import hash_buckets
from .kernels.lookup import (
    PHONETIC_HIT,
    SKELETON_HIT,
    SYMBOL_HIT,
    LookupRules,
    LookupTables,
    OwnParts,
    similar_parts,
    similar_parts_of_range,
)
from .kernels.packing import (
    INLINE_SYMBOLS,
    PART_ABJAD,
    PART_FIRST_SYMBOLS,
    PART_FLAGS,
    PART_FORM,
    PART_NAME,
    PART_OTHER,
    PART_PHONETIC,
    PART_ROLE,
    PART_SYLLABIC,
    PART_SYMBOL_COUNT,
    PART_SYMBOL_START,
    PART_UNCONTRADICTING,
    SHORT_LENGTH,
    SHORT_SLOT,
    SKELETON_SLOT,
    short_text_table,
)
from .kernels.scoring import ScorerTables
from .kernels.similarity import (
    SIMILARITY_INITIAL,
    SIMILARITY_NAME,
    SIMILARITY_NUMBER,
    SIMILARITY_OTHER,
    PartRules,
    PartTable,
    similarity_matrix,
)
from .kernels.spelling import all_deletion_hashes
from .keys import form_key, fuzzy, indexed_keys, part_key, query_keys, stable_hash
from .normalize import INITIAL, NAME, NUMBER, PARTICLE, TITLE, NameToken
from .scratch import ScratchState

# Part roles as the scorer tells them apart: full names count for the score's cap on
# names without one, particles and titles never contradict.
SCORER_ROLES = {NAME: PART_NAME, PARTICLE: PART_UNCONTRADICTING, TITLE: PART_UNCONTRADICTING}

# Part roles as `align.token_similarity` tells them apart.
SIMILARITY_ROLES = {NAME: SIMILARITY_NAME, INITIAL: SIMILARITY_INITIAL,
                    NUMBER: SIMILARITY_NUMBER}
QUERY_PART_CACHE_SIZE = 200_000  # query parts remembered as `similarity_matrix` reads them

# The part rule's similarities, as the compiled lookup and similarity read them.
LOOKUP_RULES = LookupRules(VARIANT_SIMILARITY, PHONETIC_SIMILARITY, SKELETON_SIMILARITY, MIN_SIMILARITY)
PART_RULES = PartRules(INITIAL_SIMILARITY, VARIANT_SIMILARITY, PHONETIC_SIMILARITY, SKELETON_SIMILARITY,
                       NEAR_SKELETON_SIMILARITY, MIN_SIMILARITY)

# What a hit on each group of `QueryKeys` means, in their order.
KEY_GROUP_HITS = (SYMBOL_HIT, PHONETIC_HIT, SKELETON_HIT)
OWN_SPELLINGS_CHUNK = 4096  # parts per call of `kernels.lookup.similar_parts_of_range`, the unit shared among threads


class ScorerParts(NamedTuple):
    """Per vocabulary part, what `kernels.scoring.alignment_scores` reads."""

    weights: np.ndarray  # float64
    roles: np.ndarray  # int8, kernels.PART_*
    letters: np.ndarray  # int64, letters in its text
    texts: np.ndarray  # int64, equal for parts of equal text
    syllabic: np.ndarray  # bool: Han or Hangul, kept as written (form != text)

    @classmethod
    def of(cls, parts: list[NameToken]) -> ScorerParts:
        text_numbers: dict[str, int] = {}
        return cls(
            np.fromiter((part.weight for part in parts), dtype=np.float64, count=len(parts)),
            np.fromiter((SCORER_ROLES.get(part.role, PART_OTHER) for part in parts), dtype=np.int8,
                        count=len(parts)),
            np.fromiter((len(part.text) for part in parts), dtype=np.int64, count=len(parts)),
            np.fromiter((text_numbers.setdefault(part.text, len(text_numbers)) for part in parts), dtype=np.int64,
                        count=len(parts)),
            np.fromiter((part.form != part.text for part in parts), dtype=bool, count=len(parts)),
        )


class SimilarityParts(NamedTuple):
    """Per vocabulary part, what `kernels.similarity.similarity_matrix` reads besides the texts that do
    not fit its table; with the numbers it gives symbols, phonetic keys and Han or Hangul
    forms, for the query's parts."""

    table: np.ndarray  # uint8 [part, 64], see kernels.PART_*
    symbols: np.ndarray  # int64 symbol numbers, back to back
    skeletons: np.ndarray  # uint32 code points, back to back
    skeleton_offsets: np.ndarray
    symbol_numbers: dict[str, int]
    phonetic_numbers: dict[str, int]
    form_numbers: dict[str, int]

    @classmethod
    def of(cls, parts: list[NameToken], short_texts: np.ndarray, syllabic: np.ndarray) -> SimilarityParts:
        """`short_texts`: the parts' `kernels.packing.short_text_table`; `syllabic`: `ScorerParts.syllabic`."""
        count = len(parts)
        symbol_numbers: dict[str, int] = {}
        phonetic_numbers: dict[str, int] = {}
        form_numbers: dict[str, int] = {}
        symbols = np.array([symbol_numbers.setdefault(symbol, len(symbol_numbers))
                            for part in parts for symbol in part.symbols], dtype=np.int64)
        symbol_counts = np.fromiter((len(part.symbols) for part in parts), dtype=np.int64, count=count)
        symbol_offsets = _offsets(symbol_counts)
        skeleton_texts = [part.skeleton for part in parts]
        skeletons = code_points("".join(skeleton_texts))
        skeleton_offsets = _offsets([len(skeleton) for skeleton in skeleton_texts])
        table = np.zeros((count, 64), dtype=np.uint8)
        table[:, :SHORT_SLOT] = short_texts
        table[:, 0] &= SHORT_LENGTH  # the slot's abjad flag is in PART_FLAGS here
        table[:, SKELETON_SLOT:SKELETON_SLOT + SHORT_SLOT] = short_text_table(
            skeletons, skeleton_offsets, np.zeros(count, dtype=bool))
        ints = table.view(np.int32)
        ints[:, PART_FORM] = np.fromiter(
            (form_numbers.setdefault(part.form, len(form_numbers)) if part.form != part.text else -1
             for part in parts), dtype=np.int32, count=count)
        ints[:, PART_PHONETIC] = np.fromiter(
            (phonetic_numbers.setdefault(part.phonetic, len(phonetic_numbers)) if len(part.phonetic) > 2 else -1
             for part in parts), dtype=np.int32, count=count)
        ints[:, PART_SYMBOL_START] = symbol_offsets[:-1]
        ints[:, PART_SYMBOL_COUNT] = symbol_counts
        ints[:, PART_ROLE] = np.fromiter(
            (SIMILARITY_ROLES.get(part.role, SIMILARITY_OTHER) for part in parts), dtype=np.int32, count=count)
        ints[:, PART_FLAGS] = syllabic * PART_SYLLABIC + np.fromiter(
            (part.abjad for part in parts), dtype=bool, count=count) * PART_ABJAD
        for k in range(INLINE_SYMBOLS):
            inline = symbol_counts > k
            ints[inline, PART_FIRST_SYMBOLS + k] = symbols[symbol_offsets[:-1][inline] + k]
        return cls(table, symbols, skeletons, skeleton_offsets, symbol_numbers, phonetic_numbers, form_numbers)

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        return self[:4]


class OwnSpellings(NamedTuple):
    """`Vocabulary.similar` of every full name part of the vocabulary itself, made once per
    index: a screened name is mostly made of listed words, and each word's first lookup
    (~45 µs) was a fifth of a search. Similarities are stored as numbers into `values`
    (34 distinct floats for the benchmark's million names), one byte each instead of eight."""

    offsets: np.ndarray  # int64, part n's spellings are parts[offsets[n]:offsets[n + 1]]
    parts: np.ndarray  # int32, sorted per part
    codes: np.ndarray  # uint8 (uint16 past 256 values): the similarity's number in `values`
    values: np.ndarray  # float64, in the order first met

    @classmethod
    def of(cls, vocabulary: Vocabulary) -> OwnSpellings:
        count = len(vocabulary)
        kinds = np.zeros(count, dtype=np.int64)
        fuzzy_parts = np.zeros(count, dtype=bool)
        named = np.zeros(count, dtype=bool)
        extra_counts = np.zeros(count, dtype=np.int64)
        extra_hashes: list[int] = []
        extra_kinds: list[int] = []
        for key, number in vocabulary._part_numbers.items():
            part = vocabulary.parts[number]
            if part.role != NAME:
                continue
            kinds[number] = ord(key[0])
            fuzzy_parts[number] = fuzzy(part)
            named[number] = True
            hashes, hits = _extra_keys(key[0], part)
            extra_hashes += hashes
            extra_kinds += hits
            extra_counts[number] = len(hashes)
        own = OwnParts(kinds, fuzzy_parts, vocabulary._abjad, named, _offsets(extra_counts),
                       np.array(extra_hashes, dtype=np.uint64), np.array(extra_kinds, dtype=np.uint8))
        tables = vocabulary.lookup_tables

        def chunk(first: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
            counts, parts, values = similar_parts_of_range(
                first, min(first + OWN_SPELLINGS_CHUNK, count), own, tables, LOOKUP_RULES)
            distinct, codes = np.unique(values, return_inverse=True)
            return counts, parts, distinct, codes

        # Filled as the chunks come, so that the chunks' own arrays do not all wait for a copy
        # at the end (66 MB more at the peak of the million-name build). Pages never written
        # past the end are never resident.
        capacity = 64 * int(named.sum()) + 1
        parts = np.empty(capacity, dtype=np.int32)
        codes = np.empty(capacity, dtype=np.uint16)
        values: list[float] = []  # each similarity once; numbered in the order met
        numbers: dict[float, int] = {}  # similarity: its number in values
        counts = []
        n = 0
        # The kernel runs without the GIL: the build's one step that uses every core.
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            for chunk_counts, chunk_parts, distinct, chunk_codes in pool.map(chunk, range(0, count, OWN_SPELLINGS_CHUNK)):
                if n + len(chunk_parts) > capacity:
                    capacity = 2 * (n + len(chunk_parts))
                    parts = np.concatenate((parts[:n], np.empty(capacity - n, dtype=np.int32)))
                    codes = np.concatenate((codes[:n], np.empty(capacity - n, dtype=np.uint16)))
                for value in distinct.tolist():
                    if value not in numbers:
                        numbers[value] = len(values)
                        values.append(value)
                if len(values) > 2**16:
                    raise ValueError(f"{len(values):,} distinct part similarities: more than two bytes can number")
                parts[n:n + len(chunk_parts)] = chunk_parts
                codes[n:n + len(chunk_parts)] = np.array([numbers[value] for value in distinct.tolist()],
                                                         dtype=np.uint16)[chunk_codes]
                counts.append(chunk_counts)
                n += len(chunk_parts)
        codes = codes[:n].astype(np.uint8) if len(values) <= 2**8 else codes[:n]  # mostly: a byte each
        return cls(_offsets(np.concatenate(counts or [np.empty(0, dtype=np.int64)])), parts[:n], codes,
                   np.array(values, dtype=np.float64))

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        return tuple(self)

    def of_part(self, number: int) -> tuple[np.ndarray, np.ndarray]:
        first, last = self.offsets[number], self.offsets[number + 1]
        return self.parts[first:last], self.values[self.codes[first:last]]


class Vocabulary(ScratchState):
    """Parts by number, with a sorted table of lookup-key hashes for fuzzy finding."""

    SCRATCH = ("_first_letters", "_short_texts", "_scorer_parts", "_similarity_parts", "_query_parts",
               "_own_spellings", "_lookup_tables", "_scorer_tables", "_part_table")

    def __init__(
        self,
        parts: list[NameToken],
        part_numbers: dict[str, int],
        lookup_hashes: np.ndarray,
        lookup_parts: np.ndarray,
        codes: np.ndarray,
        code_offsets: np.ndarray,
    ) -> None:
        self.parts = parts
        self._part_numbers = part_numbers
        self._lookup_hashes = lookup_hashes
        self._lookup_buckets = hash_buckets(lookup_hashes)
        self._lookup_parts = lookup_parts
        self._codes = codes  # uint32 code points of every part's text, back to back
        self._code_offsets = code_offsets
        self._abjad = np.fromiter((part.abjad for part in parts), dtype=bool, count=len(parts))
        self._scratch()

    def __len__(self) -> int:
        return len(self.parts)

    def _scratch(self) -> None:
        # Each part's first letter a-z as 0-25, -1 for any other or none: one byte the candidate
        # kernel reads per spelling (`kernels.candidates._rare_part_evidence`), instead of two reads of the texts.
        starts, ends = self._code_offsets[:-1], self._code_offsets[1:]
        firsts = np.zeros(len(starts), dtype=np.int64)
        present = ends > starts
        firsts[present] = self._codes[starts[present]]
        self._first_letters = np.where((firsts >= 97) & (firsts <= 122), firsts - 97, -1).astype(np.int8)
        self._short_texts = short_text_table(self._codes, self._code_offsets, self._abjad)
        self._scorer_parts = ScorerParts.of(self.parts)
        self._similarity_parts = SimilarityParts.of(self.parts, self._short_texts, self._scorer_parts.syllabic)
        # The arrays each kernel reads, bundled once.
        self._lookup_tables = LookupTables(self._lookup_hashes, self._lookup_buckets, self._lookup_parts, self._codes,
                                           self._code_offsets, self._short_texts)
        self._scorer_tables = ScorerTables(*self._scorer_parts, self._codes, self._code_offsets)
        parts = self._similarity_parts
        self._part_table = PartTable(parts.table, parts.table.view(np.int32), self._codes, self._code_offsets,
                                     parts.symbols, parts.skeletons, parts.skeleton_offsets)
        self._query_parts: dict[int, tuple[NameToken, list[int]]] = {}  # by id(token), the token kept alive
        self._own_spellings = OwnSpellings.of(self)

    @property
    def lookup_keys(self) -> int:
        return len(self._lookup_hashes)

    @property
    def nbytes(self) -> int:
        arrays = (self._lookup_hashes, self._lookup_buckets, self._lookup_parts, self._codes, self._code_offsets,
                  self._abjad, self._first_letters, self._short_texts, *self._scorer_parts,
                  *self._similarity_parts.arrays, *self._own_spellings.arrays)
        return sum(array.nbytes for array in arrays)

    @property
    def scorer_parts(self) -> ScorerParts:
        return self._scorer_parts

    @property
    def scorer_tables(self) -> ScorerTables:
        """What the compiled scorer reads of each part (`kernels.scoring.alignment_scores`)."""
        return self._scorer_tables

    @property
    def lookup_tables(self) -> LookupTables:
        return self._lookup_tables

    @property
    def first_letters(self) -> np.ndarray:
        """Each part's first letter a-z as 0-25, -1 when it starts with any other character."""
        return self._first_letters

    def exact(self, kind_code: str, token: NameToken) -> int | None:
        return self._part_numbers.get(part_key(kind_code, token))

    def exact_form(self, kind_code: str, role: str, form: str) -> int | None:
        """`exact` without a token: for candidates such as glued parts, seldom found."""
        return self._part_numbers.get(form_key(kind_code, role, form))

    def similar(self, kind_code: str, token: NameToken) -> tuple[np.ndarray, np.ndarray]:
        """List parts similar to a query part (sorted), with the scorer's similarity: hits on the
        lookup keys, with the similarity `token_similarity` gives for that kind of hit (the kernel
        computes them all at once), and the exact part (at 1.0). A full name part of the list
        itself was looked up when the index was made (`OwnSpellings`), unless the query's part
        has the key but not the features of the listed one ("hanyh" written in Arabic or in
        Latin letters: its skeleton keys differ). Not cached here: the blocker keeps each
        query part's probe."""
        own = self.own_spellings(kind_code, token)
        return self.look_up(kind_code, token) if own is None else own

    def own_spellings(self, kind_code: str, token: NameToken) -> tuple[np.ndarray, np.ndarray] | None:
        """`similar` of a listed full name part, made with the index (the exact part among them at
        1.0); None for any other part."""
        if token.role != NAME:
            return None
        exact = self.exact(kind_code, token)
        if exact is None:
            return None
        listed = self.parts[exact]
        # The same object, mostly: a query's words come from the chunk cache the list filled.
        if listed is not token and listed != token:
            return None
        return self._own_spellings.of_part(exact)

    def look_up(self, kind_code: str, token: NameToken) -> tuple[np.ndarray, np.ndarray]:
        """`similar`, found under the part's keys now (see `own_spellings`)."""
        hashes, hits = _extra_keys(kind_code, token)
        exact = self.exact(kind_code, token)
        return similar_parts(
            code_points(token.text), ord(kind_code), fuzzy(token), np.array(hashes, dtype=np.uint64),
            np.array(hits, dtype=np.uint8), token.abjad,
            -1 if exact is None else exact, self._lookup_tables, LOOKUP_RULES,
        )

    @property
    def texts(self) -> tuple[np.ndarray, np.ndarray]:
        """Every part's text as code points back to back (uint32), and where each starts."""
        return self._codes, self._code_offsets

    def query_parts(self, tokens: tuple[NameToken, ...]) -> np.ndarray:
        """The query's parts as the compiled scorer reads them (`kernels.QUERY_*`)."""
        query: list[int] = []
        for token in tokens:
            query += self._query_part(token)
        return np.array(query, dtype=np.int64)

    def similarity_matrix(self, query: np.ndarray, query_count: int, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`align.similarity_column` of each part in `rows` (sorted part numbers) against the
        `query_count` parts of `query` (`query_parts`), compiled: (values [row, query part],
        reasons [row, query part] as `kernels.similarity.REASONS` numbers)."""
        return similarity_matrix(rows, query_count, query, self._part_table, PART_RULES)

    def _query_part(self, token: NameToken) -> list[int]:
        """The query part as `kernels.similarity.similarity_matrix` reads it (QUERY_*), in this vocabulary's numbers."""
        cached = self._query_parts.get(id(token))
        if cached is not None and cached[0] is token:
            return cached[1]
        if len(self._query_parts) >= QUERY_PART_CACHE_SIZE:
            self._query_parts.clear()
        parts = self._similarity_parts
        syllabic = token.form != token.text
        # Only the symbols some list part has: no other can be shared.
        symbols = [parts.symbol_numbers[symbol] for symbol in token.symbols if symbol in parts.symbol_numbers]
        query_part = [
            len(token.text), len(token.skeleton), len(symbols),
            syllabic,
            parts.form_numbers.get(token.form, -1) if syllabic else -1,
            SIMILARITY_ROLES.get(token.role, SIMILARITY_OTHER),
            parts.phonetic_numbers.get(token.phonetic, -1) if len(token.phonetic) > 2 else -1,
            token.abjad,
            *map(ord, token.text), *map(ord, token.skeleton), *symbols,
        ]
        self._query_parts[id(token)] = (token, query_part)
        return query_part

    def split(self, kind_code: str, token: NameToken) -> dict[int, float]:
        """"VladimirPutin": a part that is two known parts written together."""
        prefix = part_key(kind_code, token)[:2]
        text = token.text
        for cut in range(2, len(text) - 1):
            left = self._part_numbers.get(prefix + text[:cut])
            right = self._part_numbers.get(prefix + text[cut:])
            if left is not None and right is not None:
                return {left: 1.0, right: 1.0}
        return {}


def _extra_keys(kind_code: str, token: NameToken) -> tuple[list[int], list[int]]:
    """A query part's lookup keys other than deletions (`keys.query_keys`) as `kernels.lookup.similar_parts`
    takes them: their hashes, and what a hit on each means (`KEY_GROUP_HITS`)."""
    hashes: list[int] = []
    hits: list[int] = []
    for hit, group in zip(KEY_GROUP_HITS, query_keys(kind_code, token)):
        for key in group:
            hashes.append(stable_hash(key))
            hits.append(hit)
    return hashes, hits


def code_points(text: str) -> np.ndarray:
    """The text's code points (uint32), writable: the kernels are compiled for writable arrays,
    and a read-only one (`np.frombuffer` of bytes) would compile each of them again."""
    return np.frombuffer(bytearray(text.encode("utf-32-le")), dtype=np.uint32)


def _offsets(lengths: list[int] | np.ndarray) -> np.ndarray:
    """Where each of items stored back to back starts, and where the last ends."""
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


class VocabularyBuilder:
    def __init__(self) -> None:
        self.parts: list[NameToken] = []
        self.part_numbers: dict[str, int] = {}

    def number(self, kind_code: str, token: NameToken) -> int:
        key = part_key(kind_code, token)
        number = self.part_numbers.get(key)
        if number is None:
            number = self.part_numbers[key] = len(self.parts)
            self.parts.append(token)
        return number

    def finish(self) -> Vocabulary:
        texts = [part.text for part in self.parts]
        lengths = np.fromiter((len(text) for text in texts), dtype=np.int64, count=len(texts))
        code_offsets = np.zeros(len(texts) + 1, dtype=np.int64)
        np.cumsum(lengths, out=code_offsets[1:])
        codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32).copy()
        kind_codes = np.empty(len(self.parts), dtype=np.int64)
        eligible = np.empty(len(self.parts), dtype=bool)
        other_hashes = array("Q")
        other_parts = array("i")
        for key, number in self.part_numbers.items():
            part = self.parts[number]
            kind_codes[number] = ord(key[0])
            eligible[number] = fuzzy(part)
            for lookup_key in set(indexed_keys(key[0], part)):
                other_hashes.append(stable_hash(lookup_key))
                other_parts.append(number)
        deletion_hashes, deletion_parts = all_deletion_hashes(kind_codes, codes, code_offsets, eligible)
        hashes = np.concatenate([deletion_hashes, np.frombuffer(other_hashes, dtype=np.uint64)])
        numbers = np.concatenate([deletion_parts, np.frombuffer(other_parts, dtype=np.int32)])
        order = np.argsort(hashes, kind="stable")
        return Vocabulary(self.parts, self.part_numbers, hashes[order], numbers[order], codes, code_offsets)
