"""The engine's inner loops, compiled with numba, one module per stage of a search.

Python decides what to look up and explains the results; these functions do the
counting over index arrays that would otherwise be dozens of small numpy calls per
query, or a Python loop over thousands of candidates. In the order a search runs them:

- `spelling`: edit distance within the typo budget, and the deletion keys that find typos;
- `hashes`: sorted 64-bit hashes found in one or two reads, and the prefetch hint;
- `packing`: the layouts the kernels read (a name's record, a part's slot, a packed query
  part) and the index build's per-name pass;
- `lookup`: the vocabulary parts found under a query part's keys, with their similarity;
- `candidates` and `estimate`: candidate names of a query and their estimated scores;
- `shortlist`: the names worth scoring in full;
- `similarity`: the similarity of two name parts, and the matrix of query against list parts;
- `alignment`: pairing the parts, glue, repeated parts and the name score;
- `scoring`: those applied to the shortlist of a search, or to one pair of names.

Compiled on first use and cached beside the source (`cache=True`), so a worker pays the
compile time once per install, not once per process. numba keys each function's cache on
its own file only, while a kernel inlines helpers from the other modules here: `_Locator`
keys every kernel of this package on all of the package's files, so that a change to a
helper compiles its callers again instead of leaving them with the old helper.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from numba.core.caching import CacheImpl, InTreeCacheLocator

_PACKAGE = Path(__file__).resolve().parent


class _Locator(InTreeCacheLocator):
    """numba's in-tree cache, stamped with a digest of every module of this package."""

    _stamp: tuple[tuple[str, float, int], ...] | None = None
    _digest = ""

    def get_source_stamp(self) -> str:
        files = tuple(sorted((path.name, path.stat().st_mtime, path.stat().st_size) for path in _PACKAGE.glob("*.py")))
        if files != _Locator._stamp:  # read again only when a file changed
            digest = hashlib.sha256()
            for name, _, _ in files:
                digest.update(name.encode() + b"\0" + (_PACKAGE / name).read_bytes())
            _Locator._stamp, _Locator._digest = files, digest.hexdigest()
        return _Locator._digest

    @classmethod
    def from_function(cls, py_func, py_file):
        if Path(py_file).resolve().parent != _PACKAGE:
            return None
        return super().from_function(py_func, py_file)


if _Locator not in CacheImpl._locator_classes:
    CacheImpl._locator_classes.insert(0, _Locator)
