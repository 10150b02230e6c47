from celery import shared_task
from celery.signals import worker_ready
from django.utils import timezone

from portal.models import WorkerHeartbeat


@shared_task(ignore_result=True)
def worker_heartbeat() -> None:
    """Scheduled by beat; the health page reads the timestamp."""
    WorkerHeartbeat.objects.update_or_create(name="worker", defaults={"seen_at": timezone.now()})


@worker_ready.connect
def _heartbeat_on_start(**_kwargs) -> None:
    # Through the broker, so a fresh heartbeat proves broker and worker together.
    worker_heartbeat.delay()
