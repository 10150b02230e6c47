"""Every answer carries X-Request-Id; every error body carries the same id, and so does the log line."""

import io
import json
import logging

import pytest

from service.request_id import RequestIdFilter

UNKNOWN = "/analysis/v1/no-such-endpoint"


def test_an_error_body_carries_the_request_id_of_its_header(api):
    first, second = api.get(UNKNOWN), api.get(UNKNOWN)

    assert first.json()["request_id"] == first["X-Request-Id"]
    assert len(first["X-Request-Id"]) >= 16
    assert first["X-Request-Id"] != second["X-Request-Id"]


def test_a_successful_answer_carries_one_too(api):
    assert api.get("/analysis/v1/auth-status")["X-Request-Id"]


def test_an_oauth_error_carries_the_request_id(db, client):
    response = client.post("/oauth/token", "nope", content_type="application/json")

    assert response.json()["request_id"] == response["X-Request-Id"]


def test_a_sane_incoming_request_id_is_kept(api):
    response = api.client.get(UNKNOWN, HTTP_X_REQUEST_ID="edge-7f3a.91:2")

    assert response["X-Request-Id"] == "edge-7f3a.91:2"
    assert response.json()["request_id"] == "edge-7f3a.91:2"


@pytest.mark.parametrize("incoming", ["", "has space", "x" * 200, "<script>", "æøå", "-leading-dash"])
def test_an_unfit_incoming_request_id_is_replaced(api, incoming):
    response = api.client.get(UNKNOWN, HTTP_X_REQUEST_ID=incoming)

    assert response["X-Request-Id"] != incoming
    assert response.json()["request_id"] == response["X-Request-Id"]


@pytest.fixture
def server_log():
    """What the configured console handler writes (the server's log), captured."""
    handler = next(h for h in logging.getLogger().handlers if any(isinstance(f, RequestIdFilter) for f in h.filters))
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_the_log_line_of_a_failed_request_carries_its_request_id(api, server_log):
    response = api.get(UNKNOWN)

    request_id = response.json()["request_id"]
    lines = [line for line in server_log.getvalue().splitlines() if UNKNOWN in line]
    assert lines, server_log.getvalue()
    assert all(request_id in line for line in lines)


def test_the_log_line_of_a_token_endpoint_failure_carries_its_request_id(api, server_log, monkeypatch):
    def broken(**_kwargs):
        raise RuntimeError("database gone")

    monkeypatch.setattr("service.auth.views.api_user_by_token_credentials", broken)
    body = {"grant_type": "client_credentials", "client_id": "a", "client_secret": "b",
            "audience": "http://testserver/analysis"}

    response = api.client.post("/oauth/token", json.dumps(body), content_type="application/json")

    assert response.status_code == 500
    logged = server_log.getvalue()
    assert "Token endpoint failed" in logged and "database gone" in logged
    assert f"[{response.json()['request_id']}]" in logged
