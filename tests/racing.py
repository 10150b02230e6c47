"""Writers at once (PostgreSQL only: SQLite serialises them).

`at_once` starts its calls together, each in a thread with a connection of its own.

`race`, for two writers in the order that loses an update, every time: it runs `first` in a thread until it calls `module.name` (inside its transaction) and holds it
there; runs `second` in another thread until it waits for a lock `first` holds (seen in
pg_stat_activity); then lets `first` finish. A barrier alone would hit that order only sometimes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.db import connection, connections

WAIT_SECONDS = 10


def _waiting_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0] > 0


def race(monkeypatch, module, name: str, first: Callable, second: Callable) -> list:
    """The results of `first` and `second` (or the exceptions they raised), in that order."""
    original = getattr(module, name)
    inside, release = threading.Event(), threading.Event()

    def held(*args, **kwargs):
        result = original(*args, **kwargs)
        if threading.current_thread() is threads[0]:
            inside.set()
            release.wait(WAIT_SECONDS)
        return result

    monkeypatch.setattr(module, name, held)
    results: list = [None, None]

    def run(index, function):
        try:
            results[index] = function()
        except Exception as exc:  # reported to the test as the result
            results[index] = exc
        finally:
            connections.close_all()  # this thread's connection

    threads = [threading.Thread(target=run, args=(i, f)) for i, f in enumerate((first, second))]
    threads[0].start()
    assert inside.wait(WAIT_SECONDS), f"the first writer never called {name}"
    threads[1].start()
    deadline = time.monotonic() + WAIT_SECONDS
    while threads[1].is_alive() and not _waiting_for_a_lock() and time.monotonic() < deadline:
        time.sleep(0.01)
    release.set()
    for thread in threads:
        thread.join()
    return results


def at_once(*calls: Callable) -> list:
    """The calls' results, in order, once all have run; each starts when all are ready. The first
    exception a call raised is raised here, after every thread has finished."""
    start = threading.Barrier(len(calls))
    results: list = [None] * len(calls)
    errors: list = []

    def run(index, call):
        try:
            start.wait()
            results[index] = call()
        except Exception as exc:  # raised below, in the test's thread
            errors.append(exc)
        finally:
            connections.close_all()  # this thread's connection

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results
