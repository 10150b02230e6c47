"""A short in-process memory of who credentials belong to.

Resolving credentials costs two queries (the API user, its roles) on every
request. Caching the answer for a few seconds per process removes them from
the hot path. Any change to an API user or its roles clears this process's
memory at once and bumps a generation number in the shared cache (Redis in
production): every process compares it on each lookup (one cache read, beside the
rate limiter's) and forgets what it remembered under an older generation, so a
rotated secret or a deactivated API user stops working in every process at once.
With the embedded default (a per-process cache) other processes see the change
within the TTL (VAKT_AUTH_CACHE_SECONDS, 0 turns the memory off).
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction


@dataclass(frozen=True)
class KnownCaller:
    api_user_uuid: uuid.UUID
    app_customer_uuid: uuid.UUID
    assigned_roles: frozenset[str]


_lock = threading.Lock()
_entries: dict[tuple, tuple[float, KnownCaller | None, int]] = {}
_MAX_ENTRIES = 10_000
GENERATION_KEY = "vakt:auth:callers-generation"


def _generation() -> int:
    return int(cache.get(GENERATION_KEY) or 0)


def caller_remembered(key: tuple) -> tuple[bool, KnownCaller | None]:
    """(found, caller); a refused credential is remembered as (True, None)."""
    entry = _entries.get(key)
    if entry is None or entry[0] < time.monotonic() or entry[2] != _generation():
        return False, None
    return True, entry[1]


def caller_remember(key: tuple, caller: KnownCaller | None) -> None:
    ttl = settings.VAKT_AUTH_CACHE_SECONDS
    if ttl <= 0:
        return
    generation = _generation()
    with _lock:
        if len(_entries) >= _MAX_ENTRIES:
            _entries.clear()  # guessing many secrets must not grow memory without bound
        _entries[key] = (time.monotonic() + ttl, caller, generation)


def callers_changed(**_signal_kwargs) -> None:
    """Receiver of every change to an API user, its organisation or its roles: forget every caller
    now, and again once the change commits. Until then other requests still read the old rows and
    may remember them under the new generation; without the second forgetting a deactivated API
    user's credentials would keep working there for VAKT_AUTH_CACHE_SECONDS."""
    callers_forget()
    transaction.on_commit(callers_forget)  # at once when there is no transaction


def callers_forget() -> None:
    """Forget every remembered caller, here and (through the shared generation) in every process."""
    with _lock:
        _entries.clear()
    cache.add(GENERATION_KEY, 0, timeout=None)
    try:
        cache.incr(GENERATION_KEY)
    except ValueError:  # evicted between add and incr
        cache.set(GENERATION_KEY, 1, timeout=None)
