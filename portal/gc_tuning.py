"""Garbage collection of a long-running web process.

CPython's collector scans every tracked object on a full collection. After startup a web process
holds about 230,000 (modules, classes, the API's schemas, templates) that live as long as it does,
and with the default thresholds a full collection comes every few dozen requests and costs
100-200 ms: the slowest requests of the case queue were those collections, not the page's work
(bench/bench_case_queue.py; figures in docs/dashboard.md). So once the app is loaded, its objects
are moved out of the collector's view (`gc.freeze`), and young objects are collected every 50,000
allocations instead of 700, which keeps far fewer collections from reaching the old generation.
"""

from __future__ import annotations

import gc

THRESHOLDS = (50_000, 20, 10)  # CPython's default: (700, 10, 10)


def gc_tune_after_startup() -> None:
    """Load every URL's views and the API now (not on the first request), then freeze what startup
    made and raise the thresholds. Call once per process, after the WSGI application exists."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports every view module and the service's API)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
