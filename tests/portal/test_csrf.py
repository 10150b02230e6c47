"""CSRF on every dashboard URL: a POST without the token is refused before any view runs.

The URL patterns are walked from the resolver, so a view added later (csrf_exempt by mistake,
or a new app) is checked by construction. Only the APIs are left out: they authenticate each
request with basic auth or a bearer token and ignore the session cookie (asserted below).
"""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.resolvers import RoutePattern

from portal.models import Member
from service.middleware import API_PREFIXES
from tests.portal.conftest import add_member

CSRF_REFUSAL = b"CSRF verification failed"
# Fixed samples, so the parametrised ids are the same in every process (xdist).
SAMPLES = {"uuid": "6f1c8e0a-4b7d-4e2a-9c3b-2d5f7a9e1b40", "int": "1", "path": "x", "str": "x", "slug": "x"}


def _routes(patterns, prefix: str = ""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            yield prefix + str(pattern.pattern), pattern


def _sample_path(route: str, pattern: URLPattern) -> str:
    """A path that reaches `pattern`: converters get sample values, regex groups their first literal or "x"."""
    if isinstance(pattern.pattern, RoutePattern) and "^" not in route:
        path = re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLES[m.group(1) or "str"], route)
    else:
        path = re.sub(r"\(\?P<\w+>([\w|]+)\)", lambda m: m.group(1).split("|")[0], route)
        path = re.sub(r"\(\?P<\w+>[^)]*\)", "x", path).replace("^", "").replace("$", "")
    return "/" + path


def dashboard_paths() -> list[str]:
    paths = [
        _sample_path(route, pattern)
        for route, pattern in _routes(get_resolver().url_patterns)
        if not ("/" + route).startswith(API_PREFIXES)
    ]
    return sorted(set(paths))


@pytest.fixture
def browser_client(member) -> Client:
    """An admin's browser: logged in, holding the CSRF cookie of a page it has seen."""
    admin = add_member(member, "astrid", Member.Role.ADMIN)
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin.user)
    assert client.get("/").status_code == 200
    assert "csrftoken" in client.cookies
    return client


def _page_token(client: Client) -> str:
    """The token the page hands htmx in the body's hx-headers."""
    html = client.get("/").content.decode()
    headers = re.search(r"<body hx-headers='([^']*)'", html)
    assert headers, "the body carries no hx-headers"
    return json.loads(headers.group(1))["X-CSRFToken"]


def test_the_walk_reaches_the_dashboard_and_only_it():
    paths = dashboard_paths()

    for path in paths:
        resolve(path)  # every sample path reaches a view
    assert "/login/" in paths and "/logout/" in paths and "/screening/approvals/decide/" in paths
    assert "/screening/batches/upload/" in paths  # the batch upload is walked too: a POST needs the token
    assert len([p for p in paths if p.startswith("/watchlists/")]) == 9
    assert not any(p.startswith(API_PREFIXES) for p in paths)


@pytest.mark.parametrize("path", dashboard_paths(), ids=str)
def test_it_refuses_a_post_without_the_token(browser_client, path):
    response = browser_client.post(path, {"name": "x"})

    assert response.status_code == 403, f"{path} accepted a POST without a CSRF token"
    assert CSRF_REFUSAL in response.content


def test_it_refuses_a_login_post_without_the_token(db):
    client = Client(enforce_csrf_checks=True)

    response = client.post("/login/", {"username": "ingrid", "password": "x"})

    assert response.status_code == 403
    assert CSRF_REFUSAL in response.content


def test_a_form_post_with_the_token_goes_through(browser_client):
    token = browser_client.cookies["csrftoken"].value

    response = browser_client.post("/logout/", {"csrfmiddlewaretoken": token})

    assert response.status_code == 302
    assert response["Location"] == "/login/"


def test_an_htmx_post_sends_the_token_from_hx_headers(browser_client):
    path = f"/screening/cases/{uuid.uuid4()}/assign/"

    refused = browser_client.post(path, {"assignee": ""}, HTTP_HX_REQUEST="true")
    accepted = browser_client.post(
        path, {"assignee": ""}, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=_page_token(browser_client)
    )

    assert refused.status_code == 403 and CSRF_REFUSAL in refused.content
    assert CSRF_REFUSAL not in accepted.content
    assert accepted.status_code != 403


def test_the_apis_ignore_the_session_cookie(browser_client, member):
    response = browser_client.post(
        f"/analysis/v1/app-customer/{member.app_customer.uuid}/watchlist",
        {"name": "Made by a forged request"},
        content_type="application/json",
    )

    assert response.status_code == 401
