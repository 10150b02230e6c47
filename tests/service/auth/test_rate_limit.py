"""Per-API-user rate limit: a 429 with Retry-After in the error shape."""

import pytest

AUTH_STATUS = "/analysis/v1/auth-status"


@pytest.fixture(autouse=True)
def _three_per_minute(settings):
    settings.VAKT_RATE_LIMIT_PER_MINUTE = 3


def test_it_answers_429_after_the_limit(api):
    for _ in range(3):
        assert api.get(AUTH_STATUS).status_code == 200

    response = api.get(AUTH_STATUS)

    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 61
    body = response.json()
    assert set(body) == {"detail", "code", "errors", "request_id"}
    assert body["code"] == "rate_limited"
    assert "3 requests per minute" in body["detail"]


def test_it_does_not_affect_another_api_user(api, other_api):
    for _ in range(4):
        api.get(AUTH_STATUS)
    assert api.get(AUTH_STATUS).status_code == 429

    assert other_api.get(AUTH_STATUS).status_code == 200


def test_it_counts_bearer_and_basic_requests_of_one_user_together(api, client):
    creds = api.credentials
    token = client.post(
        "/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": creds.token_auth_id,
            "client_secret": creds.token_auth_secret,
            "audience": "http://testserver/analysis",
        },
        content_type="application/json",
    ).json()["access_token"]
    for _ in range(3):
        assert api.get(AUTH_STATUS).status_code == 200

    response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {token}")

    assert response.status_code == 429


def test_it_does_not_count_refused_credentials(api, client):
    for _ in range(5):
        assert client.get(AUTH_STATUS, HTTP_AUTHORIZATION="Basic d3Jvbmc6d3Jvbmc=").status_code == 401

    assert api.get(AUTH_STATUS).status_code == 200


def test_it_can_be_switched_off(api, settings):
    settings.VAKT_RATE_LIMIT_PER_MINUTE = 0

    statuses = {api.get(AUTH_STATUS).status_code for _ in range(6)}

    assert statuses == {200}


def test_requests_straddling_the_minute_count_in_one_window(api, clock):
    assert api.get(AUTH_STATUS).status_code == 200
    clock.now += 0.02  # into the next minute of the wall clock
    for _ in range(2):
        assert api.get(AUTH_STATUS).status_code == 200
    clock.now += 20

    response = api.get(AUTH_STATUS)

    assert response.status_code == 429
    assert int(response["Retry-After"]) == 40
