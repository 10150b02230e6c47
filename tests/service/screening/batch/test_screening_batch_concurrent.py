"""Two runs of one batch job at once (the broker hands a long job to a second worker after its
visibility timeout, or beat's resume sends a queued job again): the run that finishes second
neither overwrites the finished job's result files with what is left of its chunks, nor writes
chunks and progress into a job the other run completed."""

from __future__ import annotations

import pytest

from service.screening import batch_services
from service.screening.batch_tasks import screening_batch_task
from service.screening.models import ScreeningBatchChunk
from tests.service.screening.batch.conftest import batches_url, csv_bytes, result_rows, upload
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import AML

NAMES = ["Kari Nordmann", "Ivan Sergeyevich Dragunov", "Ola Nordmann", "Per Olsen", "Liv Berg"]


class WorkerLost(BaseException):
    """Not an Exception: like a killed process, nothing in the task catches it."""


@pytest.fixture
def job(api, lists, monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setattr(batch_services, "CHUNK_ROWS", 2)
    config = config_with(api, "un_security_council")
    rows = [{"id": f"r{n}", "name": name} for n, name in enumerate(NAMES)]
    with django_capture_on_commit_callbacks(execute=False):
        return upload(api, config["uuid"], csv_bytes(rows)).json() | {"config_uuid": config["uuid"]}


def _dies_first(monkeypatch, job, where: str, after: int) -> None:
    """A first run that dies after `after` calls of `where`, leaving the job running."""
    real, calls = getattr(batch_services, where), []

    def dies(*args):
        calls.append(1)
        if len(calls) > after:
            raise WorkerLost
        return real(*args)

    monkeypatch.setattr(batch_services, where, dies)
    with pytest.raises(WorkerLost):
        screening_batch_task.apply(args=[job["uuid"]])
    monkeypatch.setattr(batch_services, where, real)


def _another_run_finishes_while_this_one_runs(monkeypatch, job) -> None:
    """This run has read which chunks exist; another run then does the whole job."""
    real = batch_services.config_category_keys
    state = {"other_ran": False}

    def keys(config):
        if not state["other_ran"]:
            state["other_ran"] = True
            screening_batch_task.apply(args=[job["uuid"]])
        return real(config)

    monkeypatch.setattr(batch_services, "config_category_keys", keys)
    screening_batch_task.apply(args=[job["uuid"]])
    assert state["other_ran"]


def _finished(api, job) -> dict:
    return api.get(batches_url(job["config_uuid"], f"/{job['uuid']}"), roles=AML).json()


def test_the_later_run_leaves_the_result_files_of_the_finished_job_whole(api, job, monkeypatch):
    _dies_first(monkeypatch, job, "_results_write", after=0)  # every chunk written, no result yet

    _another_run_finishes_while_this_one_runs(monkeypatch, job)

    done = _finished(api, job)
    assert (done["screening_batch_status_key"], done["rows_done"]) == ("complete", 5)
    assert [r["id"] for r in result_rows(api, done)] == ["r0", "r1", "r2", "r3", "r4"]


def test_the_later_run_writes_no_chunks_or_progress_into_the_finished_job(api, job, monkeypatch):
    _dies_first(monkeypatch, job, "_chunk_screen", after=1)  # chunk 0 written

    _another_run_finishes_while_this_one_runs(monkeypatch, job)

    done = _finished(api, job)
    assert (done["screening_batch_status_key"], done["rows_done"], done["rows_with_hits_count"]) == ("complete", 5, 1)
    assert [r["id"] for r in result_rows(api, done)] == ["r0", "r1", "r2", "r3", "r4"]
    assert not ScreeningBatchChunk.objects.exists()
