"""One JSON error shape on the API: 404 for unknown paths, 413, 400 naming fields, 404 across organisations."""

import json
import uuid

import pytest

SHAPE = {"detail", "code", "errors", "request_id"}
OAUTH_SHAPE = {"error", "error_description", "request_id"}


def _memberships(caller) -> str:
    return f"/analysis/v1/app-customer/{caller.app_customer_uuid}/app-membership"


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == SHAPE
    assert body["code"] == code
    assert body["detail"]
    assert body["request_id"] == response["X-Request-Id"]
    return body


@pytest.mark.parametrize(
    "path",
    [
        "/analysis/v1/no-such-endpoint",
        "/analysis/v2/auth-status",
        "/datasets/v1/dataset/no-such-dataset/and/more",
    ],
)
def test_it_answers_json_404_for_unknown_paths(api, path):
    body = _error(api.get(path), 404, "not_found")

    assert path in body["detail"]


def test_a_malformed_uuid_in_the_path_is_400_naming_it(api):
    body = _error(api.get("/analysis/v1/app-customer/not-a-uuid/overview"), 400, "invalid_request")

    assert body["errors"][0]["loc"] == ["path", "app_customer_uuid"]


def _oauth_error(response, status: int, error: str) -> dict:
    """The token endpoint's errors have the OAuth shape (RFC 6749 §5.2), never cached."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response["Cache-Control"] == "no-store"
    assert response["Pragma"] == "no-cache"
    body = response.json()
    assert set(body) == OAUTH_SHAPE
    assert body["error"] == error
    assert body["error_description"]
    assert body["request_id"] == response["X-Request-Id"]
    return body


def test_a_wrong_method_is_405_in_the_error_shape(api, client):
    response = api.post("/analysis/v1/auth-status", {"a": 1})
    body = _error(response, 405, "method_not_allowed")
    assert response["Allow"] in body["detail"]
    assert api.post("/analysis/v1/auth-status")["Allow"] == "GET"


def test_a_wrong_method_on_the_token_endpoint_is_405_in_the_oauth_shape(db, client):
    response = client.get("/oauth/token")

    body = _oauth_error(response, 405, "invalid_request")
    assert response["Allow"] == "POST"
    assert "POST" in body["error_description"]


def test_an_unknown_path_is_404_even_without_credentials(db, client):
    _error(client.get("/analysis/v1/no-such-endpoint"), 404, "not_found")


def test_it_answers_413_for_a_body_over_the_limit(api, settings):
    settings.VAKT_MAX_BODY_BYTES = 2048
    body = {"padding": "x" * 4096}

    response = api.post("/analysis/v1/auth-status", body)

    error = _error(response, 413, "payload_too_large")
    assert "2048" in error["detail"]


def test_the_token_issuer_answers_413_for_a_body_over_the_limit_in_the_oauth_shape(db, client, settings):
    settings.VAKT_MAX_BODY_BYTES = 2048

    response = client.post("/oauth/token", json.dumps({"x": "y" * 4096}), content_type="application/json")

    body = _oauth_error(response, 413, "invalid_request")
    assert "2048" in body["error_description"]


def test_a_body_under_the_limit_passes_the_size_check(api, settings):
    settings.VAKT_MAX_BODY_BYTES = 2048

    response = api.post("/oauth/token", {"padding": "x" * 1000})

    assert response.status_code == 400  # reaches the token issuer, which names the missing fields


@pytest.mark.parametrize(
    "params, field, code",
    [
        # not a whole number: request parsing
        ({"limit": "abc"}, "limit", "invalid_request"),
        ({"offset": "x"}, "offset", "invalid_request"),
        # out of range: the pagination rules
        ({"limit": "0"}, "limit", "invalid_parameter"),
        ({"limit": "5000"}, "limit", "invalid_parameter"),
        ({"limit": "-3"}, "limit", "invalid_parameter"),
        ({"offset": "-1"}, "offset", "invalid_parameter"),
    ],
)
def test_it_answers_400_naming_a_bad_query_parameter(api, params, field, code):
    body = _error(api.get(_memberships(api), params), 400, code)

    assert ["query", field] in [error["loc"] for error in body["errors"]]
    assert all(error["msg"] for error in body["errors"])
    assert field in body["detail"]


def test_it_lists_every_bad_parameter(api):
    body = _error(api.get(_memberships(api), {"limit": "abc", "offset": "x"}), 400, "invalid_request")

    assert sorted(error["loc"] for error in body["errors"]) == [["query", "limit"], ["query", "offset"]]


def test_good_parameters_pass(api):
    response = api.get(_memberships(api), {"limit": "1000", "offset": "0"})

    assert response.status_code == 200
    assert response.json() == [{"elements": [], "count": 0, "has_more": False}]


@pytest.mark.parametrize("suffix", ["overview", "app-membership"])
def test_another_organisations_uuid_is_404_not_403(api, other_api, suffix):
    path = f"/analysis/v1/app-customer/{other_api.app_customer_uuid}/{suffix}"

    _error(api.get(path), 404, "not_found")
    assert other_api.get(path).status_code == 200


@pytest.mark.parametrize("suffix", ["overview", "app-membership"])
def test_an_unknown_organisation_uuid_is_the_same_404(api, other_api, suffix):
    unknown = api.get(f"/analysis/v1/app-customer/{uuid.uuid4()}/{suffix}")
    foreign = api.get(f"/analysis/v1/app-customer/{other_api.app_customer_uuid}/{suffix}")

    assert unknown.status_code == foreign.status_code == 404
    assert _without_request_id(unknown.json()) == _without_request_id(foreign.json())


def _without_request_id(body: dict) -> dict:
    return {key: value for key, value in body.items() if key != "request_id"}


def test_a_bad_parameter_on_another_organisation_is_still_404(api, other_api):
    path = f"/analysis/v1/app-customer/{other_api.app_customer_uuid}/app-membership"

    _error(api.get(path, {"limit": "0"}), 404, "not_found")


def test_unauthenticated_is_401_before_anything_is_revealed(api, client):
    _error(client.get(f"/analysis/v1/app-customer/{api.app_customer_uuid}/overview"), 401, "not_authenticated")


def test_a_bad_body_field_is_named_as_the_caller_sent_it(api):
    """Not with the view's argument name that request parsing puts in between (`["body", "payload", ...]`)."""
    path = f"/analysis/v1/app-customer/{api.app_customer_uuid}/watchlist"

    body = _error(api.post(path, {"watchlist_name": ["not", "a", "name"]}), 400, "invalid_request")

    assert [error["loc"] for error in body["errors"]] == [["body", "watchlist_name"]]
    assert body["detail"] == "Invalid request: check watchlist_name."
