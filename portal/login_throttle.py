"""Failed-login throttling: after N failures for a username from an address, lock it for a while."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache


def _key(username: str, address: str) -> str:
    digest = hashlib.sha256(f"{username.lower()}|{address}".encode()).hexdigest()[:32]
    return f"vakt:login-fail:{digest}"


def login_is_locked(*, username: str, address: str) -> bool:
    return cache.get(_key(username, address), 0) >= settings.VAKT_LOGIN_ATTEMPTS


def login_failure_record(*, username: str, address: str) -> None:
    key = _key(username, address)
    cache.add(key, 0, timeout=settings.VAKT_LOGIN_LOCKOUT_SECONDS)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=settings.VAKT_LOGIN_LOCKOUT_SECONDS)


def login_failures_clear(*, username: str, address: str) -> None:
    cache.delete(_key(username, address))
