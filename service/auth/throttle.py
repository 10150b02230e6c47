"""Throttling failed client authentications, per client id and per remote address.

Every failure (a wrong secret or an unknown id, on the token endpoint or with basic auth
on the APIs) counts for its client id and for its address, each in a one-minute window
opened by its first failure (`vakt_limits.window`). While either count is at its limit,
every attempt with that id or from that address is refused with 429 and Retry-After until
that window closes, the right secret included: otherwise the limit would not slow down
guessing. Counts live in the cache, like the rate limit.
"""

from __future__ import annotations

import hashlib

from django.conf import settings

from vakt_limits.window import window_add, window_read

WINDOW_SECONDS = 60


def _counters(*, client_id: str, address: str) -> dict[str, int]:
    """{cache key: limit} of the counters an attempt is judged by; a limit of 0 is off."""
    client = hashlib.sha256(client_id.encode("utf-8", "replace")).hexdigest()[:32]
    counters = {
        f"vakt:auth-fail:client:{client}": settings.VAKT_AUTH_FAILURES_PER_MINUTE,
        f"vakt:auth-fail:address:{address}": settings.VAKT_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE,
    }
    return {key: limit for key, limit in counters.items() if limit > 0}


def auth_retry_after(*, client_id: str, address: str) -> int | None:
    """Seconds to wait before trying again, or None when this attempt may go ahead."""
    counters = _counters(client_id=client_id, address=address)
    counts = window_read(list(counters), seconds=WINDOW_SECONDS)
    full = [counts[key].reset_seconds for key, limit in counters.items() if counts[key].count >= limit]
    return max(full) if full else None


def auth_failure_record(*, client_id: str, address: str) -> None:
    for key in _counters(client_id=client_id, address=address):
        window_add(key, seconds=WINDOW_SECONDS)
