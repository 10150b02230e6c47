"""Deleting a batch job: an officer who uploaded the wrong file (or checked a name by mistake)
removes the names in it. The file, the result and the rows go; the job stays, deleted, with its
counts, and the audit log says who deleted it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.storage import default_storage

from service.audit.models import AuditEvent
from service.screening import batch_services
from service.screening.batch_tasks import screening_batch_task
from service.screening.models import ScreeningBatch
from tests.service.screening.batch.conftest import batches_url, csv_bytes, upload
from tests.service.screening.cases.steps import config_with, member_of
from tests.service.screening.helpers import AML

ROWS = [{"id": "k1", "name": "Kari Nordmann", "birth_date": "1984-03-12"}, {"id": "d1", "name": "Ivan Sergeyevich Dragunov"}]


@pytest.fixture
def done(api, lists, django_capture_on_commit_callbacks):
    """A complete job of two rows."""
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()
    return _read(api, config["uuid"], job["uuid"]) | {"config_uuid": config["uuid"]}


def _read(api, config_uuid, batch_uuid) -> dict:
    response = api.get(batches_url(config_uuid, f"/{batch_uuid}"), roles=AML)
    assert response.status_code == 200, response.content
    return response.json()


def _delete(api, job, query: str = ""):
    return api.client.delete(batches_url(job["config_uuid"], f"/{job['uuid']}{query}"), **api.headers(AML))


def _files(settings, job) -> list[str]:
    folder = Path(settings.MEDIA_ROOT) / "screening-batch" / job["uuid"]
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_it_deletes_the_file_and_the_result_and_keeps_the_job_with_its_counts(api, done, settings):
    assert done["screening_batch_status_key"] == "complete" and _files(settings, done)
    anna = member_of(api, "anna@nordbank.no")

    response = _delete(api, done, f"?app_membership_uuid={anna}")

    assert response.status_code == 204, response.content
    assert not (Path(settings.MEDIA_ROOT) / "screening-batch" / done["uuid"]).exists()  # no empty folder left
    deleted = _read(api, done["config_uuid"], done["uuid"])
    assert deleted["screening_batch_status_key"] == "deleted"
    assert deleted["deletion_reason_key"] == "request"
    assert deleted["deleted_timestamp"] is not None
    assert deleted["result_url"] is None and deleted["retained_until"] is None
    assert (deleted["rows_total"], deleted["rows_with_hits_count"]) == (2, done["rows_with_hits_count"])
    assert deleted["file_name"] == ""  # a file's name can name a person (a name checked is named after it)
    [listed] = api.get(batches_url(done["config_uuid"]), roles=AML).json()[0]["elements"]
    assert listed["file_name"] == "" and listed["screening_batch_status_key"] == "deleted"
    [event] = AuditEvent.objects.filter(action_key="screening_batch.delete")
    assert (str(event.object_uuid), event.actor_email, event.object_label) == (done["uuid"], "anna@nordbank.no", "")  # the name is not copied again


def test_the_result_of_a_deleted_job_is_gone_with_a_reason(api, done):
    _delete(api, done)

    result = api.get(batches_url(done["config_uuid"], f"/{done['uuid']}/result"), roles=AML)

    assert result.status_code == 410
    assert result.json()["code"] == "deleted"
    assert "deleted by a member" in result.json()["detail"]


def test_deleting_twice_is_no_error_and_no_second_record(api, done):
    assert _delete(api, done).status_code == 204

    assert _delete(api, done).status_code == 204
    assert AuditEvent.objects.filter(action_key="screening_batch.delete").count() == 1


def test_another_organisations_job_is_not_found_and_stays(api, other_api, done, settings):
    other_config = config_with(other_api, "un_security_council")

    for caller, config_uuid in ((other_api, other_config["uuid"]), (api, other_config["uuid"])):
        refused = caller.client.delete(batches_url(config_uuid, f"/{done['uuid']}"), **caller.headers(AML))
        assert refused.status_code == 404, refused.content

    assert _read(api, done["config_uuid"], done["uuid"])["screening_batch_status_key"] == "complete"
    assert _files(settings, done) == ["result.json", "source.csv"]


def test_a_stranger_named_as_the_member_is_refused_and_nothing_deleted(api, other_api, done, settings):
    stranger = member_of(other_api, "x@fjord.no")

    refused = _delete(api, done, f"?app_membership_uuid={stranger}")

    assert refused.status_code == 400
    assert refused.json()["errors"][0]["loc"] == ["query", "app_membership_uuid"]
    assert _read(api, done["config_uuid"], done["uuid"])["screening_batch_status_key"] == "complete"
    assert len(_files(settings, done)) == 2


def test_a_job_deleted_while_it_runs_stops_and_writes_no_result(api, lists, monkeypatch, settings,
                                                                 django_capture_on_commit_callbacks):
    monkeypatch.setattr(batch_services, "CHUNK_ROWS", 1)
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=False):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json() | {"config_uuid": config["uuid"]}
    real = batch_services._chunk_screen
    chunks = []

    def delete_after_the_first_chunk(batch, *args):
        if chunks:  # the member deletes the job between the first chunk and the second
            batch_services.batch_delete(batch=batch, actor=None)
        chunks.append(1)
        return real(batch, *args)

    monkeypatch.setattr(batch_services, "_chunk_screen", delete_after_the_first_chunk)

    screening_batch_task.apply(args=[job["uuid"]])

    stopped = ScreeningBatch.objects.get(uuid=job["uuid"])
    assert stopped.status == "deleted" and len(chunks) == 2
    assert not stopped.chunks.exists()
    assert _files(settings, job) == []
    screening_batch_task.apply(args=[job["uuid"]])  # redelivered: still nothing written
    assert _files(settings, job) == [] and ScreeningBatch.objects.get(uuid=job["uuid"]).status == "deleted"


def test_deleting_a_failed_job_removes_its_file(api, lists, settings, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=False):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json() | {"config_uuid": config["uuid"]}
    batch_services.batch_failed_mark(batch_uuid=job["uuid"], reason="The file could not be screened.")
    assert _files(settings, job) == ["source.csv"]

    assert _delete(api, job).status_code == 204

    assert _files(settings, job) == []
    assert _read(api, config["uuid"], job["uuid"])["screening_batch_status_key"] == "deleted"


def test_a_failure_after_the_deletion_leaves_the_job_deleted(api, done):
    _delete(api, done)

    batch_services.batch_failed_mark(batch_uuid=done["uuid"], reason="The database was unavailable; upload the file again.")

    job = _read(api, done["config_uuid"], done["uuid"])
    assert (job["screening_batch_status_key"], job["failure_reason"]) == ("deleted", None)


def test_a_run_that_finds_its_file_deleted_logs_no_error(api, lists, caplog, monkeypatch,
                                                         django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=False):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()
    batch = ScreeningBatch.objects.get(uuid=job["uuid"])
    real_open = default_storage.open

    def deleted_first(name, *args):  # the member deletes the job as the run opens its file
        batch_services.batch_delete(batch=batch, actor=None)
        return real_open(name, *args)

    monkeypatch.setattr(default_storage, "open", deleted_first)
    with caplog.at_level("INFO"):
        batch_services.batch_process(batch_uuid=job["uuid"])

    assert ScreeningBatch.objects.get(pk=batch.pk).status == "deleted"
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []
    assert any("was deleted while it ran" in r.getMessage() for r in caplog.records)
