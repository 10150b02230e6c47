"""Counts per organisation for the dashboard home, contributed by each domain app.

An app registers a counter in its AppConfig.ready(); the overview endpoint asks
every registered counter, so adding a count never touches another app.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Counter:
    key: str
    label: str
    count: Callable[[uuid.UUID], int]
    order: int


_COUNTERS: dict[str, Counter] = {}


def counter_register(*, key: str, label: str, count: Callable[[uuid.UUID], int], order: int = 100) -> None:
    _COUNTERS[key] = Counter(key, label, count, order)


def overview_counts(*, app_customer_uuid: uuid.UUID) -> list[dict]:
    counters = sorted(_COUNTERS.values(), key=lambda c: (c.order, c.key))
    return [{"key": c.key, "label": c.label, "value": c.count(app_customer_uuid)} for c in counters]
