"""Failed client authentications are throttled per client id and per address: 429 with Retry-After.

On the token endpoint in the OAuth shape (`slow_down`), with basic auth on the APIs in the API shape.
"""

import base64
import json

import pytest

TOKEN_URL = "/oauth/token"
AUTH_STATUS = "/analysis/v1/auth-status"
ANALYSIS = "http://testserver/analysis"


@pytest.fixture(autouse=True)
def _small_limits(settings):
    settings.VAKT_AUTH_FAILURES_PER_MINUTE = 3
    settings.VAKT_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE = 5


def _token_request(client, client_id: str, secret: str, address: str = "203.0.113.7"):
    body = {"grant_type": "client_credentials", "client_id": client_id, "client_secret": secret, "audience": ANALYSIS}
    return client.post(TOKEN_URL, json.dumps(body), content_type="application/json", REMOTE_ADDR=address)


def _basic_request(client, client_id: str, secret: str, address: str = "203.0.113.7"):
    header = "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    return client.get(AUTH_STATUS, HTTP_AUTHORIZATION=header, REMOTE_ADDR=address)


def _assert_retry_after(response) -> None:
    assert response.status_code == 429, response.content
    assert 1 <= int(response["Retry-After"]) <= 60


def test_the_token_endpoint_throttles_wrong_secrets_for_a_client_id(api, other_api, client):
    creds = api.credentials
    for _ in range(3):
        assert _token_request(client, creds.token_auth_id, "wrong").status_code == 401

    throttled = _token_request(client, creds.token_auth_id, "wrong")
    right_secret_too = _token_request(client, creds.token_auth_id, creds.token_auth_secret)

    for response in (throttled, right_secret_too):
        _assert_retry_after(response)
        assert response["Cache-Control"] == "no-store"
        body = response.json()
        assert set(body) == {"error", "error_description", "request_id"}
        assert body["error"] == "slow_down"
        assert "retry after" in body["error_description"]
    other = other_api.credentials
    assert _token_request(client, other.token_auth_id, other.token_auth_secret).status_code == 200


def test_the_token_endpoint_throttles_an_address_trying_many_client_ids(api, client):
    for number in range(5):
        assert _token_request(client, f"token_guess{number}", "wrong").status_code == 401

    creds = api.credentials
    _assert_retry_after(_token_request(client, creds.token_auth_id, creds.token_auth_secret))
    from_elsewhere = _token_request(client, creds.token_auth_id, creds.token_auth_secret, address="198.51.100.9")
    assert from_elsewhere.status_code == 200


def test_successful_token_requests_are_not_counted(api, client):
    creds = api.credentials
    for _ in range(8):
        assert _token_request(client, creds.token_auth_id, creds.token_auth_secret).status_code == 200


def test_basic_auth_on_the_apis_throttles_wrong_secrets_for_a_client_id(api, other_api, client):
    creds = api.credentials
    for _ in range(3):
        assert _basic_request(client, creds.basic_auth_id, "wrong").status_code == 401

    throttled = _basic_request(client, creds.basic_auth_id, "wrong")
    right_secret_too = _basic_request(client, creds.basic_auth_id, creds.basic_auth_secret)

    for response in (throttled, right_secret_too):
        _assert_retry_after(response)
        body = response.json()
        assert set(body) == {"detail", "code", "errors", "request_id"}
        assert body["code"] == "too_many_failed_authentications"
    other = other_api.credentials
    assert _basic_request(client, other.basic_auth_id, other.basic_auth_secret).status_code == 200


def test_basic_auth_on_the_apis_throttles_an_address_trying_many_client_ids(api, client):
    for number in range(5):
        assert _basic_request(client, f"basic_guess{number}", "wrong").status_code == 401

    creds = api.credentials
    _assert_retry_after(_basic_request(client, creds.basic_auth_id, creds.basic_auth_secret))
    assert _basic_request(client, creds.basic_auth_id, creds.basic_auth_secret, address="198.51.100.9").status_code == 200


def test_a_limit_of_zero_turns_the_throttle_off(api, client, settings):
    settings.VAKT_AUTH_FAILURES_PER_MINUTE = 0
    settings.VAKT_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE = 0
    creds = api.credentials

    answers = [_token_request(client, creds.token_auth_id, "wrong").status_code for _ in range(30)]

    assert set(answers) == {401}


def test_failures_straddling_the_minute_still_count_together(api, client, clock):
    assert _token_request(client, "token_guess0", "wrong").status_code == 401
    clock.now += 0.02  # into the next minute of the wall clock
    for number in range(1, 5):
        assert _token_request(client, f"token_guess{number}", "wrong").status_code == 401

    creds = api.credentials
    response = _token_request(client, creds.token_auth_id, creds.token_auth_secret)

    assert response.status_code == 429
    assert int(response["Retry-After"]) == 60


def test_the_wait_runs_from_the_first_failure(api, client, clock):
    creds = api.credentials
    for _ in range(3):
        assert _basic_request(client, creds.basic_auth_id, "wrong").status_code == 401
        clock.now += 10

    response = _basic_request(client, creds.basic_auth_id, creds.basic_auth_secret)

    assert response.status_code == 429
    assert int(response["Retry-After"]) == 30
