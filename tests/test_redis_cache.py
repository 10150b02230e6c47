"""The tests' Redis cache clears its own keys only: another checkout's test run, sharing the
database, keeps its counters."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache

from tests.redis_cache import RunRedisCache

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="the file cache of the embedded default is per worker")


def test_it_clears_this_runs_keys_and_leaves_another_checkouts():
    location = settings.CACHES["default"]["LOCATION"]
    other = RunRedisCache(location, {"KEY_PREFIX": "test-another-checkout"})
    other.set("login-failures", 3)
    cache.set("login-failures", 1)

    cache.clear()

    assert cache.get("login-failures") is None
    assert other.get("login-failures") == 3
    other.clear()
    assert other.get("login-failures") is None
