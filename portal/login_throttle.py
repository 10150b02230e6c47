"""Failed-login throttling: after N failures for a username from an address, lock it for a while.

The lock ends VAKT_LOGIN_LOCKOUT_SECONDS after the first failure counted; the time of that
failure is kept beside the count so a refused login can say when to come back (Retry-After).
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache


def _key(username: str, address: str) -> str:
    digest = hashlib.sha256(f"{username.lower()}|{address}".encode()).hexdigest()[:32]
    return f"vakt:login-fail:{digest}"


def login_retry_after(*, username: str, address: str) -> int | None:
    """Seconds until this username may try again from this address, or None when it may try now."""
    key = _key(username, address)
    values = cache.get_many([key, f"{key}:since"])
    if values.get(key, 0) < settings.VAKT_LOGIN_ATTEMPTS:
        return None
    since = values.get(f"{key}:since", time.time())
    return max(1, math.ceil(since + settings.VAKT_LOGIN_LOCKOUT_SECONDS - time.time()))


def login_failure_record(*, username: str, address: str) -> None:
    key = _key(username, address)
    lockout = settings.VAKT_LOGIN_LOCKOUT_SECONDS
    if cache.add(key, 0, timeout=lockout):
        cache.set(f"{key}:since", time.time(), timeout=lockout)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=lockout)
        cache.set(f"{key}:since", time.time(), timeout=lockout)


def login_failures_clear(*, username: str, address: str) -> None:
    key = _key(username, address)
    cache.delete_many([key, f"{key}:since"])
