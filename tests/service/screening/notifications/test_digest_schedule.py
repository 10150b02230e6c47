"""Beat schedules the digest by a task name a worker knows."""

from django.conf import settings

from portal.celery import app


def test_beat_schedules_a_task_the_worker_registers():
    app.loader.import_default_modules()  # what a worker does at start: every app's tasks module
    entry = settings.CELERY_BEAT_SCHEDULE["screening-digests"]
    assert entry["task"] in app.tasks
    assert "service.screening.notification_tasks.screening_digest_send_task" in app.tasks
    assert "service.screening.batch_tasks.screening_batch_task" in app.tasks
    assert entry["schedule"] <= 24 * 3600  # checked at least daily; the once-a-day rule is the database's
