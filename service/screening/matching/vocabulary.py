"""Every distinct name part on the list, stored once, and how to find its spellings."""

from __future__ import annotations

from array import array
from typing import NamedTuple

import numpy as np

from . import kernels
from .align import MIN_SIMILARITY, PHONETIC_SIMILARITY, SKELETON_SIMILARITY, VARIANT_SIMILARITY
from .keys import form_key, fuzzy, indexed_keys, part_key, query_keys, stable_hash
from .normalize import NAME, PARTICLE, TITLE, NameToken
from .scratch import ScratchState

# Part roles as the scorer tells them apart: full names count for the score's cap on
# names without one, particles and titles never contradict.
SCORER_ROLES = {NAME: kernels.PART_NAME, PARTICLE: kernels.PART_UNCONTRADICTING, TITLE: kernels.PART_UNCONTRADICTING}

# What a hit on each group of `QueryKeys` means, in their order.
KEY_GROUP_HITS = (kernels.SYMBOL_HIT, kernels.PHONETIC_HIT, kernels.SKELETON_HIT)


class ScorerParts(NamedTuple):
    """Per vocabulary part, what `kernels.alignment_scores` reads."""

    weights: np.ndarray  # float64
    roles: np.ndarray  # int8, kernels.PART_*
    letters: np.ndarray  # int64, letters in its text
    texts: np.ndarray  # int64, equal for parts of equal text

    @classmethod
    def of(cls, parts: list[NameToken]) -> ScorerParts:
        text_numbers: dict[str, int] = {}
        return cls(
            np.fromiter((part.weight for part in parts), dtype=np.float64, count=len(parts)),
            np.fromiter((SCORER_ROLES.get(part.role, kernels.PART_OTHER) for part in parts), dtype=np.int8,
                        count=len(parts)),
            np.fromiter((len(part.text) for part in parts), dtype=np.int64, count=len(parts)),
            np.fromiter((text_numbers.setdefault(part.text, len(text_numbers)) for part in parts), dtype=np.int64,
                        count=len(parts)),
        )


class Vocabulary(ScratchState):
    """Parts by number, with a sorted table of lookup-key hashes for fuzzy finding."""

    SCRATCH = ("_first_letters", "_short_texts", "_scorer_parts")

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
        self._lookup_buckets = kernels.hash_buckets(lookup_hashes)
        self._lookup_parts = lookup_parts
        self._codes = codes  # uint32 code points of every part's text, back to back
        self._code_offsets = code_offsets
        self._abjad = np.fromiter((part.abjad for part in parts), dtype=bool, count=len(parts))
        self._scratch()

    def __len__(self) -> int:
        return len(self.parts)

    def _scratch(self) -> None:
        # Each part's first letter a-z as 0-25, -1 for any other or none: one byte the candidate
        # kernel reads per spelling (`kernels._rare_part_evidence`), instead of two reads of the texts.
        starts, ends = self._code_offsets[:-1], self._code_offsets[1:]
        firsts = np.zeros(len(starts), dtype=np.int64)
        present = ends > starts
        firsts[present] = self._codes[starts[present]]
        self._first_letters = np.where((firsts >= 97) & (firsts <= 122), firsts - 97, -1).astype(np.int8)
        self._short_texts = kernels.short_text_table(self._codes, self._code_offsets, self._abjad)
        self._scorer_parts = ScorerParts.of(self.parts)

    @property
    def lookup_keys(self) -> int:
        return len(self._lookup_hashes)

    @property
    def nbytes(self) -> int:
        arrays = (self._lookup_hashes, self._lookup_buckets, self._lookup_parts, self._codes, self._code_offsets,
                  self._abjad, self._first_letters, self._short_texts, *self._scorer_parts)
        return sum(array.nbytes for array in arrays)

    @property
    def scorer_parts(self) -> ScorerParts:
        """What the compiled scorer reads of each part (`kernels.alignment_scores`)."""
        return self._scorer_parts

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
        computes them all at once), and the exact part (at 1.0). Not cached here: the blocker
        keeps each query part's probe."""
        keys = query_keys(kind_code, token)
        extra = [key for group in keys for key in group]
        hashes = np.fromiter((stable_hash(key) for key in extra), dtype=np.uint64, count=len(extra))
        kinds = np.array([hit for hit, group in zip(KEY_GROUP_HITS, keys) for _ in group], dtype=np.uint8)
        exact = self.exact(kind_code, token)
        return kernels.similar_parts(
            code_points(token.text), ord(kind_code), fuzzy(token), hashes, kinds, token.abjad,
            -1 if exact is None else exact,
            self._lookup_hashes, self._lookup_buckets, self._lookup_parts, self._codes, self._code_offsets,
            self._short_texts,
            VARIANT_SIMILARITY, PHONETIC_SIMILARITY, SKELETON_SIMILARITY, MIN_SIMILARITY,
        )

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


def code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


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
        deletion_hashes, deletion_parts = kernels.all_deletion_hashes(kind_codes, codes, code_offsets, eligible)
        hashes = np.concatenate([deletion_hashes, np.frombuffer(other_hashes, dtype=np.uint64)])
        numbers = np.concatenate([deletion_parts, np.frombuffer(other_parts, dtype=np.int32)])
        order = np.argsort(hashes, kind="stable")
        return Vocabulary(self.parts, self.part_numbers, hashes[order], numbers[order], codes, code_offsets)
