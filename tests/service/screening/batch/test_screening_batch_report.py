"""The record of a check as a PDF (`response_file_type=pdf`): what an officer files with a new
customer: who checked, when, against which list versions, each hit and why, and the rows without."""

from __future__ import annotations

import base64
import io

from pypdf import PdfReader

from service.screening import batch_report
from service.screening.batch_models import ScreeningBatch
from tests.service.screening.batch.conftest import batches_url, csv_bytes, upload
from tests.service.screening.cases.steps import config_with, member_of
from tests.service.screening.helpers import AML

ROWS = [
    {"type": "person", "id": "K-1", "name": "Dragunov Ivan Sergeevich", "birth_date": "1966-03-14", "nationality": "RU"},
    {"type": "person", "id": "K-2", "name": "Kari Nordmann", "birth_date": "1980-05-17", "nationality": "NO"},
    {"type": "company", "id": "K-3", "name": "Koryo Fjord Trading AS", "country": ""},
]


def _pdf(api, config_uuid, batch_uuid):
    return api.client.get(batches_url(config_uuid, f"/{batch_uuid}/result?response_file_type=pdf"), **api.headers(AML))


def _text(response) -> str:
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(b"".join(response.streaming_content)))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


def test_it_records_a_file_with_its_lists_hits_and_clean_rows(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    anna = member_of(api, "anna@nordbank.no")
    with django_capture_on_commit_callbacks(execute=True):
        job = api.client.post(batches_url(config["uuid"], f"?app_membership_uuid={anna}"),
                              {"file": _file(csv_bytes(ROWS))}, **api.headers(AML)).json()

    response = _pdf(api, config["uuid"], job["uuid"])

    assert response["Content-Disposition"] == 'attachment; filename="week 48-result.pdf"'
    text = _text(response)
    assert "Screening record" in text and "week 48.csv" in text and "3 rows screened, 2 with possible hits" in text
    assert "anna@nordbank.no" in text
    screened_against = text.split("Screened against")[1]
    assert "Politically exposed persons" in screened_against and "UN Security Council" in screened_against
    assert "Line 2: Dragunov Ivan Sergeevich (Person, born 14.03.1966, RU, ref. K-1)" in text
    assert "KPi.901" in text and "KPe.901" in text  # the listed person and the listed company
    assert "Rows without a possible hit" in text and "Kari Nordmann (Person, born 17.05.1980, NO, ref. K-2)" in text


def test_a_name_checked_is_said_of_the_name(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes([ROWS[1]]), name="Kari Nordmann (name check)").json()

    text = _text(_pdf(api, config["uuid"], job["uuid"]))

    assert "Kari Nordmann (name check)" in text and "No possible hit" in text
    assert "Rows without" not in text and "Line 2" not in text


def test_a_file_uploaded_without_a_member_says_through_which_api_user(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()

    text = _text(_pdf(api, config["uuid"], job["uuid"]))

    api_user = ScreeningBatch.objects.get(uuid=job["uuid"]).api_user
    assert f"By The API user {api_user.name} (no member named)" in text


def test_it_says_why_in_the_words_of_the_case_report(api, lists, django_capture_on_commit_callbacks):
    # The same person screened by a batch and raised as a case: both PDFs say why the same way, name
    # parts aligned, birth date and nationality agreeing, never the engine's developer sentence.
    from tests.service.screening.batch.conftest import result_rows
    from tests.service.screening.cases.steps import cases, customer_person_screened
    from tests.service.screening.helpers import config_url
    from vakt_format.match_explanation import reason_words

    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes([ROWS[0], ROWS[2]])).json()
    done = api.get(batches_url(config["uuid"], f"/{job['uuid']}"), roles=AML).json()
    [hit] = [h for h in result_rows(api, done)[0]["hits"] if h["source_id"] == "KPi.901"]
    near = [p for p in hit["explanation_detail"]["aligned"] if p["reason"] != "exact"]

    text = _text(_pdf(api, config["uuid"], job["uuid"]))

    person = text.split("Line 2:")[1].split("Line 3:")[0]
    assert "Aligned name parts: dragunov = dragunov" in person and "Birth date: agrees +" in person
    assert "Nationality: " in person
    assert all(f"{p['query']} ~ {p['listed']} ({reason_words(p['reason'])}" in person for p in near)
    assert hit["explanation"] not in text and "final" not in text  # the engine's sentence is for developers
    company = text.split("Line 3:")[1].split("Each name was searched")[0]
    assert "Name similarity:" in company and "Birth date" not in company  # a company has none to agree

    with django_capture_on_commit_callbacks(execute=True):  # the screening run starts on commit
        customer_person_screened(api, config["uuid"], "Dragunov Ivan Sergeevich", birth_date="1966-03-14")
    [case] = cases(api, config["uuid"])["elements"]
    report = api.get(config_url(config["uuid"], "/screening-case-report"),
                     {"screening_case_uuid": case["screening_case"]["uuid"]}, roles=AML).json()[0]
    case_text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(base64.b64decode(report["pdf_base64"]))).pages).split())
    agrees = person.split("Birth date: ")[1].split(" ")[:2]  # "agrees +0,10"
    assert f"Birth date {' '.join(agrees)}" in case_text
    assert all(reason_words(p["reason"]) in case_text for p in near)


def test_a_long_file_lists_its_rows_up_to_a_limit(api, lists, monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setattr(batch_report, "CLEAN_ROWS_LISTED", 2)
    monkeypatch.setattr(batch_report, "HIT_ROWS_LISTED", 1)
    config = config_with(api, "un_security_council")
    rows = [{"name": f"Ola Nordmann {n}"} for n in range(5)] + [ROWS[0], ROWS[2]]
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(rows)).json()

    text = _text(_pdf(api, config["uuid"], job["uuid"]))

    assert "Ola Nordmann 1" in text and "Ola Nordmann 2" not in text
    assert "And 3 more: the CSV result lists every row." in text
    assert "Dragunov Ivan Sergeevich" in text and "Koryo Fjord Trading AS" not in text
    assert "And 1 more row with possible hits: the CSV and JSON results list them all." in text


def test_an_unknown_file_type_names_the_field(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()

    refused = api.get(batches_url(config["uuid"], f"/{job['uuid']}/result?response_file_type=xlsx"), roles=AML)

    assert refused.status_code == 400
    assert refused.json()["errors"][0]["loc"] == ["query", "response_file_type"]


def test_a_deleted_job_has_no_record_to_download(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()
    api.client.delete(batches_url(config["uuid"], f"/{job['uuid']}"), **api.headers(AML))

    assert _pdf(api, config["uuid"], job["uuid"]).status_code == 410


def _file(content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("week 48.csv", content, content_type="text/csv")
