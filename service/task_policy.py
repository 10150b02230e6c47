"""How the service's Celery tasks are acknowledged and retried, named once.

`DATABASE_WORK`: a task whose only transient failure is the database (a lost connection,
a lock timeout). It is acknowledged after it ran (a worker that dies mid-task leaves it
to another), keeps no result (state lives in the database) and retries with backoff.
Tasks with other transient failures (downloads, email) state their own policy.
"""

from django.db import OperationalError

DATABASE_WORK = {
    "acks_late": True,
    "ignore_result": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": 5,
    "retry_backoff_max": 300,
    "max_retries": 5,
}
