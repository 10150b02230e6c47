"""HTTP rules shared by every API endpoint: content negotiation, unreadable bodies."""

import pytest

from service.api import analysis_api, datasets_api
from service.errors import ApiError


def test_it_answers_json_when_json_is_accepted(api):
    url = f"/analysis/v1/app-customer/{api.app_customer_uuid}/overview"
    for accept in ("application/json", "*/*", "application/*", "text/html,application/json;q=0.9"):
        response = api.client.get(url, HTTP_ACCEPT=accept, **api.headers())
        assert response.status_code == 200, accept


def test_it_refuses_an_accept_header_without_json(api):
    url = f"/analysis/v1/app-customer/{api.app_customer_uuid}/overview"
    response = api.client.get(url, HTTP_ACCEPT="application/xml", **api.headers())
    assert response.status_code == 406
    body = response.json()
    assert body["code"] == "not_acceptable"
    assert body["errors"][0]["loc"] == ["header", "Accept"]


def test_it_serves_plain_text_endpoints_to_text_clients(api):
    response = api.client.get("/analysis/v1/auth-status", HTTP_ACCEPT="text/plain", **api.headers())
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")


def test_it_refuses_a_write_that_cannot_take_json_before_the_view_runs(api):
    response = api.client.post(
        "/oauth/token",
        '{"grant_type": "client_credentials"}',
        content_type="application/json",
        HTTP_ACCEPT="text/html",
    )
    # The view would have answered 400 (missing fields): the request never reached it.
    assert response.status_code == 406


def test_a_json_body_nested_a_thousand_deep_is_a_400_for_every_api_operation(rf):
    """No operation takes a body yet on every branch, so ninja's body parser is asked directly."""
    request = rf.post("/analysis/v1/x", "[" * 1000 + "]" * 1000, content_type="application/json")
    for api in (analysis_api, datasets_api):
        with pytest.raises(ApiError) as caught:
            api.parser.parse_body(request)
        assert caught.value.status == 400
        assert caught.value.errors == [{"loc": ["body"], "msg": "nested too deeply"}]
