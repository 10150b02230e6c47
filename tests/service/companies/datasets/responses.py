"""Reading streamed dataset responses in the tests."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal


def body_of(response) -> str:
    assert response.status_code == 200, response.content
    assert response.streaming, "datasets are streamed"
    return b"".join(response.streaming_content).decode()


def elements_of(response) -> list:
    """The JSON array of a json response; numbers as Decimal so exactness can be checked."""
    return json.loads(body_of(response), parse_float=Decimal)


def lines_of(response) -> list:
    return [json.loads(line, parse_float=Decimal) for line in body_of(response).splitlines()]


def csv_rows_of(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(body_of(response))))


def error_of(response, status: int) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"detail", "code", "errors", "request_id"}
    return body
