"""URLs, a PATCH and a PUT for the `api` caller, a watchlist maker and a signal recorder for the watchlist tests."""

from __future__ import annotations

import json

import pytest

from service.watchlists.signals import watchlist_companies_changed


def watchlists_url(app_customer_uuid) -> str:
    return f"/analysis/v1/app-customer/{app_customer_uuid}/watchlist"


def watchlist_url(watchlist_uuid) -> str:
    return f"/analysis/v1/watchlist/{watchlist_uuid}"


def companies_url(watchlist_uuid) -> str:
    return f"/analysis/v1/watchlist/{watchlist_uuid}/company"


def entry(company, *, spaced: bool = False) -> dict:
    org_nr = company.org_nr
    if spaced:
        org_nr = f"{org_nr[:3]} {org_nr[3:6]} {org_nr[6:]}"
    return {"org_nr": org_nr, "org_nr_schema": company.org_nr_schema}


def patch(caller, path: str, body):
    return caller.client.patch(path, json.dumps(body), content_type="application/json", **caller.headers())


def put(caller, path: str, body, *, roles=None):
    return caller.client.put(path, json.dumps(body), content_type="application/json", **caller.headers(roles))


def watchlist_make(caller, name: str = "Kunder", companies=()) -> str:
    """A watchlist of the caller's organisation made through the API, filled with `companies`; its uuid."""
    response = caller.post(watchlists_url(caller.app_customer_uuid), {"watchlist_name": name})
    assert response.status_code == 201, response.json()
    watchlist_uuid = response.json()["uuid"]
    if companies:
        added = caller.post(companies_url(watchlist_uuid), [entry(c) for c in companies])
        assert added.status_code == 200, added.json()
    return watchlist_uuid


class SignalRecorder:
    def __init__(self) -> None:
        self.calls: list[dict] = []

    def __call__(self, sender, **kwargs) -> None:
        kwargs.pop("signal", None)
        self.calls.append(kwargs)


@pytest.fixture
def changes():
    """Every watchlist_companies_changed sent during the test, as its keyword arguments."""
    recorder = SignalRecorder()
    watchlist_companies_changed.connect(recorder, dispatch_uid="test-recorder")
    yield recorder.calls
    watchlist_companies_changed.disconnect(dispatch_uid="test-recorder")
