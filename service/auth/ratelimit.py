"""Per-API-user rate limiting: a one-minute window opened by the user's first request
(`vakt_limits.window`), counted in the cache.

The count is shared by every process: in Redis when it is configured, in the embedded
default's shared file cache otherwise.

Every authenticated API answer says where the caller stands: X-RateLimit-Limit (requests
per window), X-RateLimit-Remaining (left in this window) and X-RateLimit-Reset (seconds
until the window closes and the count starts again); a 429 adds Retry-After.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from service.errors import RateLimited
from vakt_limits.window import window_add

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
    counted = window_add(f"vakt:rl:{api_user_key}", seconds=WINDOW_SECONDS)
    count, reset = counted.count, counted.reset_seconds
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
