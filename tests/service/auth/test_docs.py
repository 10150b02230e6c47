"""The interactive API reference is behind basic auth (spec §4.3, §5.1)."""

import base64

import pytest
from django.contrib.auth import get_user_model

DOC_PAGES = ["/documentation", "/analysis/", "/analysis/openapi.json", "/datasets/", "/datasets/openapi.json"]


def _basic(client_id: str, secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()}


@pytest.mark.parametrize("path", DOC_PAGES)
def test_it_asks_for_basic_auth(db, client, path):
    response = client.get(path)

    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Basic ")


@pytest.mark.parametrize("path", DOC_PAGES)
def test_it_shows_the_reference_with_basic_credentials(api, client, path):
    creds = api.credentials

    response = client.get(path, **_basic(creds.basic_auth_id, creds.basic_auth_secret))

    assert response.status_code == 200


@pytest.mark.parametrize("path", ["/documentation", "/analysis/openapi.json"])
def test_it_refuses_wrong_or_inactive_credentials(api, client, path):
    creds = api.credentials
    assert client.get(path, **_basic(creds.basic_auth_id, "wrong")).status_code == 401
    assert client.get(path, **_basic(creds.token_auth_id, creds.token_auth_secret)).status_code == 401
    assert client.get(path, HTTP_AUTHORIZATION="Basic !!!").status_code == 401

    api.credentials.api_user.is_active = False
    api.credentials.api_user.save(update_fields=["is_active"])
    assert client.get(path, **_basic(creds.basic_auth_id, creds.basic_auth_secret)).status_code == 401


def test_a_logged_in_dashboard_user_may_read_it(db, client):
    user = get_user_model().objects.create_user("reader", password="pw-reader-1234")
    client.force_login(user)

    assert client.get("/documentation").status_code == 200
    assert client.get("/analysis/openapi.json").status_code == 200


def test_the_page_points_at_the_openapi_document(api, client):
    creds = api.credentials

    response = client.get("/documentation", **_basic(creds.basic_auth_id, creds.basic_auth_secret))

    assert b"openapi.json" in response.content


def test_the_openapi_document_lists_the_paths(api, client):
    creds = api.credentials

    response = client.get("/analysis/openapi.json", **_basic(creds.basic_auth_id, creds.basic_auth_secret))

    schema = response.json()
    assert schema["info"]["title"] == "Vakt analysis API"
    paths = schema["paths"]
    assert "/analysis/v1/auth-status" in paths
    assert "/analysis/v1/app-customer/{app_customer_uuid}/overview" in paths
    assert "/analysis/v1/app-customer/{app_customer_uuid}/app-membership" in paths
    assert {"BasicAuth", "TokenAuth"} <= set(schema["components"]["securitySchemes"])
    assert "Nk-Role-Keys" in schema["info"]["description"]
