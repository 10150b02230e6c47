from celery import shared_task
from django.utils import timezone

from portal.models import WorkerHeartbeat


@shared_task(ignore_result=True)
def worker_heartbeat() -> None:
    WorkerHeartbeat.objects.update_or_create(name="worker", defaults={"seen_at": timezone.now()})
