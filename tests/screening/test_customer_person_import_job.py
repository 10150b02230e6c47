"""A file of customer persons larger than the synchronous import takes (`VAKT_MAX_BODY_BYTES`, made small
here) is checked and imported as the service's import job: the result panel shows the job, polled while it
runs, then its counts in the synchronous import's words, or its problems as that import lists them. A file
over the job's own limit is refused before it is sent, naming that limit."""

from __future__ import annotations

import html
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.utils import timezone

from portal.models import Member
from service.screening.models import CustomerPerson, CustomerPersonImportJob, EntityMonitoring
from tests.screening.helpers import never_sent
from tests.screening.setup_helpers import admin, org, other_org, statuses  # noqa: F401
from tests.service.screening.helpers import config_make

IMPORT = "/screening/approvals/customer-person-import/"
SYNC_LIMIT = 256  # bytes: every file below is larger, so it goes as a job
HEADER = "id;name;birth_date;gender;nationality;national_id;national_id_country;street_address;postal_code;postal_place;address_country\n"
GOOD = HEADER + (
    "K-1;Ingrid Haugland;1979-04-22;female;NO;22047948464;NO;Kongens gate 8;7011;Trondheim;NO\n"
    "K-2;Erik Johansson;05.11.1983;male;SE;831105-2313;SE;;;;\n"
    "K-3;Ahmad Karimi;1990-02-14;male;NO;;;;;;\n"
)
BAD = GOOD + "K-4;Ola Hansen;2999-01-01;male;NO;;;;;;\nK-5;Per Olsen;1970-01-01;sometimes;NO;;;;;;\n"


@pytest.fixture(autouse=True)
def _small_sync_limit(tmp_path):
    assert len(GOOD.encode()) > SYNC_LIMIT
    with override_settings(VAKT_MAX_BODY_BYTES=SYNC_LIMIT, MEDIA_ROOT=str(tmp_path / "media")):  # where a job's file waits
        yield


def _sent(client, content: str, *, check: bool = False, htmx: bool = False, **fields):
    data = {"file": SimpleUploadedFile("kunder.csv", content.encode("utf-8"), content_type="text/csv"), **fields}
    if check:
        data["dry_run"] = "1"
    return client.post(IMPORT, data, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))


def _done(client, response):
    """The panel once the job is done: the answer itself, or the job's panel polled (Celery runs eagerly here,
    so one poll finds it done)."""
    polled = re.search(r'hx-get="(/screening/approvals/customer-person-import/[0-9a-f-]+/)"', response.content.decode())
    if polled is None:
        return response
    answer = client.get(polled.group(1), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, "the job is still running"
    return answer


def _text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def _job_make(config: dict, **fields) -> CustomerPersonImportJob:
    return CustomerPersonImportJob.objects.create(screening_config_id=config["uuid"], file_name="kunder.csv", **fields)


def test_it_checks_a_file_over_the_sync_limit_as_a_job_and_writes_nothing(org, admin, monkeypatch):
    config_make(org.api)
    never_sent(monkeypatch, "import_customer_persons")

    response = _done(admin, _sent(admin, GOOD, check=True, htmx=True, comment="Private customers"))

    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    text = _text(response)
    assert "kunder.csv checked, 3 rows." in text
    assert "3 new customer persons would be added." in text
    assert "The 3 new monitorings would wait under Pending for a decision. Nothing was saved: import the file to do this." in text
    assert 'data-testid="person-import-row"' not in response.content.decode()  # a job keeps no rows
    assert "person-import-duplicates" not in response.content.decode()  # a check adds no one
    assert 'hx-trigger="every 2s"' not in response.content.decode()  # done: the poll stops
    job = CustomerPersonImportJob.objects.get()
    assert job.dry_run and job.monitoring_comment == "Private customers"
    assert CustomerPerson.objects.count() == 0 and EntityMonitoring.objects.count() == 0


def test_it_imports_a_file_over_the_sync_limit_as_a_job(org, admin, monkeypatch):
    config = config_make(org.api)
    never_sent(monkeypatch, "import_customer_persons")

    posted = _sent(admin, GOOD)
    job = CustomerPersonImportJob.objects.get()
    # A page to reload while the job runs, not the POST to send again.
    assert posted.status_code == 302
    assert posted["Location"] == f"{IMPORT}{job.uuid}/#person-import-result"
    response = admin.get(posted["Location"])

    text = _text(response)
    assert "kunder.csv imported, 3 rows." in text
    assert "3 new customer persons added." in text
    assert "The 3 new monitorings wait under Pending for a decision." in text
    assert "Nothing was saved" not in text
    # The link reads the same from the job's own page as from the tab.
    assert 'href="/screening/approvals/?view=persons&amp;duplicates=1">find customers possibly entered twice' in response.content.decode()
    assert statuses(org, config) == {"Ingrid Haugland": "pending", "Erik Johansson": "pending", "Ahmad Karimi": "pending"}
    assert not job.dry_run


def test_it_imports_approved_when_the_box_is_ticked_and_counts_what_existed(org, admin):
    config = config_make(org.api)
    _sent(admin, GOOD)  # everyone waiting under Pending

    response = _done(admin, _sent(admin, GOOD, htmx=True, approve="on"))

    assert "0 new customer persons added, 3 already under monitoring." in _text(response)
    assert "No monitoring was made. 3 monitorings that waited for a decision are approved as well." in _text(response)
    assert set(statuses(org, config).values()) == {"active"}


def test_it_lists_a_bad_rows_problem_by_line_and_column(org, admin):
    config_make(org.api)

    for check in (True, False):
        response = _done(admin, _sent(admin, BAD, check=check, htmx=True))
        problems = response.content.decode().split('data-testid="person-import-problems"')[1].split("</div>")[0]
        assert "Nothing was imported. Correct the file and check it again:" in problems
        assert "Line 5, birth_date:" in problems and "Line 6, gender:" in problems
        assert 'data-testid="person-import-summary"' not in response.content.decode()
    assert CustomerPersonImportJob.objects.filter(status="failed").count() == 2
    assert CustomerPerson.objects.count() == 0 and EntityMonitoring.objects.count() == 0


def test_it_says_national_ids_need_their_role(org, admin):
    config_make(org.api)
    organisation = org.admin.organisation
    organisation.api_role_keys = "aml"
    organisation.save()

    response = _done(admin, _sent(admin, GOOD, htmx=True))

    assert "Nothing was imported. The file has national ids, and recording them needs the API role " \
           "person_national_identification, which your role does not send." in _text(response)
    assert CustomerPerson.objects.count() == 0


def test_it_polls_a_running_job_until_it_is_done(org, admin):
    config = config_make(org.api)
    job = _job_make(config, status="pending")
    url = f"{IMPORT}{job.uuid}/"

    page = admin.get(url).content.decode()  # the tab with the panel, as the import without JavaScript lands
    assert f'hx-get="{url}" hx-trigger="every 2s"' in page
    assert "Importing kunder.csv … (this takes about a minute per 50 000 rows)" in _text(admin.get(url))
    assert admin.get(url, HTTP_HX_REQUEST="true").status_code == 204  # the panel stays as it is

    CustomerPersonImportJob.objects.filter(pk=job.pk).update(
        status="complete", rows_count=60_000, created_count=59_000, monitored_count=59_500, already_monitored_count=500,
        national_ids_added_count=12, complete_timestamp=timezone.now())
    done = admin.get(url, HTTP_HX_REQUEST="true")
    assert done.status_code == 200 and 'hx-trigger="every 2s"' not in done.content.decode()
    assert done["HX-Refresh"] == "true"  # the job's page read again: the tab lists the persons imported
    assert "kunder.csv imported, 60 000 rows." in _text(done)
    assert "59 000 new customer persons added, 500 existing customer persons put under monitoring, 500 already under " \
           "monitoring, 12 national ids recorded for existing customer persons." in _text(done)

    too_many = "the file has more than 200,000 rows; split it into files of at most 200,000"
    CustomerPersonImportJob.objects.filter(pk=job.pk).update(
        status="failed", failure_code="too_many_rows", failure_detail=f"Invalid value for file: {too_many}",
        failure_errors=[{"loc": ["body", "file"], "msg": too_many}])
    failed = admin.get(url, HTTP_HX_REQUEST="true")
    assert "Nothing was imported. The file has more than 200,000 rows; split it into files of at most 200,000." in _text(failed)
    assert 'data-testid="person-import-problems"' not in failed.content.decode()


def test_a_check_running_says_it_checks_and_is_swapped_alone_when_done(org, admin):
    config = config_make(org.api)
    job = _job_make(config, status="running", dry_run=True)

    assert "Checking kunder.csv …" in _text(admin.get(f"{IMPORT}{job.uuid}/"))
    CustomerPersonImportJob.objects.filter(pk=job.pk).update(status="complete", rows_count=3, created_count=3, monitored_count=3)
    done = admin.get(f"{IMPORT}{job.uuid}/", HTTP_HX_REQUEST="true")
    assert "kunder.csv checked, 3 rows." in _text(done) and not done.has_header("HX-Refresh")  # the file stays chosen


def test_another_organisations_job_is_not_found(org, admin, other_org):
    theirs = _job_make(config_make(other_org.api), status="complete", rows_count=3, created_count=3, monitored_count=3)
    config_make(org.api)

    assert admin.get(f"{IMPORT}{theirs.uuid}/").status_code == 404
    assert admin.get(f"{IMPORT}{theirs.uuid}/", HTTP_HX_REQUEST="true").status_code == 404
    assert admin.get(f"{IMPORT}00000000-0000-4000-8000-000000000000/").status_code == 404


def test_an_officer_may_not_read_a_job(org):
    job = _job_make(config_make(org.api), status="pending")
    officer = org.member("oline", Member.Role.OFFICER)

    assert officer.get(f"{IMPORT}{job.uuid}/").status_code == 403
    assert officer.post(f"{IMPORT}{job.uuid}/").status_code == 405


def test_a_file_over_the_job_limit_is_refused_naming_it(org, admin, monkeypatch):
    config_make(org.api)
    never_sent(monkeypatch, "import_customer_persons")
    never_sent(monkeypatch, "import_job_start")

    with override_settings(VAKT_IMPORT_JOB_MAX_BYTES=2048):
        response = _sent(admin, GOOD * 20, check=True, htmx=True)

    assert "Nothing was imported:" in _text(response)
    assert "kunder.csv was not imported: it is 6,1\xa0kB, files up to 2,0\xa0kB are. Split it into smaller files." \
           in response.content.decode()


def test_a_file_within_the_sync_limit_is_imported_at_once(org, admin, monkeypatch):
    config_make(org.api)
    never_sent(monkeypatch, "import_job_start")

    with override_settings(VAKT_MAX_BODY_BYTES=1_000_000):
        response = _sent(admin, GOOD, check=True, htmx=True)

    assert "kunder.csv checked, 3 rows: nothing is imported yet." in _text(response)
    assert response.content.decode().count('data-testid="person-import-row"') == 3
    assert not CustomerPersonImportJob.objects.exists()


def test_a_file_within_the_sync_limit_with_more_rows_than_it_takes_goes_as_a_job(org, admin):
    config_make(org.api)

    with override_settings(VAKT_MAX_BODY_BYTES=1_000_000, VAKT_BATCH_MAX_ROWS=2):
        response = _done(admin, _sent(admin, GOOD, check=True, htmx=True))

    assert "kunder.csv checked, 3 rows." in _text(response)
    assert "Nothing was saved: import the file to do this." in _text(response)
    assert CustomerPersonImportJob.objects.get().dry_run


def test_the_columns_say_how_large_a_file_may_be(org, admin):
    config_make(org.api)

    with override_settings(VAKT_MAX_BODY_BYTES=1_000_000, VAKT_IMPORT_JOB_MAX_BYTES=20_000_000):
        text = _text(admin.get("/screening/approvals/?view=persons"))

    assert "Up to 10 000 rows and 976,6 kB are imported at once; a larger file, up to 200 000 rows and 19,1 MB, is " \
           "imported in the background (about a minute per 50 000 rows)." in text
