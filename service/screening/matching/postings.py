"""Postings lists: key -> sorted, distinct name numbers, stored as two numpy arrays."""

from __future__ import annotations

import numpy as np

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

    def arrays(self) -> tuple[np.ndarray, ...]:
        """(starts, names) when dense, (keys, starts, names) when sparse: for the kernels."""
        if self._keys is None:
            return self._starts, self._names
        return self._keys, self._starts, self._names

    def counts(self) -> np.ndarray:
        return np.diff(self._starts)

    @property
    def nbytes(self) -> int:
        return (0 if self._keys is None else self._keys.nbytes) + self._starts.nbytes + self._names.nbytes
