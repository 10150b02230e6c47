"""Every distinct name part on the list, stored once, and how to find its spellings."""

from __future__ import annotations

from array import array
from operator import itemgetter

import numpy as np

from .align import MIN_SIMILARITY, PHONETIC_SIMILARITY, SKELETON_SIMILARITY, VARIANT_SIMILARITY, edit_similarities
from .keys import QueryKeys, indexed_keys, part_key, query_keys, stable_hash
from .normalize import NameToken

SIMILAR_CACHE_SIZE = 200_000  # query part spellings whose list matches are remembered
EMPTY = np.empty(0, dtype=np.int32)
# Bits for the groups of `QueryKeys`, in their order.
SYMBOL_HIT, PHONETIC_HIT, SKELETON_HIT = np.uint8(2), np.uint8(4), np.uint8(8)


class Vocabulary:
    """Parts by number, with a sorted table of lookup-key hashes for fuzzy finding."""

    def __init__(
        self,
        parts: list[NameToken],
        part_numbers: dict[str, int],
        lookup_hashes: np.ndarray,
        lookup_parts: np.ndarray,
    ) -> None:
        self.parts = parts
        self._part_numbers = part_numbers
        self._lookup_hashes = lookup_hashes
        self._lookup_parts = lookup_parts
        self._texts = [part.text for part in parts]
        self._lengths = np.fromiter((len(part.text) for part in parts), dtype=np.int16, count=len(parts))
        self._first_letters = np.fromiter((ord(part.text[0]) for part in parts), dtype=np.int32, count=len(parts))
        self._abjad = np.fromiter((part.abjad for part in parts), dtype=bool, count=len(parts))
        self._similar_cache: dict[tuple[str, str], dict[int, float]] = {}

    def __len__(self) -> int:
        return len(self.parts)

    def __getstate__(self) -> dict:
        return {slot: value for slot, value in self.__dict__.items() if slot not in ("_similar_cache", "_texts")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._similar_cache = {}
        self._texts = [part.text for part in self.parts]

    @property
    def lookup_keys(self) -> int:
        return len(self._lookup_hashes)

    @property
    def nbytes(self) -> int:
        arrays = (self._lookup_hashes, self._lookup_parts, self._lengths, self._first_letters, self._abjad)
        return sum(array.nbytes for array in arrays)

    def exact(self, kind_code: str, token: NameToken) -> int | None:
        return self._part_numbers.get(part_key(kind_code, token))

    def similar(self, kind_code: str, token: NameToken) -> dict[int, float]:
        """List parts similar to a query part, with the scorer's similarity; cached per spelling."""
        key = (kind_code, part_key(kind_code, token))
        found = self._similar_cache.get(key)
        if found is None:
            if len(self._similar_cache) >= SIMILAR_CACHE_SIZE:
                self._similar_cache.clear()
            found = self._similar_cache[key] = self._lookup_similar(kind_code, token)
        return found

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

    def _lookup_similar(self, kind_code: str, token: NameToken) -> dict[int, float]:
        """Hits on the lookup keys, with the similarity `token_similarity` gives for that kind of
        hit, computed for all hits at once."""
        found: dict[int, float] = {}
        hits, kinds = self._hits(query_keys(kind_code, token))
        if len(hits):
            similarity = self._similarities(token, hits, kinds)
            keep = similarity >= MIN_SIMILARITY
            found = dict(zip(hits[keep].tolist(), similarity[keep].tolist()))
        exact = self.exact(kind_code, token)
        if exact is not None:
            found[exact] = 1.0
        return found

    def _hits(self, keys: QueryKeys) -> tuple[np.ndarray, np.ndarray]:
        """Distinct parts found under the keys, and for each the kinds of key (bit set) that found it."""
        all_keys = [key for group in keys for key in group]
        if not all_keys:
            return EMPTY, EMPTY
        hashes = np.fromiter((stable_hash(key) for key in all_keys), dtype=np.uint64, count=len(all_keys))
        low = np.searchsorted(self._lookup_hashes, hashes, side="left")
        lengths = np.searchsorted(self._lookup_hashes, hashes, side="right") - low
        total = int(lengths.sum())
        if not total:
            return EMPTY, EMPTY
        offsets = np.cumsum(lengths) - lengths
        parts = self._lookup_parts[np.arange(total) - np.repeat(offsets - low, lengths)]
        key_kinds = np.repeat(np.uint8(1) << np.arange(len(keys), dtype=np.uint8), [len(group) for group in keys])
        order = np.argsort(parts, kind="stable")
        parts = parts[order]
        starts = np.flatnonzero(np.concatenate(([True], parts[1:] != parts[:-1])))
        kinds = np.bitwise_or.reduceat(np.repeat(key_kinds, lengths)[order], starts)
        return parts[starts], kinds

    def _similarities(self, token: NameToken, hits: np.ndarray, kinds: np.ndarray) -> np.ndarray:
        same_first = self._first_letters[hits] == ord(token.text[0])
        texts = list(itemgetter(*hits.tolist())(self._texts)) if len(hits) > 1 else [self._texts[int(hits[0])]]
        similarity = edit_similarities(token.text, texts, self._lengths[hits], same_first)
        variant = (kinds & SYMBOL_HIT) > 0
        sounds_alike = ((kinds & PHONETIC_HIT) > 0) & same_first
        other_script = ((kinds & SKELETON_HIT) > 0) & (self._abjad[hits] != token.abjad)
        similarity = np.where(variant, np.maximum(similarity, VARIANT_SIMILARITY), similarity)
        similarity = np.where(sounds_alike, np.maximum(similarity, PHONETIC_SIMILARITY), similarity)
        return np.where(other_script, np.maximum(similarity, SKELETON_SIMILARITY), similarity)


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
        hashes = array("Q")
        numbers = array("i")
        for key, number in self.part_numbers.items():
            for lookup_key in set(indexed_keys(key[0], self.parts[number])):
                hashes.append(stable_hash(lookup_key))
                numbers.append(number)
        hash_array = np.frombuffer(hashes, dtype=np.uint64)
        order = np.argsort(hash_array, kind="stable")
        return Vocabulary(self.parts, self.part_numbers, hash_array[order], np.frombuffer(numbers, dtype=np.int32)[order])
