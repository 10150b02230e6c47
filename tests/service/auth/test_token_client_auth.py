"""POST /oauth/token: client_secret_basic (RFC 6749 §2.3.1), unreadable bodies and failures in the OAuth shape."""

import base64
import json
from urllib.parse import quote_plus, urlencode

import pytest

TOKEN_URL = "/oauth/token"
AUTH_STATUS = "/analysis/v1/auth-status"
ANALYSIS = "http://testserver/analysis"
GRANT = {"grant_type": "client_credentials", "audience": ANALYSIS}


def _basic(client_id: str, secret: str) -> str:
    return "Basic " + base64.b64encode(f"{quote_plus(client_id)}:{quote_plus(secret)}".encode()).decode()


def _oauth_error(response, status: int, error: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Cache-Control"] == "no-store"
    assert response["Pragma"] == "no-cache"
    body = response.json()
    assert set(body) == {"error", "error_description", "request_id"}
    assert body["error"] == error
    assert body["error_description"]
    assert body["request_id"] == response["X-Request-Id"]
    return body


def test_it_issues_a_token_for_client_secret_basic(api, client):
    creds = api.credentials

    response = client.post(
        TOKEN_URL, json.dumps(GRANT), content_type="application/json",
        HTTP_AUTHORIZATION=_basic(creds.token_auth_id, creds.token_auth_secret),
    )

    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "no-store"
    assert response["Pragma"] == "no-cache"
    token = response.json()["access_token"]
    assert client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200


def test_it_takes_client_secret_basic_with_a_form_body_and_the_id_repeated_in_it(api, client):
    creds = api.credentials
    body = urlencode({**GRANT, "client_id": creds.token_auth_id})

    response = client.post(
        TOKEN_URL, body, content_type="application/x-www-form-urlencoded",
        HTTP_AUTHORIZATION=_basic(creds.token_auth_id, creds.token_auth_secret),
    )

    assert response.status_code == 200, response.content


def test_it_refuses_a_wrong_secret_in_the_basic_header(api, client):
    response = client.post(
        TOKEN_URL, json.dumps(GRANT), content_type="application/json",
        HTTP_AUTHORIZATION=_basic(api.credentials.token_auth_id, "wrong"),
    )

    _oauth_error(response, 401, "invalid_client")
    assert response["WWW-Authenticate"].startswith("Basic")


@pytest.mark.parametrize(
    "header",
    ["Basic", "Basic !!!", "Basic " + base64.b64encode(b"no-colon").decode(), "Bearer abc", "Digest x=y"],
)
def test_it_refuses_a_malformed_authorization_header(api, client, header):
    response = client.post(TOKEN_URL, json.dumps(GRANT), content_type="application/json", HTTP_AUTHORIZATION=header)

    _oauth_error(response, 401, "invalid_client")


def test_it_refuses_two_client_authentication_methods_at_once(api, client):
    creds = api.credentials
    body = {**GRANT, "client_id": creds.token_auth_id, "client_secret": creds.token_auth_secret}

    response = client.post(
        TOKEN_URL, json.dumps(body), content_type="application/json",
        HTTP_AUTHORIZATION=_basic(creds.token_auth_id, creds.token_auth_secret),
    )

    body = _oauth_error(response, 400, "invalid_request")
    assert "not both" in body["error_description"]


def test_it_refuses_a_body_client_id_other_than_the_headers(api, other_api, client):
    creds = api.credentials

    response = client.post(
        TOKEN_URL, json.dumps({**GRANT, "client_id": other_api.credentials.token_auth_id}),
        content_type="application/json",
        HTTP_AUTHORIZATION=_basic(creds.token_auth_id, creds.token_auth_secret),
    )

    _oauth_error(response, 400, "invalid_request")


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a":', "}")])
def test_json_nested_a_thousand_deep_is_a_400_not_a_500(db, client, opening, closing):
    for body in (opening * 1000 + closing * 1000, '{"client_id": ' + opening * 1000 + "1" + closing * 1000 + "}"):
        body = body.replace(":}", ":1}")
        response = client.post(TOKEN_URL, body, content_type="application/json")

        _oauth_error(response, 400, "invalid_request")


def test_fields_that_are_not_strings_are_named(api, client):
    body = {**GRANT, "client_id": {"a": 1}, "client_secret": ["x"]}

    response = client.post(TOKEN_URL, json.dumps(body), content_type="application/json")

    description = _oauth_error(response, 400, "invalid_request")["error_description"]
    assert "client_id" in description and "client_secret" in description


def test_a_nul_byte_in_the_client_id_is_a_401_not_a_500(db, client):
    body = {**GRANT, "client_id": "token_\x00x", "client_secret": "s"}

    response = client.post(TOKEN_URL, json.dumps(body), content_type="application/json")

    _oauth_error(response, 401, "invalid_client")


def test_an_unexpected_failure_is_a_500_in_the_oauth_shape(api, client, monkeypatch):
    def broken(**_kwargs):
        raise RuntimeError("database gone")

    monkeypatch.setattr("service.auth.views.api_user_by_token_credentials", broken)
    creds = api.credentials
    body = {**GRANT, "client_id": creds.token_auth_id, "client_secret": creds.token_auth_secret}

    response = client.post(TOKEN_URL, json.dumps(body), content_type="application/json")

    body = _oauth_error(response, 500, "server_error")
    assert "database" not in body["error_description"]


def test_every_answer_of_the_token_endpoint_is_uncacheable(api, client):
    creds = api.credentials
    answers = [
        client.post(TOKEN_URL, json.dumps({**GRANT, "client_id": creds.token_auth_id,
                                           "client_secret": creds.token_auth_secret}), content_type="application/json"),
        client.post(TOKEN_URL, "nope", content_type="application/json"),
        client.get(TOKEN_URL),
        client.post("/oauth/elsewhere", "{}", content_type="application/json"),
    ]

    assert [answer.status_code for answer in answers] == [200, 400, 405, 404]
    for answer in answers:
        assert answer["Cache-Control"] == "no-store"
        assert answer["Pragma"] == "no-cache"
