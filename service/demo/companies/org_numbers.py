"""Unique, valid organisation numbers without remembering the ones already given.

The i-th number's first eight digits are `80000000 + (a*i + b) mod 20000000`, a
permutation of 80000000-99999999 when `a` is coprime with 20000000 (odd and not a
multiple of 5), so no two indexes collide. The ninth is the mod-11 check digit;
bases whose check digit would be 10 have no valid number and are skipped.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from stdnum.no import orgnr

SPACE = 20_000_000
FIRST = 80_000_000


def org_numbers(seed: int) -> Iterator[str]:
    rng = random.Random(f"org-numbers-{seed}")
    step = rng.randrange(1_000_001, SPACE, 2)
    while step % 5 == 0:
        step = rng.randrange(1_000_001, SPACE, 2)
    offset = rng.randrange(SPACE)
    for index in range(SPACE):
        base = str(FIRST + (step * index + offset) % SPACE)
        check = -orgnr.checksum(base + "0") % 11
        if check != 10:
            yield base + str(check)
