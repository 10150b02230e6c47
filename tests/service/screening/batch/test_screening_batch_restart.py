"""A worker that dies halfway: the redelivered task resumes after the last chunk written,
and the result has every row once."""

from __future__ import annotations

import pytest

from service.screening import batch_services
from service.screening.batch_tasks import screening_batch_task
from service.screening.models import ScreeningBatch, ScreeningBatchChunk
from tests.service.screening.batch.conftest import batches_url, csv_bytes, result_rows, upload
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import AML


class WorkerLost(BaseException):
    """Not an Exception: like a killed process, nothing in the task catches it."""


def test_a_redelivered_task_resumes_and_writes_each_row_once(api, lists, monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setattr(batch_services, "CHUNK_ROWS", 2)
    rows = [{"id": f"r{n}", "name": name} for n, name in enumerate(
        ["Kari Nordmann", "Ivan Sergeyevich Dragunov", "Ola Nordmann", "Per Olsen", "Liv Berg"]
    )]
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=False):
        job = upload(api, config["uuid"], csv_bytes(rows)).json()

    real = batch_services._chunk_screen
    calls = []

    def dies_after_the_first_chunk(batch, number, *args):
        calls.append(number)
        if len(calls) == 2:
            raise WorkerLost
        return real(batch, number, *args)

    monkeypatch.setattr(batch_services, "_chunk_screen", dies_after_the_first_chunk)
    with pytest.raises(WorkerLost):
        screening_batch_task.apply(args=[job["uuid"]])
    halfway = api.get(batches_url(config["uuid"], f"/{job['uuid']}"), roles=AML).json()
    assert (halfway["screening_batch_status_key"], halfway["rows_done"], halfway["rows_total"]) == ("running", 2, 5)
    assert halfway["rows_with_hits_count"] == 1

    screening_batch_task.apply(args=[job["uuid"]])  # the broker hands it to another worker
    screening_batch_task.apply(args=[job["uuid"]])  # and once more, after it completed

    assert calls == [0, 1, 1, 2]  # chunk 0 was not screened again
    done = api.get(batches_url(config["uuid"], f"/{job['uuid']}"), roles=AML).json()
    assert (done["screening_batch_status_key"], done["rows_done"], done["rows_with_hits_count"]) == ("complete", 5, 1)
    assert [r["id"] for r in result_rows(api, done)] == ["r0", "r1", "r2", "r3", "r4"]
    assert not ScreeningBatchChunk.objects.exists()


def test_a_job_whose_file_is_gone_fails_and_says_so(api, lists, django_capture_on_commit_callbacks):
    from django.core.files.storage import default_storage

    config = config_with(api)
    with django_capture_on_commit_callbacks(execute=False):
        job = upload(api, config["uuid"], csv_bytes([{"name": "Kari Nordmann"}])).json()
    batch = ScreeningBatch.objects.get(uuid=job["uuid"])
    default_storage.delete(batch.storage_name("source.csv"))

    screening_batch_task.apply(args=[job["uuid"]])

    failed = api.get(batches_url(config["uuid"], f"/{job['uuid']}"), roles=AML).json()
    assert failed["screening_batch_status_key"] == "failed" and "upload it once more" in failed["failure_reason"]
    assert failed["result_url"] is None


def test_a_task_for_a_deleted_job_logs_and_returns(db):
    assert screening_batch_task.apply(args=["00000000-0000-0000-0000-000000000000"]).result is None
