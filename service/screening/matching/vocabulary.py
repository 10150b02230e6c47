"""Every distinct name part on the list, stored once, and how to find its spellings."""

from __future__ import annotations

from array import array

import numpy as np

from .align import token_similarity
from .keys import indexed_keys, part_key, query_keys, stable_hash
from .normalize import NameToken

SIMILAR_CACHE_SIZE = 200_000  # query part spellings whose list matches are remembered


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
        self._similar_cache: dict[tuple[str, str], dict[int, float]] = {}

    def __len__(self) -> int:
        return len(self.parts)

    def __getstate__(self) -> dict:
        return {slot: value for slot, value in self.__dict__.items() if slot != "_similar_cache"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._similar_cache = {}

    @property
    def lookup_keys(self) -> int:
        return len(self._lookup_hashes)

    @property
    def nbytes(self) -> int:
        return self._lookup_hashes.nbytes + self._lookup_parts.nbytes

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
        found: dict[int, float] = {}
        exact = self.exact(kind_code, token)
        if exact is not None:
            found[exact] = 1.0
        keys = query_keys(kind_code, token)
        if not keys:
            return found
        hashes = np.fromiter((stable_hash(key) for key in keys), dtype=np.uint64, count=len(keys))
        low = np.searchsorted(self._lookup_hashes, hashes, side="left").tolist()
        high = np.searchsorted(self._lookup_hashes, hashes, side="right").tolist()
        lookup_parts = self._lookup_parts
        hits = {part for start, end in zip(low, high) if end > start for part in lookup_parts[start:end].tolist()}
        for part in hits - found.keys():
            similarity, _ = token_similarity(token, self.parts[part])
            if similarity > 0.0:
                found[part] = similarity
        return found


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
