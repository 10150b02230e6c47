"""A complete job says which list versions its rows were screened against: what an officer files
with a new customer's check ("PEP list v1 and UN v2, on 28.11.2026"), and what stays once the
file itself is deleted."""

from __future__ import annotations

import pytest

from service.screening import batch_services
from service.screening.batch_tasks import screening_batch_task
from service.screening.list_import import screening_list_import
from service.screening.models import ScreeningListCategory, ScreeningListVersion
from tests.service.screening.batch.conftest import batches_url, csv_bytes, upload
from tests.service.screening.cases.conftest import UN_XML
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import AML

ROWS = [{"name": "Kari Nordmann"}, {"name": "Ivan Sergeyevich Dragunov"}, {"name": "Ola Hansen"}]


class WorkerLost(BaseException):
    """Not an Exception: like a killed process, nothing in the task catches it."""


def _job(api, config_uuid, batch_uuid) -> dict:
    return api.get(batches_url(config_uuid, f"/{batch_uuid}"), roles=AML).json()


def _against(job: dict) -> list[tuple[str, int]]:
    return [(s["screening_list_category_key"], s["list_version_number"]) for s in job["screened_against"]]


def test_a_complete_job_names_each_list_version_it_was_screened_against(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()

    done = _job(api, config["uuid"], job["uuid"])

    assert _against(done) == [("pep", 1), ("un_security_council", 1)]  # PEP lists first
    un = ScreeningListVersion.objects.get(category__key="un_security_council")
    [_, un_entry] = done["screened_against"]
    assert un_entry["list_version_uuid"] == str(un.uuid)
    assert un_entry["screening_list_category_name"] == un.category.name
    assert un_entry["screened_timestamp"] == done["complete_timestamp"]


def test_a_list_the_config_does_not_select_is_not_named(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api)  # no sanction list selected: PEP only (rule 5)
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()

    assert _against(_job(api, config["uuid"], job["uuid"])) == [("pep", 1)]


def test_a_waiting_job_names_none_yet(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=False):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()

    assert job["screened_against"] == []


def test_a_job_resumed_after_a_list_update_names_both_versions(api, lists, monkeypatch, tmp_path,
                                                               django_capture_on_commit_callbacks):
    monkeypatch.setattr(batch_services, "CHUNK_ROWS", 2)
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=False):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()
    real, calls = batch_services._chunk_screen, []

    def dies_after_the_first_chunk(*args):
        if calls:
            raise WorkerLost
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(batch_services, "_chunk_screen", dies_after_the_first_chunk)
    with pytest.raises(WorkerLost):
        screening_batch_task.apply(args=[job["uuid"]])
    monkeypatch.setattr(batch_services, "_chunk_screen", real)
    amended = tmp_path / "un-v2.xml"
    amended.write_text(UN_XML.replace("DRAGUNOV", "DRAGUNOFF"), encoding="utf-8")
    with django_capture_on_commit_callbacks(execute=False):  # the list's own re-screen is not this test's
        screening_list_import(category=ScreeningListCategory.objects.get(key="un_security_council"), path=amended)

    screening_batch_task.apply(args=[job["uuid"]])  # redelivered: the second chunk in the new version's index

    assert _against(_job(api, config["uuid"], job["uuid"])) == [("pep", 1), ("un_security_council", 1), ("un_security_council", 2)]


def test_a_deleted_job_keeps_what_it_was_screened_against(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()

    api.client.delete(batches_url(config["uuid"], f"/{job['uuid']}"), **api.headers(AML))

    deleted = _job(api, config["uuid"], job["uuid"])
    assert deleted["screening_batch_status_key"] == "deleted"
    assert _against(deleted) == [("pep", 1), ("un_security_council", 1)]
