"""Postings lists: key -> sorted, distinct name numbers, stored as two numpy arrays."""

from __future__ import annotations

import numpy as np

EMPTY = np.empty(0, dtype=np.int32)


class Postings:
    """Keys are small integers (dense: part numbers) or any int64 (sparse: part pairs)."""

    __slots__ = ("_keys", "_starts", "_names")

    def __init__(self, keys: np.ndarray | None, starts: np.ndarray, names: np.ndarray) -> None:
        self._keys = keys  # sorted distinct keys, or None when key k is row k
        self._starts = starts
        self._names = names

    @classmethod
    def from_pairs(cls, keys: np.ndarray, names: np.ndarray, dense_size: int | None = None) -> Postings:
        """Group (key, name) occurrences; `dense_size` keys 0..n-1 are addressed directly."""
        order = np.lexsort((names, keys))
        keys, names = keys[order], names[order]
        distinct = np.ones(len(keys), dtype=bool)
        distinct[1:] = (keys[1:] != keys[:-1]) | (names[1:] != names[:-1])
        keys, names = keys[distinct], names[distinct].astype(np.int32)
        if dense_size is not None:
            starts = np.zeros(dense_size + 1, dtype=np.int64)
            np.cumsum(np.bincount(keys, minlength=dense_size), out=starts[1:])
            return cls(None, starts, names)
        unique_keys, first = np.unique(keys, return_index=True)
        starts = np.append(first, len(keys)).astype(np.int64)
        return cls(unique_keys, starts, names)

    def rows(self, keys: np.ndarray) -> np.ndarray:
        """Position of each key, -1 where no name has it."""
        if self._keys is None:
            return keys
        if len(self._keys) == 0:
            return np.full(len(keys), -1)
        positions = np.minimum(np.searchsorted(self._keys, keys), len(self._keys) - 1)
        return np.where(self._keys[positions] == keys, positions, -1)

    def names(self, row: int) -> np.ndarray:
        if row < 0:
            return EMPTY
        return self._names[self._starts[row]:self._starts[row + 1]]

    def gather(self, rows: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The names under all `rows` (rows < 0 skipped), each with its row's value."""
        found = rows >= 0
        rows, values = rows[found], values[found]
        starts = self._starts[rows]
        lengths = self._starts[rows + 1] - starts
        total = int(lengths.sum())
        if not total:
            return EMPTY, np.empty(0)
        offsets = np.cumsum(lengths) - lengths
        names = self._names[np.arange(total) - np.repeat(offsets - starts, lengths)]
        return names, np.repeat(values, lengths)

    def counts(self) -> np.ndarray:
        return np.diff(self._starts)

    @property
    def nbytes(self) -> int:
        return (0 if self._keys is None else self._keys.nbytes) + self._starts.nbytes + self._names.nbytes
