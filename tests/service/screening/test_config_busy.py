"""A request that needs the config's lock while an import job holds it (for the length of its import)
is answered 503 `config_busy` after a few seconds, writing nothing, instead of outliving its caller's
timeout and writing after the caller was told it failed. A task waits instead.

PostgreSQL only: SQLite has no row locks (one writer at a time, bounded by its busy timeout)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction

from service.screening import config_lock
from service.screening.models import CustomerPersonNationalIdentification, ScreeningConfig
from tests.service.screening.helpers import config_make, customer_person_make, customer_person_url

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks")

BOTH = ["aml", "person_national_identification"]
NUMBER = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}


def _holding(config_uuid, seconds: float) -> tuple[threading.Thread, threading.Event]:
    """A writer holding the config's lock for `seconds`, as an import job does for its import."""
    locked = threading.Event()

    def hold():
        try:
            with transaction.atomic():
                ScreeningConfig.objects.select_for_update().filter(pk=config_uuid).first()
                locked.set()
                time.sleep(seconds)
        finally:
            connections.close_all()

    thread = threading.Thread(target=hold)
    thread.start()
    assert locked.wait(10)
    return thread, locked


def test_a_request_waits_briefly_then_is_told_the_config_is_busy(transactional_db, api, monkeypatch):
    monkeypatch.setattr(config_lock, "REQUEST_WAIT_SECONDS", 0.5)
    config = config_make(api)
    person = customer_person_make(api, config["uuid"], full_name="Kari Nordmann", birth_date="1986-10-15")
    holder, _ = _holding(config["uuid"], seconds=3)

    started = time.monotonic()
    busy = api.post(customer_person_url(person["uuid"], "/customer-person-national-identification"), NUMBER, roles=BOTH)
    waited = time.monotonic() - started
    holder.join()

    assert (busy.status_code, busy.json()["code"]) == (503, "config_busy"), busy.content
    assert busy["Retry-After"] == "30"
    assert "import" in busy.json()["detail"]
    assert waited < 2.5  # the request did not wait for the holder's 3 s
    assert not CustomerPersonNationalIdentification.objects.exists()

    again = api.post(customer_person_url(person["uuid"], "/customer-person-national-identification"), NUMBER, roles=BOTH)
    assert again.status_code == 201, again.content


def test_a_config_update_is_told_so_too_and_a_lock_free_moment_lets_it_through(transactional_db, api, monkeypatch):
    monkeypatch.setattr(config_lock, "REQUEST_WAIT_SECONDS", 0.5)
    config = config_make(api)
    holder, _ = _holding(config["uuid"], seconds=0.2)  # shorter than the wait: it simply waits

    updated = api.client.patch(f"/analysis/v1/screening-config/{config['uuid']}", {"auto_approve_monitoring_flag": True},
                               content_type="application/json", **api.headers(["aml"]))
    holder.join()

    assert updated.status_code == 200, updated.content
    assert ScreeningConfig.objects.get(uuid=config["uuid"]).auto_approve_monitoring_flag is True


def test_an_import_job_waits_for_the_lock_as_long_as_it_takes(transactional_db, api, monkeypatch):
    from service.screening import person_import_job
    from service.screening.models import CustomerPerson, CustomerPersonImportJob
    from tests.service.screening.persons.test_customer_person_import import KARI, csv_bytes
    from tests.service.screening.persons.test_customer_person_import_job import start

    monkeypatch.setattr(config_lock, "REQUEST_WAIT_SECONDS", 0.5)
    config = config_make(api)
    with monkeypatch.context() as patched:
        patched.setattr(person_import_job, "_enqueue", lambda job_uuid: None)
        job = start(api, config["uuid"], csv_bytes([KARI])).json()
    holder, _ = _holding(config["uuid"], seconds=1.5)  # longer than a request waits

    person_import_job.import_job_process(job_uuid=job["uuid"])
    holder.join()

    assert CustomerPersonImportJob.objects.get(uuid=job["uuid"]).status == "complete"
    assert CustomerPerson.objects.count() == 1
