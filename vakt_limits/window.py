"""A count that lives in a window opened by its first event, in the cache.

The window opens with the first event counted under a key and closes `seconds` later; the
next event after that opens a new one. Anchoring on the first event, not on the clock's
minute, means a burst cannot reset halfway by straddling a minute boundary: N events
within any window are always N, so a limit of N holds for every window a caller sees.

The count and the time its window opened are two cache keys with the same expiry. The
count's `incr` keeps the expiry (Redis does; `portal.cache.SharedFileCache` does the same
for the embedded default), so the window closes when the count's key expires.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from django.core.cache import cache


@dataclass(frozen=True)
class WindowCount:
    count: int
    reset_seconds: int  # until the window closes and the count starts again; at least 1


def _since_key(key: str) -> str:
    return f"{key}:since"


def _reset(since: float | None, seconds: int, now: float) -> int:
    # A count without its opening time (evicted, or read between the two writes) is judged
    # as if the window had just opened: the caller waits the longest, never too little.
    opened = now if since is None else since
    return max(1, math.ceil(opened + seconds - now))


def window_add(key: str, *, seconds: int) -> WindowCount:
    """Count one event under `key`; the answer includes it."""
    now = time.time()
    try:
        count = cache.incr(key)  # the common case, on every API request: the window is open
    except ValueError:  # no open window
        if cache.add(key, 1, timeout=seconds):  # this event opens it
            cache.set(_since_key(key), now, timeout=seconds)
            return WindowCount(count=1, reset_seconds=seconds)
        count = cache.incr(key)  # another process opened it a moment ago
    return WindowCount(count=count, reset_seconds=_reset(cache.get(_since_key(key)), seconds, now))


def window_read(keys: list[str], *, seconds: int) -> dict[str, WindowCount]:
    """The counts of `keys` without counting anything; a key with no open window counts 0."""
    values = cache.get_many([name for key in keys for name in (key, _since_key(key))])
    now = time.time()
    counts = {}
    for key in keys:
        count = values.get(key, 0)
        reset = _reset(values.get(_since_key(key)), seconds, now) if count else seconds
        counts[key] = WindowCount(count=count, reset_seconds=reset)
    return counts


def window_clear(key: str) -> None:
    cache.delete_many([key, _since_key(key)])
