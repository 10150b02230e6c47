"""A bad file is refused whole, with every problem named by line and column; nothing is stored or queued."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from service.screening.models import ScreeningBatch
from tests.service.screening.batch.conftest import csv_bytes, upload
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import field_locs


@pytest.fixture
def config(api):
    return config_with(api)


def _nothing_kept(settings):
    assert not ScreeningBatch.objects.exists()
    assert not (Path(settings.MEDIA_ROOT) / "screening-batch").exists() or not any(
        (Path(settings.MEDIA_ROOT) / "screening-batch").rglob("*.csv")
    )


def test_it_names_every_bad_row_by_line_and_column(api, config, settings, django_capture_on_commit_callbacks):
    next_year = str(dt.date.today().year + 1)
    rows = [
        {"type": "person", "name": "Kari Nordmann", "birth_date": "17.05.1980"},  # line 2: good, as Norwegians write it
        {"type": "person", "name": "Ola Nordmann", "birth_date": f"{next_year}-01-02"},  # 3
        {"type": "vessel", "name": "MV Fjord"},  # 4
        {"type": "company", "name": ""},  # 5
        {"type": "person", "name": "Per Olsen", "birth_date": "19x0", "nationality": "Atlantis"},  # 6
        {"type": "company", "name": "Nordlys AS", "country": "Narnia", "birth_date": "1990"},  # 7
        {"type": "person", "name": "Liv Berg", "birth_date": "1990-02-30", "gender": "x"},  # 8
        {"type": "person", "name": "Eva Berg", "birth_date": "30.02.1990"},  # 9: the same day, written the other way
    ]
    with django_capture_on_commit_callbacks() as queued:
        response = upload(api, config["uuid"], csv_bytes(rows))

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_file" and "line 3" in body["detail"] and "nothing was screened" in body["detail"]
    assert field_locs(response) == [
        ["body", "file", "line 3", "birth_date"],
        ["body", "file", "line 4", "type"],
        ["body", "file", "line 5", "name"],
        ["body", "file", "line 6", "birth_date"],
        ["body", "file", "line 6", "nationality"],
        ["body", "file", "line 7", "birth_date"],
        ["body", "file", "line 7", "country"],
        ["body", "file", "line 8", "birth_date"],
        ["body", "file", "line 8", "gender"],
        ["body", "file", "line 9", "birth_date"],
    ]
    messages = {tuple(e["loc"][2:]): e["msg"] for e in body["errors"]}
    assert messages[("line 3", "birth_date")] == f"{next_year}-01-02 is in the future"
    assert messages[("line 4", "type")] == "unknown type 'vessel'; use person or company"
    assert "not a known country" in messages[("line 6", "nationality")]
    assert "is not a date" in messages[("line 8", "birth_date")]
    assert messages[("line 9", "birth_date")] == "'1990-02-30' is not a date"
    assert queued == []
    _nothing_kept(settings)


def test_it_counts_lines_as_a_spreadsheet_shows_them_with_semicolons_and_blank_lines(api, config):
    content = "navn;name;birth_date\n;Kari Nordmann;1980\n\n;;2001\n".encode()
    response = upload(api, config["uuid"], content)
    assert response.status_code == 400
    assert field_locs(response) == [["body", "file", "line 4", "name"]]


def test_it_refuses_a_file_without_a_name_column(api, config, settings):
    response = upload(api, config["uuid"], b"who,when\nx,1970\n")
    assert response.status_code == 400
    assert field_locs(response) == [["body", "file", "line 1"]]
    assert "needs a 'name' column" in response.json()["errors"][0]["msg"]
    _nothing_kept(settings)


def test_it_refuses_text_that_is_not_utf8_or_has_nul_characters(api, config):
    latin1 = upload(api, config["uuid"], "name\nBjørn Ås\n".encode("latin-1"))
    assert latin1.status_code == 400 and "not UTF-8" in latin1.json()["errors"][0]["msg"]
    binary = upload(api, config["uuid"], b"name\nKari\x00Nordmann\n")
    assert binary.status_code == 400 and field_locs(binary) == [["body", "file", "line 2"]]


def test_it_refuses_a_file_with_only_a_header(api, config):
    response = upload(api, config["uuid"], b"type,name\n")
    assert response.status_code == 400 and field_locs(response) == [["body", "file"]]
    assert response.json()["errors"][0]["msg"] == "has no rows to screen"


def test_it_refuses_more_rows_than_the_limit(api, config, settings):
    settings.VAKT_BATCH_MAX_ROWS = 3
    rows = [{"name": f"Person {n}"} for n in range(4)]
    response = upload(api, config["uuid"], csv_bytes(rows))
    assert response.status_code == 400
    assert response.json()["code"] == "too_many_rows" and field_locs(response) == [["body", "file"]]
    assert "at most 3" in response.json()["errors"][0]["msg"]
    assert upload(api, config["uuid"], csv_bytes(rows[:3])).status_code == 202


def test_it_refuses_a_file_larger_than_the_body_limit_with_413(api, config, settings):
    settings.VAKT_MAX_BODY_BYTES = 2048
    rows = [{"name": f"Person number {n}"} for n in range(200)]
    response = upload(api, config["uuid"], csv_bytes(rows))
    assert response.status_code == 413 and response.json()["code"] == "payload_too_large"
    _nothing_kept(settings)


def test_it_needs_a_file_and_the_aml_role(api, config):
    missing = api.client.post(f"/analysis/v1/screening-config/{config['uuid']}/screening-batch", {}, **api.headers(["aml"]))
    assert missing.status_code == 400 and ["body", "file"] in field_locs(missing)
    no_role = upload(api, config["uuid"], b"name\nKari Nordmann\n", roles=[])
    assert no_role.status_code == 403 and "Missing role(s): aml" in no_role.json()["detail"]


def test_a_nul_in_a_form_field_beside_the_file_is_a_400_naming_it(api, config):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = api.client.post(
        f"/analysis/v1/screening-config/{config['uuid']}/screening-batch",
        {"file": SimpleUploadedFile("a.csv", b"name\nKari Nordmann\n"), "note": "a\x00b"},
        **api.headers(["aml"]),
    )
    assert response.status_code == 400 and ["body", "note", 0] in field_locs(response)
    assert not ScreeningBatch.objects.exists()
