"""Failed-login throttling: after N failures for a username from an address, lock it for a while.

The failures count in a window of VAKT_LOGIN_LOCKOUT_SECONDS opened by the first of them
(`vakt_limits.window`); the lock lasts until that window closes, and a refused login is
told when that is (Retry-After). A successful login clears the count.
"""

from __future__ import annotations

import hashlib

from django.conf import settings

from vakt_limits.window import window_add, window_clear, window_read


def _key(username: str, address: str) -> str:
    digest = hashlib.sha256(f"{username.lower()}|{address}".encode()).hexdigest()[:32]
    return f"vakt:login-fail:{digest}"


def login_retry_after(*, username: str, address: str) -> int | None:
    """Seconds until this username may try again from this address, or None when it may try now."""
    key = _key(username, address)
    failures = window_read([key], seconds=settings.VAKT_LOGIN_LOCKOUT_SECONDS)[key]
    return failures.reset_seconds if failures.count >= settings.VAKT_LOGIN_ATTEMPTS else None


def login_failure_record(*, username: str, address: str) -> None:
    window_add(_key(username, address), seconds=settings.VAKT_LOGIN_LOCKOUT_SECONDS)


def login_failures_clear(*, username: str, address: str) -> None:
    window_clear(_key(username, address))
