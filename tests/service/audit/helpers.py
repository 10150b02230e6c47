"""The audit log and admin endpoints' URLs, read through the API."""

from __future__ import annotations

V1 = "/analysis/v1"
ADMIN = ["app_admin"]


def audit_url(app_customer_uuid) -> str:
    return f"{V1}/app-customer/{app_customer_uuid}/audit-event"


def audit_events(caller, roles=ADMIN, **params) -> list[dict]:
    response = caller.get(audit_url(caller.app_customer_uuid), params, roles=roles)
    assert response.status_code == 200, response.json()
    [collection] = response.json()
    return collection["elements"]
