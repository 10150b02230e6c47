"""The screening state the dashboard keeps in the cache (case counts, related-company states),
and forgetting it when a member acts.

Keys live under a per-organisation generation number: `forget` moves the organisation to a
new generation, so every key of the old one misses at once, without knowing the keys. Every
dashboard write that changes screening state (a review, a decision, an assignment, a config
change) calls `forget` after the service accepted it, so no page shows a state older than
its reader's own action.
"""

from __future__ import annotations

import time
from uuid import UUID

from django.core.cache import cache

GENERATION_TIMEOUT_SECONDS = 30 * 24 * 3600


def _generation_key(organisation_uuid: UUID | str) -> str:
    return f"screening-state:{organisation_uuid}:generation"


def cache_key(*, organisation_uuid: UUID | str, name: str) -> str:
    """The key of one cached value (`name`) of the organisation's current generation."""
    generation = cache.get(_generation_key(organisation_uuid))
    if generation is None:
        generation = time.time_ns()
        cache.add(_generation_key(organisation_uuid), generation, GENERATION_TIMEOUT_SECONDS)
        generation = cache.get(_generation_key(organisation_uuid), generation)
    return f"screening-state:{organisation_uuid}:{generation}:{name}"


def forget(*, organisation_uuid: UUID | str) -> None:
    """Drop every cached screening value of the organisation (a new generation)."""
    cache.set(_generation_key(organisation_uuid), time.time_ns(), GENERATION_TIMEOUT_SECONDS)
