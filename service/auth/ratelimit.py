"""Per-API-user rate limiting: a fixed one-minute window counted in the cache.

With Redis configured the count is shared by every web process; with the
embedded default it is per process, which is enough for one `make run`.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache

from service.errors import RateLimited

WINDOW_SECONDS = 60


def rate_limit_check(*, api_user_key: str) -> None:
    limit = settings.VAKT_RATE_LIMIT_PER_MINUTE
    if limit <= 0:
        return
    now = time.time()
    window = int(now // WINDOW_SECONDS)
    key = f"vakt:rl:{api_user_key}:{window}"
    cache.add(key, 0, timeout=WINDOW_SECONDS + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=WINDOW_SECONDS + 5)
        count = 1
    if count > limit:
        retry_after = max(1, int((window + 1) * WINDOW_SECONDS - now) + 1)
        raise RateLimited(
            f"Rate limit of {limit} requests per minute exceeded; retry after {retry_after} seconds.",
            headers={"Retry-After": str(retry_after)},
        )
