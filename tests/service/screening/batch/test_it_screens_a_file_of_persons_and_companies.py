"""Upload a file of persons and companies, watch the job reach complete, download the result."""

from __future__ import annotations

import json
import re

from service.screening.models import ScreeningBatch
from tests.service.screening.batch.conftest import batches_url, csv_bytes, result_csv, result_rows, upload
from tests.service.screening.cases.conftest import PEP_PERSON
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import AML

ROWS = [
    # The UN-listed person, written as a bank would have him: other order, one letter off.
    {"type": "person", "id": "c-1", "name": "Dragunov Ivan Sergeevich", "birth_date": "1966-03-14", "nationality": "RU"},
    {"type": "person", "id": "c-2", "name": "Kari Nordmann", "birth_date": "1980-05-17", "nationality": "NO", "gender": "f"},
    {"type": "company", "id": "c-3", "name": "Koryo Fjord Trading AS", "country": ""},
    {"type": "company", "id": "c-4", "name": "Fjordkraft Trading AS", "country": "NO"},
    {"type": "", "id": "c-5", "name": PEP_PERSON, "birth_date": "1961-09", "nationality": "Norway"},
]


def test_it_screens_persons_and_companies_and_offers_the_result(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")

    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = upload(api, config["uuid"], csv_bytes(ROWS))
    assert response.status_code == 202, response.json()
    job = response.json()
    assert job["screening_batch_status_key"] == "pending"
    assert (job["rows_total"], job["rows_done"], job["result_url"]) == (5, 0, None)
    waiting = api.get(batches_url(config["uuid"], f"/{job['uuid']}"), roles=AML).json()
    assert waiting["screening_batch_status_key"] == "pending"
    early = api.get(batches_url(config["uuid"], f"/{job['uuid']}/result"), roles=AML)
    assert early.status_code == 409 and early.json()["code"] == "not_ready"

    for callback in queued:  # the worker picks the job up
        callback()

    done = api.get(batches_url(config["uuid"], f"/{job['uuid']}"), roles=AML).json()
    assert done["screening_batch_status_key"] == "complete"
    assert done["rows_done"] == done["rows_total"] == 5
    assert done["rows_with_hits_count"] == 3 and done["hit_count"] >= 3
    assert done["complete_timestamp"] and done["result_url"].endswith(f"/screening-batch/{job['uuid']}/result")

    content, lines = result_csv(api, done)
    assert content.startswith("\ufeff".encode()) and b"\r\n" in content  # Excel reads it as UTF-8, as the dashboard's CSVs
    assert list(lines[0]) == ["Line", "Your reference", "Kind", "Name", "Born", "Nationality", "Country", "Possible hit",
                              "Hit", "List", "List type", "Source id", "Listed name", "Score", "Why"]
    assert list(dict.fromkeys(line["Your reference"] for line in lines)) == ["c-1", "c-2", "c-3", "c-4", "c-5"]  # file order
    by_ref = {}
    for line in lines:
        by_ref.setdefault(line["Your reference"], []).append(line)
    person = by_ref["c-1"][0]  # a line per hit, the best first
    assert (person["Kind"], person["Born"], person["Nationality"], person["Possible hit"]) == ("Person", "14.03.1966", "RU", "Yes")
    assert person["Hit"] == f"1 of {len(by_ref['c-1'])}"
    assert (person["List"], person["List type"], person["Source id"]) == ("UN Security Council Consolidated List", "Sanction", "KPi.901")
    assert person["Listed name"].lower() == "ivan sergeyevich dragunov"
    assert re.fullmatch(r"0,\d\d|1,00", person["Score"]) and float(person["Score"].replace(",", ".")) >= 0.8
    assert "Aligned name parts: dragunov = dragunov" in person["Why"] and "Birth date: agrees +" in person["Why"]
    assert "'Dragunov" not in person["Why"] and "final" not in person["Why"]  # not the engine's sentence
    company = by_ref["c-3"][0]
    assert company["Kind"] == "Company" and company["Source id"] == "KPe.901"  # the legal form decides nothing
    assert "Birth date" not in company["Why"]  # a company has none to agree
    assert by_ref["c-5"][0]["List type"] == "PEP" and by_ref["c-5"][0]["Born"] == "09.1961"
    for clean in ("c-2", "c-4"):
        [line] = by_ref[clean]
        assert (line["Possible hit"], line["Hit"], line["Source id"], line["Score"]) == ("No", "", "", "")
    assert by_ref["c-2"][0]["Nationality"] == "NO" and by_ref["c-5"][0]["Nationality"] == "NO"


def test_it_offers_the_result_as_json_with_the_full_explanation(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(ROWS[:2])).json()
    done = api.get(batches_url(config["uuid"], f"/{job['uuid']}"), roles=AML).json()

    response = api.client.get(done["result_url"], {"response_file_type": "json"}, **api.headers(AML))

    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert 'filename="customers-result.json"' in response["Content-Disposition"]
    rows = json.loads(b"".join(response.streaming_content))
    assert [r["id"] for r in rows] == ["c-1", "c-2"]
    [hit] = [h for h in rows[0]["hits"] if h["source_id"] == "KPi.901"]
    detail = hit["explanation_detail"]
    assert detail["birth_date_adjustment"] > 0 and detail["aligned"]
    assert rows[1]["hits"] == []
    bad = api.get(batches_url(config["uuid"], f"/{job['uuid']}/result"), {"response_file_type": "xlsx"}, roles=AML)
    assert bad.status_code == 400 and bad.json()["errors"][0]["loc"] == ["query", "response_file_type"]


def test_it_gives_sanction_hits_only_of_the_selected_lists(api, lists, django_capture_on_commit_callbacks):
    config = config_with(api)  # no sanction list selected: PEP hits only (rule 5)
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes([ROWS[0], ROWS[4]])).json()
    done = api.get(batches_url(config["uuid"], f"/{job['uuid']}"), roles=AML).json()

    rows = {r["id"]: r for r in result_rows(api, done)}

    assert rows["c-1"]["hits"] == []
    assert {hit["list_type"] for hit in rows["c-5"]["hits"]} == {"pep"}


def test_it_keeps_the_files_in_the_storage_and_no_chunks_once_complete(api, lists, django_capture_on_commit_callbacks, settings):
    from pathlib import Path

    config = config_with(api, "un_security_council")
    with django_capture_on_commit_callbacks(execute=True):
        job = upload(api, config["uuid"], csv_bytes(ROWS)).json()

    folder = Path(settings.MEDIA_ROOT) / "screening-batch" / job["uuid"]
    assert sorted(p.name for p in folder.iterdir()) == ["result.json", "source.csv"]  # the CSV and PDF are made from the JSON
    assert not ScreeningBatch.objects.get(uuid=job["uuid"]).chunks.exists()
