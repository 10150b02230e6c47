"""POST /oauth/token and bearer tokens on the APIs (spec §5.2)."""

import time
import uuid
from urllib.parse import urlencode

import jwt

TOKEN_URL = "/oauth/token"
AUTH_STATUS = "/analysis/v1/auth-status"
ANALYSIS = "http://testserver/analysis"
DATASETS = "http://testserver/datasets"
DATASETS_LIST = "/datasets/v1/dataset"


def _body(api, **overrides) -> dict:
    body = {
        "grant_type": "client_credentials",
        "client_id": api.credentials.token_auth_id,
        "client_secret": api.credentials.token_auth_secret,
        "audience": ANALYSIS,
    }
    body.update(overrides)
    return {key: value for key, value in body.items() if value is not None}


def _token(client, api, audience=ANALYSIS) -> str:
    response = client.post(TOKEN_URL, _body(api, audience=audience), content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()["access_token"]


def _oauth_error(response, status: int, error: str) -> dict:
    assert response.status_code == status
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["error"] == error
    assert body["error_description"]
    return body


def test_it_issues_a_token(api, client, settings):
    response = client.post(TOKEN_URL, _body(api), content_type="application/json")

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == settings.VAKT_TOKEN_LIFETIME_SECONDS
    assert isinstance(body["access_token"], str) and body["access_token"]


def test_it_issues_a_token_for_a_form_body(api, client):
    response = client.post(TOKEN_URL, urlencode(_body(api)), content_type="application/x-www-form-urlencoded")

    assert response.status_code == 200
    assert response.json()["token_type"] == "Bearer"
    token = response.json()["access_token"]
    assert client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200


def test_it_accepts_the_audience_with_a_trailing_slash(api, client):
    response = client.post(TOKEN_URL, _body(api, audience=ANALYSIS + "/"), content_type="application/json")

    assert response.status_code == 200


def test_the_token_authenticates_on_the_analysis_api(api, client):
    token = _token(client, api)

    response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {token}")

    assert response.status_code == 200
    assert str(api.credentials.api_user.uuid) in response.content.decode()


def test_it_honours_the_configured_lifetime(api, client, settings):
    settings.VAKT_TOKEN_LIFETIME_SECONDS = 600

    response = client.post(TOKEN_URL, _body(api), content_type="application/json")

    assert response.json()["expires_in"] == 600
    claims = jwt.decode(response.json()["access_token"], options={"verify_signature": False})
    assert claims["exp"] - claims["iat"] == 600
    assert claims["aud"] == ANALYSIS


def test_it_refuses_a_wrong_client_secret(api, client):
    response = client.post(TOKEN_URL, _body(api, client_secret="wrong"), content_type="application/json")

    _oauth_error(response, 401, "invalid_client")
    assert response["WWW-Authenticate"]


def test_it_refuses_a_prefix_or_an_extension_of_the_client_secret(api, client):
    secret = api.credentials.token_auth_secret
    for wrong in (secret[:-1], secret[:8], secret + "x"):
        response = client.post(TOKEN_URL, _body(api, client_secret=wrong), content_type="application/json")

        _oauth_error(response, 401, "invalid_client")


def test_it_refuses_an_unknown_client(api, client):
    response = client.post(TOKEN_URL, _body(api, client_id="token_unknown"), content_type="application/json")

    _oauth_error(response, 401, "invalid_client")


def test_it_refuses_an_inactive_api_user(api, client):
    api.credentials.api_user.is_active = False
    api.credentials.api_user.save(update_fields=["is_active"])

    response = client.post(TOKEN_URL, _body(api), content_type="application/json")

    _oauth_error(response, 401, "invalid_client")


def test_basic_credentials_do_not_work_as_token_credentials(api, client):
    creds = api.credentials
    body = _body(api, client_id=creds.basic_auth_id, client_secret=creds.basic_auth_secret)

    response = client.post(TOKEN_URL, body, content_type="application/json")

    _oauth_error(response, 401, "invalid_client")


def test_it_names_the_missing_fields(api, client):
    response = client.post(
        TOKEN_URL, _body(api, client_secret=None, audience=None), content_type="application/json"
    )

    body = _oauth_error(response, 400, "invalid_request")
    assert "client_secret" in body["error_description"]
    assert "audience" in body["error_description"]
    assert "client_id" not in body["error_description"]


def test_it_refuses_a_body_that_is_not_a_json_object(db, client):
    for raw in ("not json", "[1, 2]", '"text"'):
        response = client.post(TOKEN_URL, raw, content_type="application/json")
        _oauth_error(response, 400, "invalid_request")


def test_it_refuses_another_grant_type(api, client):
    response = client.post(TOKEN_URL, _body(api, grant_type="password"), content_type="application/json")

    _oauth_error(response, 400, "unsupported_grant_type")


def test_it_refuses_an_unknown_audience(api, client):
    for audience in ("http://testserver/other", "https://elsewhere.example/analysis", "analysis"):
        response = client.post(TOKEN_URL, _body(api, audience=audience), content_type="application/json")
        body = _oauth_error(response, 400, "invalid_target")
        assert ANALYSIS in body["error_description"]  # tells the caller what would work


def test_it_answers_only_post(db, client):
    assert client.get(TOKEN_URL).status_code == 405


def test_a_datasets_token_is_refused_by_the_analysis_api(api, client):
    token = _token(client, api, audience=DATASETS)

    response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {token}")

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_an_analysis_token_is_refused_by_the_datasets_api(api, client):
    analysis_token = _token(client, api, audience=ANALYSIS)
    datasets_token = _token(client, api, audience=DATASETS)

    refused = client.get(DATASETS_LIST, HTTP_AUTHORIZATION=f"Bearer {analysis_token}")
    accepted = client.get(DATASETS_LIST, HTTP_AUTHORIZATION=f"Bearer {datasets_token}")

    assert refused.status_code == 401
    assert refused.json()["code"] == "not_authenticated"
    assert accepted.status_code == 200


def test_it_refuses_an_expired_token(api, client, settings):
    settings.VAKT_TOKEN_LIFETIME_SECONDS = -5  # issued already expired
    token = _token(client, api)

    response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {token}")

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_it_refuses_a_token_signed_with_another_key(api, client, settings):
    now = int(time.time())
    claims = {"sub": str(api.credentials.api_user.uuid), "ver": 1, "aud": ANALYSIS, "iat": now, "exp": now + 600}
    forged = jwt.encode(claims, "another-key-that-is-long-enough-for-hs256!", algorithm="HS256")
    genuine = jwt.encode(claims, settings.VAKT_JWT_SECRET, algorithm="HS256")

    assert client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {forged}").status_code == 401
    assert client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {genuine}").status_code == 200


def test_it_refuses_an_unsigned_token(api, client):
    now = int(time.time())
    claims = {"sub": str(api.credentials.api_user.uuid), "ver": 1, "aud": ANALYSIS, "iat": now, "exp": now + 600}
    unsigned = jwt.encode(claims, None, algorithm="none")

    assert client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {unsigned}").status_code == 401


def test_it_refuses_a_token_of_an_unknown_or_deactivated_user(api, client, settings):
    token = _token(client, api)
    now = int(time.time())
    stranger = jwt.encode(
        {"sub": str(uuid.uuid4()), "ver": 1, "aud": ANALYSIS, "exp": now + 600},
        settings.VAKT_JWT_SECRET,
        algorithm="HS256",
    )
    api.credentials.api_user.is_active = False
    api.credentials.api_user.save(update_fields=["is_active"])

    assert client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {stranger}").status_code == 401
    assert client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401


def test_basic_credentials_are_not_a_bearer_token(api, client):
    creds = api.credentials

    response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {creds.basic_auth_id}:{creds.basic_auth_secret}")

    assert response.status_code == 401



def test_it_refuses_tokens_issued_before_the_secrets_were_rotated(api):
    from service.auth.services import api_user_rotate_secrets

    credentials = api.credentials
    issued = api.client.post(
        "/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": credentials.token_auth_id,
            "client_secret": credentials.token_auth_secret,
            "audience": "http://testserver/analysis",
        },
        content_type="application/json",
    ).json()["access_token"]
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {issued}"}
    assert api.client.get("/analysis/v1/auth-status", **bearer).status_code == 200

    api_user_rotate_secrets(api_user=credentials.api_user, role_keys=["aml"])

    assert api.client.get("/analysis/v1/auth-status", **bearer).status_code == 401


OLD_DEVELOPMENT_KEY = "dev-only-insecure-secret-key-change-me-in-production-0123456789"


def test_it_refuses_tokens_signed_with_the_old_public_development_key(api, client):
    """That key is in the public source: anyone could sign a token for any API user with it."""
    now = int(time.time())
    claims = {"sub": str(api.credentials.api_user.uuid), "ver": 1, "aud": ANALYSIS, "iat": now, "exp": now + 600}

    for key in (OLD_DEVELOPMENT_KEY, OLD_DEVELOPMENT_KEY + ":jwt"):
        forged = jwt.encode(claims, key, algorithm="HS256")
        response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {forged}")
        assert response.status_code == 401, key
        assert response.json()["code"] == "not_authenticated"


def test_it_refuses_a_genuinely_signed_token_missing_a_claim(api, client, settings):
    now = int(time.time())
    full = {"sub": str(api.credentials.api_user.uuid), "ver": 1, "aud": ANALYSIS, "iat": now, "exp": now + 600}
    assert client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {jwt.encode(full, settings.VAKT_JWT_SECRET)}").status_code == 200

    for claim in ("sub", "ver", "aud", "exp"):  # a token that never expires, or names nobody, is no token
        claims = {key: value for key, value in full.items() if key != claim}
        token = jwt.encode(claims, settings.VAKT_JWT_SECRET, algorithm="HS256")

        response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {token}")

        assert response.status_code == 401, claim
        assert response.json()["code"] == "not_authenticated"


def test_two_tokens_issued_in_the_same_second_differ(api, client):
    first, second = _token(client, api), _token(client, api)

    assert first != second
    claims = jwt.decode(first, options={"verify_signature": False})
    assert set(claims) == {"sub", "ver", "aud", "iat", "exp", "jti"}
    assert claims["sub"] == str(api.credentials.api_user.uuid)
