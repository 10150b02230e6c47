"""The batch screening page: upload a CSV file, follow its progress, download the result; a bad
file's problems listed by line; viewers read; another organisation's job is 404."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from pypdf import PdfReader
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from portal.models import Member
from service.audit.models import AuditEvent
from service.screening.models import ScreeningBatch, ScreeningListVersion
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401
from tests.service.screening.batch.conftest import csv_bytes, upload
from service.screening.batch_tasks import screening_batch_task
from tests.service.screening.cases.conftest import broker_away  # noqa: F401  (the fixture)
from tests.service.screening.cases.steps import config_with

PAGE = "/screening/batches/"
UPLOAD = "/screening/batches/upload/"
ROWS = [
    # The UN-listed person as a bank would have written him: other order, one letter off.
    {"type": "person", "id": "c-1", "name": "Dragunov Ivan Sergeevich", "birth_date": "1966-03-14", "nationality": "RU"},
    {"type": "person", "id": "c-2", "name": "Kari Nordmann", "birth_date": "1980-05-17", "nationality": "NO"},
    {"type": "company", "id": "c-3", "name": "Koryo Fjord Trading AS", "country": ""},
]


@pytest.fixture(autouse=True)
def _storage(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture
def config(org, lists):
    return config_with(org.api, "un_security_council")


def _sent(client, content: bytes, name: str = "onboarding week 48.csv"):
    return client.post(UPLOAD, {"file": SimpleUploadedFile(name, content, content_type="text/csv")})


def test_it_screens_an_uploaded_file_and_offers_the_result(admin, config):
    response = _sent(admin, csv_bytes(ROWS))  # committed: the worker takes the job at once
    assert response.status_code == 302

    page = admin.get(PAGE).content.decode()
    assert "onboarding week 48.csv (3 rows) is being screened" in page
    assert "onboarding week 48.csv" in page and "Done" in page and "hx-trigger" not in page
    [batch] = ScreeningBatch.objects.all()
    assert 'data-testid="batch-hits"' in page and ">2</span>" in page  # two rows with hits: the person and the company
    assert "by ingrid" in page  # who uploaded it

    result = admin.get(f"/screening/batches/{batch.uuid}/result.csv")
    assert result.status_code == 200 and result["Content-Type"].startswith("text/csv")
    assert result["Content-Disposition"] == 'attachment; filename="onboarding-week-48-result.csv"'
    assert result.content.startswith("\ufeff".encode())  # Excel reads æ, ø and å
    rows = {}
    for row in csv.DictReader(io.StringIO(result.content.decode("utf-8-sig"))):
        rows.setdefault(row["Your reference"], row)  # a line per hit, the best first
    assert rows["c-1"]["Source id"] == "KPi.901" and rows["c-3"]["Source id"] == "KPe.901"
    assert rows["c-1"]["List"] == "UN Security Council Consolidated List" and rows["c-1"]["Born"] == "14.03.1966"
    assert rows["c-1"]["Score"] == re.search(r'score <span class="font-monospace">(0,\d\d|1,00)</span>',
                                             admin.get(f"/screening/batches/{batch.uuid}/").content.decode())[1]
    assert rows["c-2"]["Possible hit"] == "No"

    detail = admin.get(f"/screening/batches/{batch.uuid}/").content.decode()
    assert "by ingrid" in detail
    assert "3 rows screened:" in detail and "2 with possible hits</strong>, 1 without" in detail
    assert detail.count('data-testid="batch-hit-row"') == 2
    assert "Dragunov Ivan Sergeevich" in detail and "born 14.03.1966" in detail and "KPi.901" in detail
    assert "UN Security Council" in detail and "Koryo Fjord Trading AS" in detail
    assert "1 row without a possible hit" in detail and "Kari Nordmann" in detail

    as_json = admin.get(f"/screening/batches/{batch.uuid}/result.json")
    assert as_json["Content-Type"] == "application/json"
    assert json.loads(as_json.content)[0]["hits"][0]["explanation"]
    assert admin.get(f"/screening/batches/{batch.uuid}/result.xlsx").status_code == 404

    # Who screened which file is in the audit log, linked to the job's page.
    [event] = AuditEvent.objects.filter(action_key="screening_batch.create")
    assert (event.actor_email, event.object_uuid, event.object_label) == ("ingrid@example.com", batch.uuid, "onboarding week 48.csv")
    audit = admin.get("/members/audit/", {"kind": "batches"}).content.decode()
    assert "Screened a file or a name" in audit and f'href="/screening/batches/{batch.uuid}/"' in audit


def test_a_waiting_job_polls_its_row_until_it_is_done(admin, config, broker_away):  # noqa: F811
    with broker_away():  # the job waits, as it does for a worker that is busy or away
        _sent(admin, csv_bytes(ROWS))
    [batch] = ScreeningBatch.objects.all()

    page = admin.get(PAGE).content.decode()
    assert 'hx-trigger="every 2s"' in page and "Waiting" in page and "0 of 3" in page
    assert 'data-testid="batch-result-csv"' not in page
    early = admin.get(f"/screening/batches/{batch.uuid}/result.csv", follow=True).content.decode()
    assert "its result can be downloaded once it is complete" in early

    assert "0 of 3" in admin.get(f"/screening/batches/{batch.uuid}/").content.decode()

    screening_batch_task.delay(str(batch.uuid))  # the worker takes it
    row = admin.get(f"/screening/batches/{batch.uuid}/row/").content.decode()
    assert "hx-trigger" not in row and "Done" in row and 'data-testid="batch-result-csv"' in row
    assert "by ingrid" in row  # the polled row keeps who uploaded it


def test_a_bad_file_lists_every_problem_by_line_and_nothing_is_screened(admin, config):
    rows = [*ROWS, {"type": "person", "name": "Ola Hansen", "birth_date": "2999"}, {"type": "ship", "name": "Havørn"}]
    response = _sent(admin, csv_bytes(rows))

    assert response.status_code == 200  # the page again, as for any form with errors
    page = response.content.decode()
    assert "Nothing was screened. Correct the file and upload it again" in page
    assert "Line 5, birth_date:" in page and "future" in page
    assert "Line 6, type:" in page
    assert "The file has 2 problem(s)" not in page  # said once, above the list
    assert ScreeningBatch.objects.count() == 0


def test_a_file_over_the_size_limit_is_refused_saying_so(admin, config, settings):
    settings.VAKT_MAX_BODY_BYTES = 2048
    assert _sent(admin, csv_bytes(ROWS * 40)).status_code == 302
    page = admin.get(PAGE).content.decode()
    assert "onboarding week 48.csv was not screened: it is 5,3\xa0kB, files up to 2,0\xa0kB are." in page
    assert ScreeningBatch.objects.count() == 0


def test_it_says_when_no_file_was_chosen(admin, config):
    page = admin.post(UPLOAD, {}, follow=True).content.decode()
    assert "Choose a CSV file to screen." in page
    assert ScreeningBatch.objects.count() == 0


def test_a_viewer_reads_the_jobs_but_cannot_upload(org, config):
    assert upload(org.api, config["uuid"], csv_bytes(ROWS), name="kunder.csv").status_code == 202
    viewer = org.member("vilde", Member.Role.VIEWER)

    page = viewer.get(PAGE).content.decode()
    assert "kunder.csv" in page and 'data-testid="batch-result-csv"' in page
    assert "by " not in page.split('data-testid="batch-uploaded"')[1].split("</td>")[0]  # uploaded through the API naming nobody
    assert 'type="file"' not in page and "Officers and admins upload files" in page
    assert _sent(viewer, csv_bytes(ROWS)).status_code == 403
    assert ScreeningBatch.objects.count() == 1


def test_another_organisations_job_is_not_found(admin, config, other_org):
    theirs = config_with(other_org.api)
    job = upload(other_org.api, theirs["uuid"], csv_bytes(ROWS), name="their-customers.csv").json()

    assert "their-customers.csv" not in admin.get(PAGE).content.decode()
    assert admin.get(f"/screening/batches/{job['uuid']}/").status_code == 404
    assert admin.get(f"/screening/batches/{job['uuid']}/row/").status_code == 404
    assert admin.get(f"/screening/batches/{job['uuid']}/result.csv").status_code == 404


def test_without_screening_set_up_it_says_so_and_offers_no_upload(admin, org):
    page = admin.get(PAGE).content.decode()
    assert "Screening is not set up for your organisation yet" in page
    assert 'type="file"' not in page


def test_it_shows_each_hit_as_a_case_page_does(admin, config):
    """The listed name's words marked as alike or not, and why in the page's number format,
    not the engine's English summary."""
    _sent(admin, csv_bytes(ROWS[:1]))
    [batch] = ScreeningBatch.objects.all()

    detail = admin.get(f"/screening/batches/{batch.uuid}/").content.decode()
    [hit] = re.findall(r'data-testid="batch-hit-name">(.*?)</strong>', detail)
    why = "Same as “dragunov” in the other name"  # a tooltip, and said by a screen reader
    assert f'<mark class="np-match" title="{why}">DRAGUNOV<span class="visually-hidden"> ({why})</span></mark>' in hit, hit
    assert '<mark class="np-near"' in hit  # Sergeevich / Sergeyevich: a near spelling
    [why] = re.findall(r'data-testid="batch-hit-why">(.*?)</div>', detail, flags=re.S)
    why = " ".join(re.sub(r"<[^>]+>", "", why).split())
    assert re.fullmatch(r"name similarity 0,\d\d · birth date agrees \+0,\d\d · nationality agrees \+0,\d\d"
                        r" · same birth date · nationality RU, as listed", why), why  # in the case page's words
    assert "final " not in detail


def test_the_job_page_names_the_list_versions_it_was_screened_against(admin, config):
    _sent(admin, csv_bytes(ROWS))
    [batch] = ScreeningBatch.objects.all()
    un = ScreeningListVersion.objects.get(category__key="un_security_council")

    detail = admin.get(f"/screening/batches/{batch.uuid}/").content.decode()

    against = detail.split('data-testid="batch-screened-against"')[1].split("</p>")[0]
    imported = timezone.localtime(un.imported_at).strftime("%d.%m.%Y")
    assert f"{un.category.name}</span> <span class=\"text-secondary text-nowrap\">version 1, imported {imported}" in against
    assert against.index("Politically") < against.index(un.category.name)  # the PEP list first
    assert "OFAC" not in against  # not selected, not imported here


def test_it_offers_the_record_of_the_check_as_a_pdf(admin, config):
    _sent(admin, csv_bytes(ROWS))
    [batch] = ScreeningBatch.objects.all()
    assert f'href="/screening/batches/{batch.uuid}/result.pdf"' in admin.get(f"/screening/batches/{batch.uuid}/").content.decode()

    pdf = admin.get(f"/screening/batches/{batch.uuid}/result.pdf")

    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf["Content-Disposition"] == 'attachment; filename="onboarding-week-48-result.pdf"'
    text = " ".join(PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text().split())
    assert "onboarding week 48.csv" in text and "ingrid@example.com" in text and "KPi.901" in text


def test_each_person_row_offers_to_screen_them_continuously_with_the_files_id_as_their_reference(admin, config):
    """*Screen continuously…* fills in the approvals page's customer-person form with the row's id (the
    uploader's own number for the customer) as the customer reference; a row without one leaves it empty."""
    rows = [*ROWS[:2], {"type": "person", "id": "", "name": "Ola Hansen", "birth_date": "1970-03-02", "nationality": "NO"}, ROWS[2]]
    assert _sent(admin, csv_bytes(rows)).status_code == 302
    [batch] = ScreeningBatch.objects.all()

    detail = admin.get(f"/screening/batches/{batch.uuid}/").content.decode()
    links = [html.unescape(link) for link in re.findall(r'<a (?:class="small" )?href="([^"]+)" data-testid="batch-monitor">', detail)]

    references = [parse_qs(urlsplit(link).query).get("customer_reference") for link in links]
    assert references == [["c-1"], ["c-2"], None]  # the three persons (the hit first); never the company
    form = admin.get(next(link for link in links if "c-1" in link)).content.decode().split('data-testid="person-form"')[1]
    assert re.search(r'name="customer_reference"[^>]*value="c-1"', form.split("</form>")[0])
