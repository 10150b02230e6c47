"""Basic authentication on the analysis API (spec §5.1)."""

import base64

AUTH_STATUS = "/analysis/v1/auth-status"


def _basic(client_id: str, secret: str) -> str:
    return "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()


def _assert_unauthorized(response) -> None:
    assert response.status_code == 401
    assert "Basic" in response["WWW-Authenticate"]
    body = response.json()
    assert set(body) == {"detail", "code", "errors", "request_id"}
    assert body["code"] == "not_authenticated"
    assert body["detail"]


def test_it_accepts_good_credentials(api):
    response = api.get(AUTH_STATUS)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert "Authenticated" in text
    assert str(api.credentials.api_user.uuid) in text
    assert str(api.app_customer_uuid) in text


def test_it_refuses_a_wrong_secret(api, client):
    creds = api.credentials
    response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=_basic(creds.basic_auth_id, "not-the-secret"))

    _assert_unauthorized(response)


def test_it_refuses_a_prefix_or_an_extension_of_the_secret(api, client):
    # A comparison of only the first characters (or of a stored prefix) would let these in.
    creds = api.credentials
    for secret in (creds.basic_auth_secret[:-1], creds.basic_auth_secret[:8], creds.basic_auth_secret + "x", ""):
        response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=_basic(creds.basic_auth_id, secret))

        _assert_unauthorized(response)


def test_it_refuses_a_prefix_of_the_client_id(api, client):
    creds = api.credentials
    response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=_basic(creds.basic_auth_id[:-1], creds.basic_auth_secret))

    _assert_unauthorized(response)


def test_it_refuses_an_unknown_id(api, client):
    response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=_basic("basic_unknown", api.credentials.basic_auth_secret))

    _assert_unauthorized(response)


def test_it_refuses_another_users_secret(api, other_api, client):
    response = client.get(
        AUTH_STATUS, HTTP_AUTHORIZATION=_basic(api.credentials.basic_auth_id, other_api.credentials.basic_auth_secret)
    )

    _assert_unauthorized(response)


def test_it_refuses_a_request_without_credentials(db, client):
    _assert_unauthorized(client.get(AUTH_STATUS))


def test_it_refuses_malformed_headers(api, client):
    creds = api.credentials
    good = base64.b64encode(f"{creds.basic_auth_id}:{creds.basic_auth_secret}".encode()).decode()
    malformed = [
        "Basic",
        "Basic ",
        "Basic !!!not-base64!!!",
        "Basic " + base64.b64encode(b"no-colon-here").decode(),
        "Basic " + base64.b64encode(b"\xff\xfe:\xff").decode(),
        "Digest " + good,
        "Basic " + good + " trailing",
    ]
    for header in malformed:
        response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=header)
        assert response.status_code == 401, header
        assert response.json()["code"] == "not_authenticated", header


def test_it_refuses_an_inactive_user(api):
    user = api.credentials.api_user
    user.is_active = False
    user.save(update_fields=["is_active"])

    _assert_unauthorized(api.get(AUTH_STATUS))


def test_it_refuses_token_credentials_as_basic_credentials(api, client):
    creds = api.credentials
    response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=_basic(creds.token_auth_id, creds.token_auth_secret))

    _assert_unauthorized(response)



def test_a_nul_byte_in_the_id_is_a_401_not_a_500(db, client):
    header = "Basic " + base64.b64encode(b"basic_\x00x:secret").decode()

    _assert_unauthorized(client.get(AUTH_STATUS, HTTP_AUTHORIZATION=header))


def test_issued_credentials_are_long_random_secrets_under_distinct_ids(db):
    import re

    from service.auth.models import AppCustomer
    from service.auth.services import api_user_create

    customer = AppCustomer.objects.create(name="Nordbank ASA")
    first, second = (api_user_create(app_customer=customer, name=name, role_keys=[]) for name in ("one", "two"))

    for credentials in (first, second):
        assert re.fullmatch(r"basic_[0-9a-f]{20}", credentials.basic_auth_id)
        assert re.fullmatch(r"token_[0-9a-f]{20}", credentials.token_auth_id)
        for secret in (credentials.basic_auth_secret, credentials.token_auth_secret):
            assert re.fullmatch(r"[A-Za-z0-9_-]{43}", secret)  # 32 random bytes, URL-safe
    secrets = {first.basic_auth_secret, first.token_auth_secret, second.basic_auth_secret, second.token_auth_secret}
    assert len(secrets) == 4
    assert first.basic_auth_id != second.basic_auth_id
