"""The rate limit counts in the cache (Redis in production): when the cache cannot be reached
the API answers 503 in the error shape (retry shortly), never a 500."""

import pytest
from django.core.cache import caches

AUTH_STATUS = "/analysis/v1/auth-status"
NOBODY_LISTENS = "redis://127.0.0.1:1/0"  # port 1: connection refused at once


@pytest.fixture
def cache_down(settings):
    settings.VAKT_RATE_LIMIT_PER_MINUTE = 3
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": NOBODY_LISTENS,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        },
    }
    yield
    caches["default"].close()


def test_it_answers_503_when_the_rate_limit_cache_is_unreachable(api, cache_down):
    response = api.get(AUTH_STATUS)

    assert response.status_code == 503, response.content
    body = response.json()
    assert body["code"] == "service_unavailable"
    assert response["Retry-After"] == "5"
