"""Many short strings in one UTF-8 buffer: one object instead of a million."""

from __future__ import annotations

from array import array

import numpy as np


class PackedStrings:
    """Read-only sequence of strings stored back to back."""

    __slots__ = ("_blob", "_offsets")

    def __init__(self, blob: bytes, offsets: array) -> None:
        self._blob = blob
        self._offsets = offsets  # array("q"), not numpy: indexing it gives Python ints, three times faster

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def __getitem__(self, position: int) -> str:
        start, end = self._offsets[position], self._offsets[position + 1]
        return self._blob[start:end].decode()

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The offsets (int64) and the UTF-8 buffer (uint8) as numpy views, for compiled code."""
        return np.frombuffer(self._offsets, dtype=np.int64), np.frombuffer(self._blob, dtype=np.uint8)

    @property
    def nbytes(self) -> int:
        return len(self._blob) + self._offsets.itemsize * len(self._offsets)


class PackedStringsBuilder:
    __slots__ = ("_blob", "_offsets")

    def __init__(self) -> None:
        self._blob = bytearray()
        self._offsets = array("q", [0])

    def append(self, text: str) -> None:
        self._blob += text.encode()
        self._offsets.append(len(self._blob))

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def finish(self) -> PackedStrings:
        return PackedStrings(bytes(self._blob), array("q", self._offsets))
