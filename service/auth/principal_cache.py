"""A short in-process memory of who credentials belong to.

Resolving credentials costs two queries (the API user, its roles) on every
request. Caching the answer for a few seconds per process removes them from
the hot path. Any change to an API user or its roles clears this process's
memory at once; other processes see the change within the TTL
(VAKT_AUTH_CACHE_SECONDS, 0 turns the cache off).
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass

from django.conf import settings


@dataclass(frozen=True)
class KnownCaller:
    api_user_uuid: uuid.UUID
    app_customer_uuid: uuid.UUID
    assigned_roles: frozenset[str]


_lock = threading.Lock()
_entries: dict[tuple, tuple[float, KnownCaller | None]] = {}
_MAX_ENTRIES = 10_000


def caller_remembered(key: tuple) -> tuple[bool, KnownCaller | None]:
    """(found, caller); a refused credential is remembered as (True, None)."""
    entry = _entries.get(key)
    if entry is None or entry[0] < time.monotonic():
        return False, None
    return True, entry[1]


def caller_remember(key: tuple, caller: KnownCaller | None) -> None:
    ttl = settings.VAKT_AUTH_CACHE_SECONDS
    if ttl <= 0:
        return
    with _lock:
        if len(_entries) >= _MAX_ENTRIES:
            _entries.clear()  # guessing many secrets must not grow memory without bound
        _entries[key] = (time.monotonic() + ttl, caller)


def callers_forget(**_signal_kwargs) -> None:
    with _lock:
        _entries.clear()
