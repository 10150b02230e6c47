"""X-RateLimit-Limit, -Remaining and -Reset on the answers of both APIs, counted like the 429."""

import pytest

AUTH_STATUS = "/analysis/v1/auth-status"
DATASET = "/datasets/v1/dataset/company"


@pytest.fixture(autouse=True)
def _three_per_minute(settings):
    settings.VAKT_RATE_LIMIT_PER_MINUTE = 3


def _limits(response) -> tuple[int, int, int]:
    return (
        int(response["X-RateLimit-Limit"]),
        int(response["X-RateLimit-Remaining"]),
        int(response["X-RateLimit-Reset"]),
    )


@pytest.mark.parametrize("path", [AUTH_STATUS, DATASET])
def test_each_answer_says_what_is_left(api, path):
    answers = [api.get(path) for _ in range(3)]

    assert [a.status_code for a in answers] == [200, 200, 200]
    assert [_limits(a)[:2] for a in answers] == [(3, 2), (3, 1), (3, 0)]
    assert all(1 <= _limits(a)[2] <= 60 for a in answers)


def test_the_429_has_none_left_and_resets_when_retry_after_says(api):
    for _ in range(3):
        api.get(AUTH_STATUS)

    response = api.get(AUTH_STATUS)

    assert response.status_code == 429
    limit, remaining, reset = _limits(response)
    assert (limit, remaining) == (3, 0)
    assert reset == int(response["Retry-After"])


def test_errors_of_an_authenticated_caller_carry_them_too(api):
    response = api.get("/analysis/v1/watchlist/6f1c8e0a-4b7d-4e2a-9c3b-2d5f7a9e1b40")

    assert response.status_code == 404
    assert _limits(response)[:2] == (3, 2)


def test_bearer_and_basic_requests_share_one_count(api, client):
    creds = api.credentials
    token = client.post(
        "/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": creds.token_auth_id,
            "client_secret": creds.token_auth_secret,
            "audience": "http://testserver/datasets",
        },
        content_type="application/json",
    ).json()["access_token"]
    api.get(AUTH_STATUS)

    response = client.get(DATASET, HTTP_AUTHORIZATION=f"Bearer {token}")

    assert response.status_code == 200
    assert _limits(response)[:2] == (3, 1)


def test_refused_credentials_and_a_switched_off_limit_get_none(api, client, settings):
    refused = client.get(AUTH_STATUS, HTTP_AUTHORIZATION="Basic d3Jvbmc6d3Jvbmc=")
    settings.VAKT_RATE_LIMIT_PER_MINUTE = 0
    unlimited = api.get(AUTH_STATUS)

    assert refused.status_code == 401
    assert unlimited.status_code == 200
    for response in (refused, unlimited):
        assert not any(name.startswith("X-RateLimit-") for name in response.headers)
