"""Files of persons screened once are not kept for ever: `VAKT_BATCH_RETENTION_DAYS` after the
upload, beat's hourly task deletes a job's file and result, as a member's DELETE does."""

from __future__ import annotations

import os
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.files.storage import default_storage
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from service.audit.models import AuditEvent
from service.screening.batch_tasks import screening_batches_retention
from service.screening.models import ScreeningBatch
from tests.service.screening.batch.conftest import batches_url, csv_bytes, upload
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import AML


@pytest.fixture
def jobs(api, lists, settings, django_capture_on_commit_callbacks):
    """Three complete jobs, uploaded 31, 29 and 0 days ago."""
    settings.VAKT_BATCH_RETENTION_DAYS = 30
    config = config_with(api, "un_security_council")
    made = {}
    for age in (31, 29, 0):
        with django_capture_on_commit_callbacks(execute=True):
            job = upload(api, config["uuid"], csv_bytes([{"name": "Kari Nordmann"}]), name=f"{age}-days.csv").json()
        ScreeningBatch.objects.filter(uuid=job["uuid"]).update(create_timestamp=timezone.now() - timedelta(days=age))
        made[age] = job["uuid"]
    return config["uuid"], made


def _job(api, config_uuid, batch_uuid) -> dict:
    return api.get(batches_url(config_uuid, f"/{batch_uuid}"), roles=AML).json()


def _has_files(batch_uuid) -> bool:
    folder = Path(django_settings.MEDIA_ROOT) / "screening-batch" / batch_uuid
    return folder.exists() and any(folder.iterdir())


def test_it_deletes_only_the_jobs_older_than_the_retention_period(api, jobs):
    config_uuid, made = jobs

    assert screening_batches_retention.apply().get() == 1

    expired = _job(api, config_uuid, made[31])
    assert (expired["screening_batch_status_key"], expired["deletion_reason_key"]) == ("deleted", "retention")
    assert not _has_files(made[31])
    for age in (29, 0):
        kept = _job(api, config_uuid, made[age])
        assert kept["screening_batch_status_key"] == "complete" and _has_files(made[age])
    [event] = AuditEvent.objects.filter(action_key="screening_batch.delete")
    assert (str(event.object_uuid), event.actor_email) == (made[31], "")  # nobody: the retention period


def test_a_second_pass_deletes_nothing_more(api, jobs):
    screening_batches_retention.apply()

    assert screening_batches_retention.apply().get() == 0
    assert AuditEvent.objects.filter(action_key="screening_batch.delete").count() == 1


def test_each_job_says_until_when_its_files_are_kept(api, jobs):
    config_uuid, made = jobs

    job = _job(api, config_uuid, made[29])

    created = parse_datetime(job["create_timestamp"])
    assert parse_datetime(job["retained_until"]) == created + timedelta(days=30)


def test_a_job_that_old_still_waiting_is_deleted_too(api, jobs):
    config_uuid, made = jobs
    ScreeningBatch.objects.filter(uuid=made[31]).update(status=ScreeningBatch.Status.PENDING)

    screening_batches_retention.apply()

    assert _job(api, config_uuid, made[31])["screening_batch_status_key"] == "deleted"


def test_zero_days_keeps_every_file_until_a_member_deletes_it(api, jobs, settings):
    config_uuid, made = jobs
    settings.VAKT_BATCH_RETENTION_DAYS = 0

    assert screening_batches_retention.apply().get() == 0

    assert _job(api, config_uuid, made[31])["screening_batch_status_key"] == "complete"
    assert _job(api, config_uuid, made[31])["retained_until"] is None


def test_beat_runs_it(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["screening-batches-retention"]
    assert entry["task"] == screening_batches_retention.name
    assert entry["schedule"] <= 24 * 3600


def test_a_job_whose_files_cannot_be_deleted_does_not_keep_the_others(api, jobs, monkeypatch, settings):
    config_uuid, made = jobs
    ScreeningBatch.objects.filter(uuid=made[29]).update(create_timestamp=timezone.now() - timedelta(days=32))  # older
    real = default_storage.delete

    def refuses_one(name):
        if made[29] in name:
            raise PermissionError(13, "Permission denied", name)
        return real(name)

    monkeypatch.setattr(default_storage, "delete", refuses_one)

    assert screening_batches_retention.apply().get() == 1

    assert _job(api, config_uuid, made[29])["screening_batch_status_key"] == "complete"  # as it was: tried again next pass
    assert _job(api, config_uuid, made[31])["screening_batch_status_key"] == "deleted"


def _leftover(folder: str, file: str, *, days_old: float) -> Path:
    path = Path(django_settings.MEDIA_ROOT) / "screening-batch" / folder / file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("name\nKari Nordmann\n", encoding="utf-8")
    stamp = (timezone.now() - timedelta(days=days_old)).timestamp()
    os.utime(path, (stamp, stamp))
    return path


def test_it_removes_files_no_job_will_delete_and_leaves_the_others(api, jobs):
    config_uuid, made = jobs
    orphan = _leftover(str(uuid.uuid4()), "source.csv", days_old=2)  # an upload killed before its row was written
    uploading = _leftover(str(uuid.uuid4()), "source.csv", days_old=0)  # an upload under way
    api.client.delete(batches_url(config_uuid, f"/{made[0]}"), **api.headers(AML))
    stray = _leftover(made[0], "result_Ab12Cd.csv", days_old=0)  # a killed run's file the deletion did not know
    not_ours = _leftover("reports", "x.pdf", days_old=9)

    screening_batches_retention.apply()

    assert not orphan.parent.exists() and not stray.parent.exists()
    assert uploading.exists() and not_ours.exists()
    assert _has_files(made[29])  # a live job's files stay
