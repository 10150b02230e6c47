"""Writing batches on a second thread while the next batch is parsed.

Parsing and mapping rows is Python work; writing a batch is mostly PostgreSQL work
(index and foreign-key maintenance). On a thread of its own, with its own database
connection, the write of batch N overlaps the parsing of batch N+1: psycopg releases
the GIL while it waits on the server. At most two batches wait in the queue, so
memory stays bounded.

Only without an open transaction: a caller inside `atomic()` (a test, a larger
operation) must see every write on its own connection, so the batches are then
written inline.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import connection

QUEUED_BATCHES = 2


class _InlineWriter:
    def submit(self, job: Callable[[], None]) -> None:
        job()

    def close(self) -> None:
        pass


class _ThreadWriter:
    def __init__(self) -> None:
        self.jobs: queue.Queue = queue.Queue(maxsize=QUEUED_BATCHES)
        self.error: BaseException | None = None
        self.reported = False
        self.thread = threading.Thread(target=self._run, name="import-writer", daemon=True)
        self.thread.start()

    def submit(self, job: Callable[[], None]) -> None:
        self._raise_once()
        self.jobs.put(job)

    def close(self) -> None:
        self.jobs.put(None)
        self.thread.join()
        self._raise_once()

    def _raise_once(self) -> None:
        if self.error is not None and not self.reported:
            self.reported = True
            raise self.error

    def _run(self) -> None:
        try:
            while (job := self.jobs.get()) is not None:
                if self.error is None:  # after a failure, drain the queue without writing
                    try:
                        job()
                    except BaseException as exc:  # handed to the reading thread, raised there
                        self.error = exc
        finally:
            connection.close()  # the thread's own connection


@contextmanager
def batch_writer() -> Iterator[_InlineWriter | _ThreadWriter]:
    threaded = connection.vendor == "postgresql" and not connection.in_atomic_block
    writer = _ThreadWriter() if threaded else _InlineWriter()
    try:
        yield writer
    finally:
        writer.close()
