"""Each kernel is compiled once for what the engine does with it: every call site passes it the
same types (writable arrays, one layout, int64 numbers, typed helpers for constants), as numba
compiles another copy of a function for each combination of argument types it meets, the
constants it types as literals included. With such copies (125 specialisations, 54 now) `warm_up`
took 189 s from an empty cache, 129 s without them (2026-11-29).

The signatures come from a process of its own where only the engine calls the kernels
(`kernel_use`: `warm_up`, indexes built and searched with varied names, names compared alone,
then each calling kernel's body typed again, as a kernel loaded from the cache does not load
the kernels it calls; that typing is redone only when the code changed). One test, as the
process takes 15 s (rigour's name database, mostly), and 25 s more after a change.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# Kernels compiled for more than one set of argument types on purpose.
KNOWN_SPECIALISATIONS = {
    # Code points as the vocabulary holds them (uint32), against a part's 16-byte slot (uint8) in
    # the lookup, and as a name's packing holds them (int64) in the scorer.
    "spelling.osa_distance": 3,
    # The lookup's query part (uint32, the vocabulary's code points) and the scorer's (int64).
    "spelling.osa_pattern": 2,
}


def test_it_compiles_each_kernel_once_and_all_of_them_when_a_worker_warms_up():
    done = subprocess.run([sys.executable, "-m", "tests.service.screening.matching.kernel_use"],
                          cwd=Path(__file__).resolve().parents[4], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    signatures = found["all"]
    over = {name: listed for name, listed in signatures.items() if len(listed) > KNOWN_SPECIALISATIONS.get(name, 1)}
    assert not over, json.dumps(over, indent=1)
    assert all(signatures[name] for name in KNOWN_SPECIALISATIONS)  # still there, and still used
    # A worker's first search must not be the one that compiles (`warm_up`).
    after_warm_up = found["after_warm_up"]
    new = {name: sorted(set(listed) - set(after_warm_up[name])) for name, listed in found["after_use"].items()}
    assert not {name: listed for name, listed in new.items() if listed}
