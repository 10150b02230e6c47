"""`client.screening.import_job_start` and `import_job` against the real service, in-process: the job as
started (these tests do not commit, so its task is not run and it stays pending), read back typed, and another
organisation's job not found."""

from __future__ import annotations

import pytest
from django.test import override_settings

from portal.service import ServiceError, ServiceNotFound, service_client_for
from service.auth.services import api_user_create, app_customer_create
from tests.conftest import ALL_ROLES

FILE = b"id;name;birth_date\nK-1;Ingrid Haugland;1979-04-22\n"


def _client(name: str):
    organisation = app_customer_create(name=name)
    credentials = api_user_create(app_customer=organisation, name=f"{name} API", role_keys=ALL_ROLES)
    return service_client_for(client_id=credentials.token_auth_id, client_secret=credentials.token_auth_secret,
                              role_keys=ALL_ROLES, app_customer_uuid=organisation.uuid)


@pytest.fixture(autouse=True)
def _media(tmp_path):
    with override_settings(MEDIA_ROOT=str(tmp_path / "media")):
        yield


def test_a_job_is_started_and_read_back(db):
    screening = _client("Nordbank ASA").screening
    config = screening.create_config()

    job = screening.import_job_start(config.uuid, file_name="kunder.csv", content=FILE, approve=True,
                                     comment="Private customers", dry_run=True)

    assert (job.file_name, job.status, job.dry_run, job.approved, job.comment) == \
           ("kunder.csv", "pending", True, True, "Private customers")
    assert job.config_uuid == config.uuid and not job.done and job.failure_errors == ()
    read = screening.import_job(config.uuid, job.uuid)
    assert read.uuid == job.uuid and read.status == "pending" and read.created_at is not None


def test_another_organisations_job_is_not_found(db):
    ours, theirs = _client("Nordbank ASA").screening, _client("Fjordkreditt AS").screening
    their_config = theirs.create_config()
    job = theirs.import_job_start(their_config.uuid, file_name="kunder.csv", content=FILE)

    with pytest.raises(ServiceNotFound):
        ours.import_job(ours.create_config().uuid, job.uuid)


def test_a_file_over_the_job_limit_is_refused_at_the_upload(db):
    screening = _client("Nordbank ASA").screening
    config = screening.create_config()

    with override_settings(VAKT_IMPORT_JOB_MAX_BYTES=1024), pytest.raises(ServiceError) as refused:
        screening.import_job_start(config.uuid, file_name="kunder.csv", content=FILE * 50)
    assert refused.value.status == 413
