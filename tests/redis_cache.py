"""The tests' Redis cache: every key under a prefix of this checkout and xdist worker, and `clear`
deleting those keys alone. Test runs of other checkouts (CI's fresh clone, a helper's worktree)
share the Redis server and its databases; a FLUSHDB would wipe their rate-limit counters and
cached callers in the middle of their tests."""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache


class RunRedisCache(RedisCache):
    def clear(self) -> bool:
        client = self._cache.get_client(None, write=True)
        keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start:start + 1000])
        return True
