"""Batch screening tests: the tiny UN and PEP lists of the case tests, files in a temporary storage,
and the steps through the HTTP API."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.service.screening.cases.conftest import broker_away, lists  # noqa: F401  (the fixtures)
from tests.service.screening.helpers import AML, config_url

COLUMNS = ["type", "id", "name", "birth_date", "nationality", "gender", "country"]


@pytest.fixture(autouse=True)
def _storage(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")  # the default storage follows the setting


def csv_bytes(rows: list[dict], columns=COLUMNS, delimiter: str = ",") -> bytes:
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=columns, delimiter=delimiter)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def batches_url(config_uuid, tail: str = "") -> str:
    return config_url(config_uuid, f"/screening-batch{tail}")


def upload(caller, config_uuid, content: bytes, name: str = "customers.csv", roles=AML):
    return caller.client.post(
        batches_url(config_uuid), {"file": SimpleUploadedFile(name, content, content_type="text/csv")}, **caller.headers(roles)
    )


def result_rows(caller, batch: dict) -> list[dict]:
    """The JSON result, for programs: a row per input row in file order, each with its hits."""
    response = caller.client.get(batch["result_url"], {"response_file_type": "json"}, **caller.headers(AML))
    assert response.status_code == 200, response.content
    return json.loads(b"".join(response.streaming_content))


def result_csv(caller, batch: dict) -> tuple[bytes, list[dict]]:
    """The CSV result (the default), for a person: its bytes and its lines by column."""
    response = caller.client.get(batch["result_url"], **caller.headers(AML))
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/csv")
    content = b"".join(response.streaming_content)
    return content, list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"), newline="")))
