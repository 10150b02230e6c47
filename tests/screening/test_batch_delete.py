"""Deleting a screened file (or a name checked) from the Batch screening page: the officer confirms,
the file and its result go, the job stays listed as deleted with its counts, and the audit log names
the officer. Each job says until when it is kept."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from portal.models import Member
from service.audit.models import AuditEvent
from service.screening.batch_tasks import screening_batches_retention
from service.screening.models import ScreeningBatch
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401
from tests.service.screening.batch.conftest import csv_bytes, upload
from tests.service.screening.cases.steps import config_with

PAGE = "/screening/batches/"
ROWS = [
    {"type": "person", "id": "c-1", "name": "Dragunov Ivan Sergeevich", "birth_date": "1966-03-14", "nationality": "RU"},
    {"type": "person", "id": "c-2", "name": "Kari Nordmann", "birth_date": "1980-05-17", "nationality": "NO"},
]


@pytest.fixture(autouse=True)
def _storage(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    settings.VAKT_BATCH_RETENTION_DAYS = 30


@pytest.fixture
def config(org, lists):
    return config_with(org.api, "un_security_council")


@pytest.fixture
def job(admin, config):
    """A file the admin screened (the worker took it at once)."""
    admin.post("/screening/batches/upload/", {"file": SimpleUploadedFile("week 48.csv", csv_bytes(ROWS), content_type="text/csv")})
    return ScreeningBatch.objects.get()


def _files(settings, batch) -> list[str]:
    folder = Path(settings.MEDIA_ROOT) / "screening-batch" / str(batch.uuid)
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_it_asks_before_deleting_and_says_what_goes(admin, job, settings):
    detail = admin.get(f"/screening/batches/{job.uuid}/").content.decode()
    assert f'href="/screening/batches/{job.uuid}/delete/"' in detail

    confirm = admin.get(f"/screening/batches/{job.uuid}/delete/").content.decode()

    assert "Delete “week 48.csv” and its result?" in confirm
    assert "the 2 names screened are deleted" in confirm and "the audit log records that you deleted it" in confirm
    assert len(_files(settings, job)) == 2  # nothing deleted by looking (the file and the JSON result)


def test_it_deletes_the_file_and_lists_the_job_as_deleted(admin, job, settings):
    response = admin.post(f"/screening/batches/{job.uuid}/delete/", follow=True)

    page = response.content.decode()
    assert "week 48.csv: the file, its name and its result are deleted." in page
    assert _files(settings, job) == []
    row = page.split('data-testid="batch-row"')[1].split("</tr>")[0]
    assert "Deleted" in row and "by request" in row
    assert "A file of 2 rows" in row and "week 48" not in row
    assert ">1</span>" in row  # the counts stay: one row with a hit
    assert 'data-testid="batch-result-csv"' not in row
    [event] = AuditEvent.objects.filter(action_key="screening_batch.delete")
    assert (event.actor_email, event.object_uuid) == ("ingrid@example.com", job.uuid)
    audit = admin.get("/members/audit/", {"kind": "batches"}).content.decode()
    assert "Deleted a screened file or name" in audit and f'href="/screening/batches/{job.uuid}/"' in audit
    upload = audit.split('data-testid="audit-row"')[2].split("</tr>")[0]  # the older record: the upload
    assert "Screened a file or a name" in upload and 'data-testid="audit-redacted"' in upload
    assert "week 48" not in audit  # the upload's record named the file: redacted with it

    detail = admin.get(f"/screening/batches/{job.uuid}/").content.decode()
    assert "The file and the result were deleted on" in detail and "by request" in detail
    assert "2 rows had been screened, 1 with possible hits" in detail
    assert 'data-testid="batch-delete"' not in detail and 'data-testid="batch-hit-row"' not in detail
    assert admin.get(f"/screening/batches/{job.uuid}/result.csv").status_code == 302  # back to the list, saying why


def test_the_result_link_of_a_deleted_job_leads_to_its_page_saying_so(admin, job):
    admin.post(f"/screening/batches/{job.uuid}/delete/")

    response = admin.get(f"/screening/batches/{job.uuid}/result.pdf", follow=True)

    assert response.redirect_chain == [(f"/screening/batches/{job.uuid}/", 302)]
    assert "The file and the result were deleted on" in response.content.decode()


def test_a_job_deleted_while_its_page_loads_says_its_result_is_unreadable_not_that_nothing_hit(admin, job, settings):
    (Path(settings.MEDIA_ROOT) / "screening-batch" / str(job.uuid) / "result.json").unlink()  # a half-done deletion

    page = admin.get(f"/screening/batches/{job.uuid}/").content.decode()

    assert "The result could not be read." in page
    assert "rows screened" not in page and "none has a possible hit" not in page
    assert f'href="/screening/batches/{job.uuid}/delete/"' in page  # deleting again is still offered


def test_each_job_says_until_when_it_is_kept(admin, job):
    until = timezone.localtime(job.create_timestamp + timedelta(days=30)).strftime("%d.%m.%Y")

    page = admin.get(PAGE).content.decode()
    assert "are deleted 30 days after the upload" in page
    assert f"kept until {until}" in page

    detail = admin.get(f"/screening/batches/{job.uuid}/").content.decode()
    assert f"Kept until {until}: then the file and its result are deleted." in detail


def test_a_viewer_cannot_delete(org, job):
    viewer = org.member("vilde", Member.Role.VIEWER)

    assert 'data-testid="batch-delete"' not in viewer.get(f"/screening/batches/{job.uuid}/").content.decode()
    assert viewer.get(f"/screening/batches/{job.uuid}/delete/").status_code == 403
    assert viewer.post(f"/screening/batches/{job.uuid}/delete/").status_code == 403
    assert ScreeningBatch.objects.get().status == "complete"


def test_another_organisations_job_cannot_be_deleted(admin, config, other_org):
    theirs = config_with(other_org.api)
    other = upload(other_org.api, theirs["uuid"], csv_bytes(ROWS), name="their-customers.csv").json()

    assert admin.post(f"/screening/batches/{other['uuid']}/delete/").status_code == 404
    assert ScreeningBatch.objects.get(uuid=other["uuid"]).status != "deleted"


def test_a_job_past_its_retention_period_is_listed_as_deleted_by_vakt(admin, job):
    ScreeningBatch.objects.filter(pk=job.pk).update(create_timestamp=timezone.now() - timedelta(days=31))

    screening_batches_retention.apply()

    row = admin.get(PAGE).content.decode().split('data-testid="batch-row"')[1].split("</tr>")[0]
    assert "Deleted" in row and "after the retention period" in row
    detail = admin.get(f"/screening/batches/{job.uuid}/").content.decode()
    assert "at the end of the retention period" in detail
    audit = admin.get("/members/audit/", {"kind": "batches"}).content.decode()
    assert "Vakt: the retention period ended" in audit


def test_without_a_retention_period_the_page_says_files_are_kept_until_deleted(admin, job, settings):
    settings.VAKT_BATCH_RETENTION_DAYS = 0

    page = admin.get(PAGE).content.decode()

    assert "kept until someone deletes them here" in page
    assert 'data-testid="batch-kept-until"' not in page
