"""A job uploaded while the broker is away: the upload answers 202, the job waits as pending,
and beat's resume enqueues it once it has waited VAKT_RESUME_AFTER_SECONDS."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from service.screening.models import ScreeningBatch
from service.screening.tasks import screening_batches_resume
from tests.service.screening.batch.conftest import batches_url, csv_bytes, upload
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import AML

ROWS = [{"id": "c-1", "name": "Ivan Sergeyevich Dragunov"}, {"id": "c-2", "name": "Kari Nordmann"}]


def _status(api, config, job) -> tuple:
    done = api.get(batches_url(config["uuid"], f"/{job['uuid']}"), roles=AML).json()
    return done["screening_batch_status_key"], done["rows_done"], done["rows_with_hits_count"]


def _later(settings) -> None:
    settings.VAKT_RESUME_AFTER_SECONDS = 5
    ScreeningBatch.objects.update(update_timestamp=timezone.now() - timedelta(seconds=60))


def test_it_screens_a_job_whose_message_was_lost_once_it_is_due(api, lists, broker_away, settings, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with broker_away(), django_capture_on_commit_callbacks(execute=True) as enqueued:
        response = upload(api, config["uuid"], csv_bytes(ROWS))
    assert len(enqueued) == 1
    assert response.status_code == 202, response.json()
    job = response.json()

    assert screening_batches_resume() == 0  # too recent: it may still be in a queue
    assert _status(api, config, job) == ("pending", 0, 0)
    _later(settings)
    assert screening_batches_resume() == 1
    assert _status(api, config, job) == ("complete", 2, 1)
    _later(settings)
    assert screening_batches_resume() == 0


def test_it_resumes_no_job_a_worker_took(api, lists, settings, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()
    _later(settings)

    assert screening_batches_resume() == 0
    assert _status(api, config, job) == ("complete", 2, 1)
