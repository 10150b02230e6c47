"""Two deliveries of one import job's task at once (a worker thought dead, its message handed out
again): the second waits for the first's lock on the job's row, then finds the job complete and
imports nothing. Without the lock it would take the first's persons for existing customers and
overwrite the job's counts with "already monitored"; marking the job running without excluding an
ended one, it turned the complete job back to running and then failed it, its file removed.

PostgreSQL only: SQLite runs one writing transaction at a time, so the two cannot overlap."""

from __future__ import annotations

import pytest
from django.db import connection

from service.screening import person_import_job
from service.screening.models import CustomerPerson, CustomerPersonImportJob, EntityMonitoring
from tests.racing import race
from tests.service.screening.helpers import config_make
from tests.service.screening.persons.test_customer_person_import import KARI, OLA, csv_bytes
from tests.service.screening.persons.test_customer_person_import_job import start

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")


def test_two_deliveries_at_once_import_the_file_once(transactional_db, api, monkeypatch):
    config = config_make(api)
    with monkeypatch.context() as patched:
        patched.setattr(person_import_job, "_enqueue", lambda job_uuid: None)  # the task is run below, twice
        job = start(api, config["uuid"], csv_bytes([KARI, OLA])).json()

    def deliver():
        return person_import_job.import_job_process(job_uuid=job["uuid"])

    first, second = race(monkeypatch, person_import_job, "customer_persons_import", deliver, deliver)

    assert not isinstance(first, Exception) and not isinstance(second, Exception), (first, second)
    done = CustomerPersonImportJob.objects.get(uuid=job["uuid"])
    assert (done.status, done.created_count, done.already_monitored_count) == ("complete", 2, 0)
    assert done.attempts == 1  # the second never started it: it waited for the row, then found it complete
    assert second.status == "complete"
    assert CustomerPerson.objects.count() == 2 and EntityMonitoring.objects.count() == 2
