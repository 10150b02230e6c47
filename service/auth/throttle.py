"""Throttling failed client authentications, per client id and per remote address.

Every failure (a wrong secret or an unknown id, on the token endpoint or with basic auth
on the APIs) counts in a one-minute window for its client id and for its address. While
either count is at its limit, every attempt with that id or from that address is refused
with 429 and Retry-After until the window ends, the right secret included: otherwise the
limit would not slow down guessing. Counts live in the cache, like the rate limit.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache

WINDOW_SECONDS = 60


def _counters(*, client_id: str, address: str) -> list[tuple[str, int]]:
    """(cache key, limit) of the counters an attempt is judged by; a limit of 0 is off."""
    window = int(time.time() // WINDOW_SECONDS)
    client = hashlib.sha256(client_id.encode("utf-8", "replace")).hexdigest()[:32]
    counters = [
        (f"vakt:auth-fail:client:{client}:{window}", settings.VAKT_AUTH_FAILURES_PER_MINUTE),
        (f"vakt:auth-fail:address:{address}:{window}", settings.VAKT_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE),
    ]
    return [(key, limit) for key, limit in counters if limit > 0]


def auth_retry_after(*, client_id: str, address: str) -> int | None:
    """Seconds to wait before trying again, or None when this attempt may go ahead."""
    counters = _counters(client_id=client_id, address=address)
    if not counters:
        return None
    counts = cache.get_many([key for key, _ in counters])
    if all(counts.get(key, 0) < limit for key, limit in counters):
        return None
    now = time.time()
    return max(1, math.ceil((int(now // WINDOW_SECONDS) + 1) * WINDOW_SECONDS - now))


def auth_failure_record(*, client_id: str, address: str) -> None:
    for key, _ in _counters(client_id=client_id, address=address):
        cache.add(key, 0, timeout=WINDOW_SECONDS + 5)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=WINDOW_SECONDS + 5)
