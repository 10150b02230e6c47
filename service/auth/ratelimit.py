"""Per-API-user rate limiting: a fixed one-minute window counted in the cache.

With Redis configured the count is shared by every web process; with the
embedded default it is per process, which is enough for one `make run`.

Every authenticated API answer says where the caller stands: X-RateLimit-Limit (requests
per window), X-RateLimit-Remaining (left in this window) and X-RateLimit-Reset (seconds
until the window ends and the count starts again); a 429 adds Retry-After.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from service.errors import RateLimited

WINDOW_SECONDS = 60
_REQUEST_ATTRIBUTE = "vakt_rate_limit"


@dataclass(frozen=True)
class RateLimitState:
    limit: int
    remaining: int
    reset_seconds: int

    def headers(self) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset_seconds),
        }


def rate_limit_check(*, request: HttpRequest, api_user_key: str) -> None:
    """Count this request for the API user; raise RateLimited past the limit. The state goes on `request`."""
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
    reset = max(1, math.ceil((window + 1) * WINDOW_SECONDS - now))
    state = RateLimitState(limit=limit, remaining=max(0, limit - count), reset_seconds=reset)
    setattr(request, _REQUEST_ATTRIBUTE, state)
    if count > limit:
        raise RateLimited(
            f"Rate limit of {limit} requests per minute exceeded; retry after {reset} seconds.",
            headers={"Retry-After": str(reset), **state.headers()},
        )


def rate_limit_headers_add(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The X-RateLimit-* headers of the request's count, on whatever answer it got."""
    state: RateLimitState | None = getattr(request, _REQUEST_ATTRIBUTE, None)
    if state is not None:
        for name, value in state.headers().items():
            response.setdefault(name, value)
    return response
