"""The screening config's row lock, which writers of a config's customer numbers, references, holds
and settings take so that one writes at a time.

An import job holds it for the length of its import (about 80 s for 100,000 rows:
person_import_job.py). A request that needs it meanwhile waits at most REQUEST_WAIT_SECONDS, then
is answered 503 `config_busy` with Retry-After: without the bound it would outlive its caller's
timeout (the dashboard's is 20 s) and then write after the caller was told it had failed. Tasks
wait as long as it takes (`wait=True`). SQLite has no row locks: one writer at a time, whose busy
timeout bounds the wait instead.
"""

from __future__ import annotations

import uuid

from django.db import OperationalError, connection

from service.errors import ApiError
from service.screening.models import ScreeningConfig

REQUEST_WAIT_SECONDS = 5.0
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE when lock_timeout ends the wait


class ConfigBusy(ApiError):
    status = 503
    code = "config_busy"

    def __init__(self) -> None:
        super().__init__(
            "The screening config is being written by another change, most likely an import of a large file of "
            "customer persons; nothing was done. Try again in a minute.",
            headers={"Retry-After": "30"},
        )


def config_lock(config_pk: uuid.UUID, *, wait: bool = False) -> None:
    """Lock the config's row in the caller's transaction; ConfigBusy when a request would wait too long."""
    locking = ScreeningConfig.objects.select_for_update().filter(pk=config_pk).values_list("pk")
    if wait or connection.vendor != "postgresql":
        locking.first()
        return
    with connection.cursor() as cursor:  # for this lock alone: set_config(..., true) lasts the transaction
        cursor.execute("SELECT current_setting('lock_timeout'), set_config('lock_timeout', %s, true)",
                       [f"{int(REQUEST_WAIT_SECONDS * 1000)}ms"])
        before = cursor.fetchone()[0]
    try:
        locking.first()
    except OperationalError as exc:
        if getattr(exc.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
            raise ConfigBusy() from None  # the transaction is aborted: the caller's atomic rolls it back
        raise
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [before])
