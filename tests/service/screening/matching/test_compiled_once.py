"""Each kernel is compiled once for what the engine does with it: every call site passes it the
same types (writable arrays, one layout, int64 numbers, typed helpers for constants), as numba
compiles another copy of a function for each combination of argument types it meets, the
constants it types as literals included. From an empty cache such copies once took 37 s of the
92 s of compiling.

The signatures come from a process of its own where only the engine calls the kernels
(`kernel_use`: `warm_up`, indexes built and searched with varied names, names compared alone,
then each calling kernel's body typed again, as a kernel loaded from the cache does not load
the kernels it calls).
"""

from __future__ import annotations

import json

# Kernels compiled for more than one set of argument types on purpose.
KNOWN_SPECIALISATIONS = {
    # Code points as the vocabulary holds them (uint32), against a part's 16-byte slot (uint8) in
    # the lookup, and as a name's packing holds them (int64) in the scorer.
    "spelling.osa_distance": 3,
    # The lookup's query part (uint32, the vocabulary's code points) and the scorer's (int64).
    "spelling.osa_pattern": 2,
}


def test_it_compiles_each_kernel_once_for_what_the_engine_does(kernels_in_use):
    signatures = kernels_in_use["all"]
    over = {name: found for name, found in signatures.items() if len(found) > KNOWN_SPECIALISATIONS.get(name, 1)}
    assert not over, json.dumps(over, indent=1)
    assert all(signatures[name] for name in KNOWN_SPECIALISATIONS)  # still there, and still used


def test_it_compiles_in_warm_up_every_kernel_the_engine_calls(kernels_in_use):
    """A worker's first search must not be the one that compiles (`warm_up`)."""
    before = kernels_in_use["after_warm_up"]
    new = {name: sorted(set(found) - set(before[name])) for name, found in kernels_in_use["after_use"].items()}
    assert not {name: found for name, found in new.items() if found}
