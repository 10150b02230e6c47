"""/v1/screening-config/{uuid}/customer-person-import-job: a file too large for the synchronous import,
imported in the background by the same import, all or nothing."""

from __future__ import annotations

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from service.screening.models import CustomerPerson, CustomerPersonImportJob, EntityMonitoring, ScreeningConfig
from service.screening.person_import_job import ATTEMPTS_MAX
from service.screening.tasks import customer_person_import_job_task, customer_person_import_jobs_resume
from tests.service.screening.helpers import AML, config_make, config_url, field_locs, monitorings, status_of
from tests.service.screening.persons.test_customer_person_import import BOTH, KARI, OLA, SVEN, _nothing_written, csv_bytes


def start(caller, config_uuid, content: bytes, *, roles=BOTH, name="customers.csv", **params):
    query = "&".join(f"{key}={value}" for key, value in params.items())
    return caller.client.post(
        config_url(config_uuid, "/customer-person-import-job") + (f"?{query}" if query else ""),
        {"file": SimpleUploadedFile(name, content, content_type="text/csv")}, **caller.headers(roles),
    )


def job_read(caller, config_uuid, job_uuid, roles=AML):
    return caller.get(config_url(config_uuid, f"/customer-person-import-job/{job_uuid}"), roles=roles)


@pytest.fixture
def config(api):
    return config_make(api)


def test_it_imports_a_file_beyond_the_synchronous_limits_and_screens_the_approved(
    api, config, settings, django_capture_on_commit_callbacks,
):
    settings.VAKT_BATCH_MAX_ROWS = 2  # the synchronous import would refuse three rows
    settings.VAKT_MAX_BODY_BYTES = 1024
    content = csv_bytes([KARI, SVEN, OLA] + [{"name": f"Kunde Nummer {n}", "birth_date": "1980-01-01", "id": f"K-{n}"}
                                            for n in range(40)])
    assert len(content) > 1024

    with django_capture_on_commit_callbacks(execute=True):
        response = start(api, config["uuid"], content, approved_flag="true", monitoring_comment="Private customers")

    assert response.status_code == 202, response.json()
    started = response.json()
    assert (started["customer_person_import_job_status_key"], started["dry_run"], started["approved_flag"],
            started["file_name"]) == ("pending", False, True, "customers.csv")
    job = job_read(api, config["uuid"], started["uuid"]).json()
    assert job["customer_person_import_job_status_key"] == "complete", job
    assert (job["rows_count"], job["created_count"], job["monitored_count"], job["already_monitored_count"],
            job["national_ids_added_count"]) == (43, 43, 43, 0, 0)
    assert job["complete_timestamp"] and job["failure_code"] is None and job["failure_errors"] == []
    assert CustomerPerson.objects.count() == 43
    assert {status_of(m) for m in monitorings(api, config["uuid"], limit=100)} == {"active"}
    assert set(EntityMonitoring.objects.values_list("monitoring_comment", flat=True)) == {"Private customers"}
    assert not default_storage.exists(CustomerPersonImportJob.objects.get().source_name)  # it held national ids

    # The same file again, as a dry run: nothing new, nothing written.
    with django_capture_on_commit_callbacks(execute=True):
        again = start(api, config["uuid"], content, dry_run="true").json()
    checked = job_read(api, config["uuid"], again["uuid"]).json()
    assert (checked["dry_run"], checked["created_count"], checked["already_monitored_count"]) == (True, 0, 43)
    assert CustomerPerson.objects.count() == 43


def test_a_dry_run_counts_and_writes_nothing(api, config, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = start(api, config["uuid"], csv_bytes([KARI, SVEN, OLA]), dry_run="true").json()

    done = job_read(api, config["uuid"], job["uuid"]).json()
    assert (done["customer_person_import_job_status_key"], done["created_count"], done["monitored_count"]) == (
        "complete", 3, 3)
    _nothing_written()


def test_a_bad_row_fails_the_job_naming_it_and_nothing_is_imported(api, config, django_capture_on_commit_callbacks):
    bad = {"name": "Eva Berg", "birth_date": "31.02.1980"}
    with django_capture_on_commit_callbacks(execute=True):
        job = start(api, config["uuid"], csv_bytes([KARI, bad, OLA])).json()

    failed = job_read(api, config["uuid"], job["uuid"]).json()
    assert (failed["customer_person_import_job_status_key"], failed["failure_code"]) == ("failed", "invalid_file")
    assert "nothing was imported" in failed["failure_detail"]
    assert [e["loc"] for e in failed["failure_errors"]] == [["body", "file", "line 3", "birth_date"]]
    assert failed["rows_count"] is None and failed["created_count"] == 0
    _nothing_written()
    assert not default_storage.exists(CustomerPersonImportJob.objects.get().source_name)


def test_national_ids_without_their_role_fail_the_job_saying_nothing_of_them(api, config, django_capture_on_commit_callbacks):
    bad_number = {"name": "Eva Berg", "national_id": "123", "national_id_country": "NO"}
    with django_capture_on_commit_callbacks(execute=True):
        job = start(api, config["uuid"], csv_bytes([OLA, bad_number]), roles=AML).json()

    failed = job_read(api, config["uuid"], job["uuid"]).json()
    assert (failed["customer_person_import_job_status_key"], failed["failure_code"]) == ("failed", "role_missing")
    assert failed["failure_detail"].startswith("The file gives national ids; recording them needs a role. Missing role(s): "
                                               "person_national_identification.")
    assert [e["loc"] for e in failed["failure_errors"]] == [["header", "Nk-Role-Keys"]]  # not the bad number's line
    _nothing_written()


def test_too_many_rows_fail_the_job(api, config, settings, django_capture_on_commit_callbacks):
    settings.VAKT_IMPORT_JOB_MAX_ROWS = 2
    with django_capture_on_commit_callbacks(execute=True):
        job = start(api, config["uuid"], csv_bytes([KARI, SVEN, OLA])).json()

    failed = job_read(api, config["uuid"], job["uuid"]).json()
    assert (failed["failure_code"], failed["failure_errors"][0]["loc"]) == ("too_many_rows", ["body", "file"])
    _nothing_written()


def test_a_task_delivered_again_imports_nothing_twice(api, config, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = start(api, config["uuid"], csv_bytes([KARI, OLA])).json()
    first = job_read(api, config["uuid"], job["uuid"]).json()

    customer_person_import_job_task.apply(args=[job["uuid"]])

    assert job_read(api, config["uuid"], job["uuid"]).json() == first
    assert CustomerPerson.objects.count() == 2 and EntityMonitoring.objects.count() == 2


def test_a_job_whose_message_was_lost_is_sent_again(api, config, settings, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):  # the broker never got it
        job = start(api, config["uuid"], csv_bytes([KARI, OLA])).json()
    settings.VAKT_RESUME_AFTER_SECONDS = 60
    CustomerPersonImportJob.objects.update(update_timestamp=timezone.now() - timezone.timedelta(minutes=5))

    assert customer_person_import_jobs_resume() == 1

    assert job_read(api, config["uuid"], job["uuid"]).json()["created_count"] == 2
    assert customer_person_import_jobs_resume() == 0  # complete: nothing to resend


def test_an_unexpected_error_fails_the_job_and_writes_nothing(api, config, monkeypatch, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        job = start(api, config["uuid"], csv_bytes([KARI, OLA])).json()

    def broken(**kwargs):
        CustomerPerson.objects.create(screening_config_id=config["uuid"], full_name="Half Written")
        raise RuntimeError("a bug")

    monkeypatch.setattr("service.screening.person_import_job.customer_persons_import", broken)
    with pytest.raises(RuntimeError):
        customer_person_import_job_task.apply(args=[job["uuid"]])

    failed = job_read(api, config["uuid"], job["uuid"]).json()
    assert (failed["customer_person_import_job_status_key"], failed["failure_code"]) == ("failed", "error")
    assert not CustomerPerson.objects.exists()


def test_jobs_are_listed_newest_first_and_only_to_their_organisation(api, other_api, config, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        older = start(api, config["uuid"], csv_bytes([OLA]), dry_run="true").json()
        newer = start(api, config["uuid"], csv_bytes([KARI]), dry_run="true", name="second.csv").json()

    listed = api.get(config_url(config["uuid"], "/customer-person-import-job"), {"limit": 1}, roles=AML).json()
    assert (listed[0]["count"], listed[0]["has_more"]) == (2, True)
    assert [job["uuid"] for job in listed[0]["elements"]] == [newer["uuid"]]
    assert job_read(other_api, config["uuid"], older["uuid"]).status_code == 404
    other_config = config_make(other_api)
    assert job_read(other_api, other_config["uuid"], older["uuid"]).status_code == 404
    assert start(other_api, config["uuid"], csv_bytes([OLA])).status_code == 404


def test_bad_uploads_are_refused_at_once(api, config, settings):
    no_file = api.client.post(config_url(config["uuid"], "/customer-person-import-job"), {}, **api.headers(BOTH))
    assert (no_file.status_code, field_locs(no_file)) == (400, [["body", "file"]])
    long_comment = start(api, config["uuid"], csv_bytes([OLA]), monitoring_comment="x" * 501)
    assert (long_comment.status_code, field_locs(long_comment)) == (400, [["query", "monitoring_comment"]])
    assert start(api, config["uuid"], csv_bytes([OLA]), roles=[]).status_code == 403
    settings.VAKT_IMPORT_JOB_MAX_BYTES = 1024
    too_large = start(api, config["uuid"], b"name\n" + b"Ola Nordmann\n" * 200)
    assert (too_large.status_code, too_large.json()["code"]) == (413, "payload_too_large")
    assert not CustomerPersonImportJob.objects.exists()


def test_a_job_started_again_and_again_without_finishing_fails_instead_of_looping(api, config, django_capture_on_commit_callbacks):
    """A worker killed mid-import (out of memory, say) has its task handed out again; a file that
    kills every worker is given up after ATTEMPTS_MAX starts, saying so."""
    with django_capture_on_commit_callbacks(execute=False):
        job = start(api, config["uuid"], csv_bytes([KARI, OLA])).json()
    CustomerPersonImportJob.objects.update(status="running", attempts=ATTEMPTS_MAX)  # each start died

    customer_person_import_job_task.apply(args=[job["uuid"]])

    failed = job_read(api, config["uuid"], job["uuid"]).json()
    assert (failed["customer_person_import_job_status_key"], failed["failure_code"]) == ("failed", "interrupted")
    assert f"started {ATTEMPTS_MAX} times" in failed["failure_detail"]
    _nothing_written()
    assert not default_storage.exists(CustomerPersonImportJob.objects.get().source_name)


def test_each_start_counts(api, config, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        start(api, config["uuid"], csv_bytes([KARI, OLA]))

    assert CustomerPersonImportJob.objects.get().attempts == 1


def test_the_import_is_recorded_as_the_member_and_api_user_who_uploaded_it(api, config, django_capture_on_commit_callbacks):
    from service.audit.models import AuditEvent
    from service.auth.models import AppCustomer
    from service.auth.services import app_membership_create

    member = app_membership_create(app_customer=AppCustomer.objects.get(uuid=api.app_customer_uuid), email="aml@nordbank.no")
    with django_capture_on_commit_callbacks(execute=True):
        job = start(api, config["uuid"], csv_bytes([KARI]), app_membership_uuid=member.uuid).json()

    assert job["app_membership_uuid"] == str(member.uuid)
    created = AuditEvent.objects.get(action_key="customer_person.create")
    assert (created.actor_email, created.actor_api_user_id) == ("aml@nordbank.no", api.credentials.api_user.uuid)
    monitoring = EntityMonitoring.objects.get()
    assert (monitoring.app_membership, monitoring.monitoring_comment) == (member, "Imported from customers.csv.")


def test_it_counts_existing_customers_put_under_monitoring_as_monitored(api, config, django_capture_on_commit_callbacks):
    from tests.service.screening.helpers import customer_person_make

    customer_person_make(api, config["uuid"], full_name="Ola Nordmann", birth_date="1970-01-02")  # never monitored
    with django_capture_on_commit_callbacks(execute=True):
        job = start(api, config["uuid"], csv_bytes([KARI, OLA])).json()

    done = job_read(api, config["uuid"], job["uuid"]).json()
    assert (done["rows_count"], done["created_count"], done["monitored_count"], done["already_monitored_count"]) == (2, 1, 2, 0)


def test_it_runs_as_running_and_a_failure_says_when_it_ended(api, config, monkeypatch, django_capture_on_commit_callbacks):
    from service.screening import person_import_job

    seen = []
    real = person_import_job.customer_persons_import

    def watched(**kwargs):
        seen.append(CustomerPersonImportJob.objects.order_by("create_timestamp").last().status)
        return real(**kwargs)

    monkeypatch.setattr(person_import_job, "customer_persons_import", watched)
    with django_capture_on_commit_callbacks(execute=True):
        start(api, config["uuid"], csv_bytes([KARI]))
    with django_capture_on_commit_callbacks(execute=True):
        bad = start(api, config["uuid"], csv_bytes([{"name": "Eva Berg", "birth_date": "31.02.1980"}, OLA])).json()

    assert seen == ["running"]
    failed = job_read(api, config["uuid"], bad["uuid"]).json()
    assert failed["customer_person_import_job_status_key"] == "failed" and failed["complete_timestamp"]


def test_a_file_the_storage_lost_fails_the_job_saying_so(api, config, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        job = start(api, config["uuid"], csv_bytes([KARI])).json()
    default_storage.delete(CustomerPersonImportJob.objects.get().source_name)

    customer_person_import_job_task.apply(args=[job["uuid"]])

    failed = job_read(api, config["uuid"], job["uuid"]).json()
    assert (failed["failure_code"], failed["customer_person_import_job_status_key"]) == ("unreadable", "failed")
    assert "Upload it again" in failed["failure_detail"]


def test_an_upload_while_the_broker_is_away_is_kept_pending_for_the_resume(api, config, monkeypatch, django_capture_on_commit_callbacks):
    from service.screening import person_import_job

    def away(job_uuid):
        raise ConnectionError("the broker is away")

    monkeypatch.setattr(person_import_job, "_enqueue", away)
    with django_capture_on_commit_callbacks(execute=True):
        response = start(api, config["uuid"], csv_bytes([KARI]))

    assert response.status_code == 202, response.content
    assert CustomerPersonImportJob.objects.get().status == "pending"


# What a member reads on a failed job, and what an operator reads in the log.

INTERRUPTED = (
    "The import was started 3 times and stopped each time before it finished (a worker lost, for example out of "
    "memory, or the database away); nothing was imported. Upload the file again, or split it: a smaller file needs "
    "less memory.")
UNREADABLE = "The uploaded file could not be read back from the storage; nothing was imported. Upload it again."
LOGGER = "service.screening.person_import_job"


def _logged(caplog, level: str) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == LOGGER and record.levelname == level]


def test_it_tells_the_member_in_full_why_a_job_that_never_finished_was_given_up(api, config, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        job = start(api, config["uuid"], csv_bytes([KARI, OLA])).json()
    long_ago = timezone.now() - timezone.timedelta(hours=1)
    CustomerPersonImportJob.objects.update(status="running", attempts=ATTEMPTS_MAX, update_timestamp=long_ago)

    customer_person_import_job_task.apply(args=[job["uuid"]])

    failed = job_read(api, config["uuid"], job["uuid"]).json()
    assert (failed["failure_code"], failed["failure_detail"]) == ("interrupted", INTERRUPTED)
    # Its last change is its failure, not the last start an hour ago.
    stored = CustomerPersonImportJob.objects.get()
    assert stored.update_timestamp > long_ago and stored.update_timestamp >= stored.complete_timestamp


def test_it_tells_the_member_a_lost_file_cannot_be_read_and_logs_the_storage_error(
    api, config, caplog, django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=False):
        job = start(api, config["uuid"], csv_bytes([KARI])).json()
    default_storage.delete(CustomerPersonImportJob.objects.get().source_name)

    customer_person_import_job_task.apply(args=[job["uuid"]])

    failed = job_read(api, config["uuid"], job["uuid"]).json()
    assert (failed["failure_code"], failed["failure_detail"]) == ("unreadable", UNREADABLE)
    assert _logged(caplog, "ERROR") == [f"Customer person import {job['uuid']}: its file cannot be read."]
    record = next(r for r in caplog.records if r.name == LOGGER)
    assert isinstance(record.exc_info[1], OSError)  # the storage's error, with its traceback, for the operator


def test_a_file_the_storage_will_not_remove_leaves_the_import_complete_and_is_logged_for_the_operator(
    api, config, settings, tmp_path, monkeypatch, caplog, django_capture_on_commit_callbacks,
):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    storage_class = default_storage.__class__  # the storage behind the lazy default_storage

    def refused(self, name):
        raise PermissionError(13, "Permission denied", name)

    with monkeypatch.context() as patched:
        patched.setattr(storage_class, "delete", refused)
        with django_capture_on_commit_callbacks(execute=True):
            job = start(api, config["uuid"], csv_bytes([KARI, OLA])).json()

    done = job_read(api, config["uuid"], job["uuid"]).json()
    assert (done["customer_person_import_job_status_key"], done["created_count"]) == ("complete", 2)
    assert _logged(caplog, "ERROR") == [f"Customer person import {job['uuid']}: its file could not be removed."]
    source_name = CustomerPersonImportJob.objects.get().source_name
    assert default_storage.exists(source_name)  # what the operator is told to remove by hand
    default_storage.delete(source_name)


def test_a_job_row_that_cannot_be_written_takes_its_stored_file_with_it(api, config, settings, tmp_path, monkeypatch):
    """The file holds national ids: an upload that fails leaves none of it in the storage."""
    from django.db import DatabaseError

    settings.MEDIA_ROOT = str(tmp_path / "media")

    def refused(self, *args, **kwargs):
        raise DatabaseError("the insert failed")

    monkeypatch.setattr(CustomerPersonImportJob, "save", refused)
    assert start(api, config["uuid"], csv_bytes([KARI])).status_code == 500

    assert default_storage.listdir(CustomerPersonImportJob.STORAGE_FOLDER) == ([], [])
    assert not CustomerPersonImportJob.objects.exists()


def test_a_job_deleted_before_it_ended_takes_its_stored_file_with_it(api, config, settings, tmp_path,
                                                                      django_capture_on_commit_callbacks):
    """A pending job's row deleted by a cascade (its config deleted through the ORM) leaves no national id behind."""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    with django_capture_on_commit_callbacks(execute=False):
        assert start(api, config["uuid"], csv_bytes([KARI])).status_code == 202
    assert len(default_storage.listdir(CustomerPersonImportJob.STORAGE_FOLDER)[1]) == 1

    ScreeningConfig.objects.filter(uuid=config["uuid"]).delete()

    assert not CustomerPersonImportJob.objects.exists()
    assert default_storage.listdir(CustomerPersonImportJob.STORAGE_FOLDER) == ([], [])


def test_a_job_started_again_says_when_it_last_started(api, config, monkeypatch, django_capture_on_commit_callbacks):
    """update_timestamp moves when a delivery starts the job, so a poller sees a running job's last start."""
    from service.screening import person_import_job

    with django_capture_on_commit_callbacks(execute=False):
        job = start(api, config["uuid"], csv_bytes([KARI])).json()
    long_ago = timezone.now() - timezone.timedelta(hours=1)
    CustomerPersonImportJob.objects.update(status="running", attempts=1, update_timestamp=long_ago)  # a lost worker's
    seen = []
    real = person_import_job.customer_persons_import

    def watched(**kwargs):
        seen.append(job_read(api, config["uuid"], job["uuid"]).json())
        return real(**kwargs)

    monkeypatch.setattr(person_import_job, "customer_persons_import", watched)
    customer_person_import_job_task.apply(args=[job["uuid"]])

    [running] = seen
    assert running["customer_person_import_job_status_key"] == "running"
    assert timezone.datetime.fromisoformat(running["update_timestamp"]) > long_ago
    assert CustomerPersonImportJob.objects.get().attempts == 2


def test_a_task_for_a_job_deleted_meanwhile_imports_nothing_and_does_not_fail(api, config, django_capture_on_commit_callbacks):
    """A message still queued for a job whose row was deleted finds nothing to do, and says so."""
    with django_capture_on_commit_callbacks(execute=False):
        job = start(api, config["uuid"], csv_bytes([KARI])).json()
    CustomerPersonImportJob.objects.all().delete()

    assert customer_person_import_job_task.apply(args=[job["uuid"]]).get() is None

    assert not CustomerPerson.objects.exists()


# Names: the service's own limits on what it stores (the HTTP upload already gives a name of at most 255).

def _created(api, config_uuid, file_name: str) -> CustomerPersonImportJob:
    from service.audit.services import Actor
    from service.screening.models import ScreeningConfig
    from service.screening.person_import_job import import_job_create

    return import_job_create(
        config=ScreeningConfig.objects.get(uuid=config_uuid), file_name=file_name, content=csv_bytes([KARI]),
        actor=Actor(api_user_uuid=api.credentials.api_user.uuid), approved_flag=False, comment="", dry_run=False,
        national_ids_allowed=True,
    )


def test_it_names_a_nameless_upload_customers_csv_in_the_list_and_in_the_monitoring_comment(
    api, config, django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        job = _created(api, config["uuid"], "")

    listed = api.get(config_url(config["uuid"], "/customer-person-import-job"), roles=AML).json()[0]["elements"]
    assert [(j["uuid"], j["file_name"]) for j in listed] == [(str(job.uuid), "customers.csv")]
    assert EntityMonitoring.objects.get().monitoring_comment == "Imported from customers.csv."


def test_a_very_long_file_name_is_stored_cut_to_its_column_and_the_job_still_listed(
    api, config, django_capture_on_commit_callbacks,
):
    name = "kunder-" + "x" * 300 + ".csv"
    with django_capture_on_commit_callbacks(execute=True):
        job = _created(api, config["uuid"], name)

    listed = api.get(config_url(config["uuid"], "/customer-person-import-job"), roles=AML).json()[0]["elements"]
    assert [(j["uuid"], j["file_name"]) for j in listed] == [(str(job.uuid), name[:255])]
    assert listed[0]["customer_person_import_job_status_key"] == "complete"


def test_a_failure_longer_than_its_columns_still_fails_the_job_cut_to_them(api, config, django_capture_on_commit_callbacks):
    """The last resort (a worker's unexpected error) must end the job whatever it is given to say."""
    from service.screening.person_import_job import import_job_failed_mark

    with django_capture_on_commit_callbacks(execute=False):
        job = start(api, config["uuid"], csv_bytes([KARI])).json()
    code, detail = "c" * 60, "The import stopped. " + "d" * 3000

    import_job_failed_mark(job_uuid=job["uuid"], code=code, detail=detail)

    failed = job_read(api, config["uuid"], job["uuid"]).json()
    assert (failed["customer_person_import_job_status_key"], failed["failure_code"], failed["failure_detail"]) == (
        "failed", "c" * 40, detail[:2000])
