"""The API user admin endpoints (extension, `app_admin`): list, create, change roles, rotate, deactivate."""

from __future__ import annotations

import base64
import json

import pytest

from tests.conftest import make_caller

V1 = "/analysis/v1"
ADMIN = ["app_admin"]


def _users_url(caller) -> str:
    return f"{V1}/app-customer/{caller.app_customer_uuid}/api-user"


def _post(caller, path, body, roles=ADMIN):
    return caller.client.post(path, json.dumps(body), content_type="application/json", **caller.headers(roles))


def _patch(caller, path, body, roles=ADMIN):
    return caller.client.patch(path, json.dumps(body), content_type="application/json", **caller.headers(roles))


def _basic(client, basic_id, secret):
    raw = base64.b64encode(f"{basic_id}:{secret}".encode()).decode()
    return client.get(f"{V1}/auth-status", HTTP_AUTHORIZATION=f"Basic {raw}")


def _token(client, token_id, secret):
    response = client.post(
        "/oauth/token",
        json.dumps({"grant_type": "client_credentials", "client_id": token_id, "client_secret": secret,
                    "audience": "http://testserver/analysis"}),
        content_type="application/json",
    )
    return response.json().get("access_token") if response.status_code == 200 else None


def _bearer(client, token):
    return client.get(f"{V1}/auth-status", HTTP_AUTHORIZATION=f"Bearer {token}")


def test_it_creates_an_api_user_showing_its_secrets_once_and_lists_it_without_them(api):
    created = _post(api, _users_url(api), {"name": "ERP integration", "role_keys": ["aml"]})

    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["api_user"]["role_keys"] == ["aml"] and body["api_user"]["active_flag"] is True
    assert _basic(api.client, body["basic_auth_id"], body["basic_auth_secret"]).status_code == 200
    [listing] = api.get(_users_url(api), roles=ADMIN).json()
    assert "ERP integration" in [u["name"] for u in listing["elements"]]
    assert body["basic_auth_secret"] not in json.dumps(listing) and body["token_auth_secret"] not in json.dumps(listing)


def test_it_grants_only_roles_the_calling_api_user_holds(db):
    caller = make_caller("Aml Admin AS", roles=["aml", "app_admin"])

    response = _post(caller, _users_url(caller), {"name": "Greedy", "role_keys": ["aml", "credit_check"]})

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"loc": ["body", "role_keys"], "msg": "the organisation does not have the role(s) credit_check"}
    ]


def test_it_rotates_only_an_api_user_whose_roles_the_calling_api_user_holds(db):
    # Rotation hands over working secrets: an admin without credit_check must not obtain a colleague's that carry it.
    from service.auth.models import AppCustomer
    from service.auth.services import api_user_create

    caller = make_caller("Aml Admin AS", roles=["aml", "app_admin"])
    organisation = AppCustomer.objects.get(uuid=caller.app_customer_uuid)
    credit = api_user_create(app_customer=organisation, name="Credit desk", role_keys=["credit_check"]).api_user
    screening = api_user_create(app_customer=organisation, name="Screening", role_keys=["aml"]).api_user

    refused = _post(caller, f"{_users_url(caller)}/{credit.uuid}/secret-rotation", {})

    assert refused.status_code == 403 and refused.json()["code"] == "role_missing"
    assert "credit_check" in refused.json()["detail"] and "secret" not in refused.content.decode()
    assert _post(caller, f"{_users_url(caller)}/{screening.uuid}/secret-rotation", {}).status_code == 201


def test_it_changes_roles_and_the_next_request_sees_them(api):
    body = _post(api, _users_url(api), {"name": "ERP", "role_keys": ["aml"]}).json()
    url = f"{_users_url(api)}/{body['api_user']['uuid']}"
    raw = base64.b64encode(f"{body['basic_auth_id']}:{body['basic_auth_secret']}".encode()).decode()
    status = lambda: api.client.get(f"{V1}/auth-status", HTTP_AUTHORIZATION=f"Basic {raw}", HTTP_NK_ROLE_KEYS="aml,credit_check")  # noqa: E731
    assert status().content.decode().strip().endswith("aml.")

    changed = _patch(api, url, {"role_keys": ["credit_check"]})

    assert changed.status_code == 200 and changed.json()["role_keys"] == ["credit_check"]
    assert status().content.decode().strip().endswith("credit_check.")


def test_rotating_stops_the_old_basic_secret_and_old_tokens_at_once(api):
    body = _post(api, _users_url(api), {"name": "ERP", "role_keys": ["aml"]}).json()
    old_token = _token(api.client, body["token_auth_id"], body["token_auth_secret"])
    assert _bearer(api.client, old_token).status_code == 200
    assert _basic(api.client, body["basic_auth_id"], body["basic_auth_secret"]).status_code == 200  # now remembered

    rotated = _post(api, f"{_users_url(api)}/{body['api_user']['uuid']}/secret-rotation", {})

    assert rotated.status_code == 201
    new = rotated.json()
    assert new["basic_auth_secret"] != body["basic_auth_secret"] and new["basic_auth_id"] == body["basic_auth_id"]
    assert _basic(api.client, body["basic_auth_id"], body["basic_auth_secret"]).status_code == 401
    assert _bearer(api.client, old_token).status_code == 401
    assert _token(api.client, body["token_auth_id"], body["token_auth_secret"]) is None
    assert _basic(api.client, new["basic_auth_id"], new["basic_auth_secret"]).status_code == 200
    assert _bearer(api.client, _token(api.client, new["token_auth_id"], new["token_auth_secret"])).status_code == 200


def test_deactivating_stops_its_credentials_and_cannot_be_undone_or_rotated(api):
    body = _post(api, _users_url(api), {"name": "ERP", "role_keys": ["aml"]}).json()
    url = f"{_users_url(api)}/{body['api_user']['uuid']}"
    token = _token(api.client, body["token_auth_id"], body["token_auth_secret"])
    assert _basic(api.client, body["basic_auth_id"], body["basic_auth_secret"]).status_code == 200

    response = _patch(api, url, {"active_flag": False})

    assert response.status_code == 200 and response.json()["active_flag"] is False
    assert _basic(api.client, body["basic_auth_id"], body["basic_auth_secret"]).status_code == 401
    assert _bearer(api.client, token).status_code == 401
    assert _post(api, f"{url}/secret-rotation", {}).status_code == 409
    assert _patch(api, url, {"active_flag": True}).status_code == 400


def test_a_patch_with_roles_and_deactivation_does_both_with_a_record_each(api):
    from service.audit.models import AuditEvent

    body = _post(api, _users_url(api), {"name": "ERP", "role_keys": ["aml"]}).json()
    url = f"{_users_url(api)}/{body['api_user']['uuid']}"

    response = _patch(api, url, {"role_keys": ["credit_check"], "active_flag": False})

    assert response.status_code == 200, response.json()
    assert (response.json()["role_keys"], response.json()["active_flag"]) == (["credit_check"], False)
    assert _basic(api.client, body["basic_auth_id"], body["basic_auth_secret"]).status_code == 401
    records = AuditEvent.objects.filter(object_uuid=body["api_user"]["uuid"]).exclude(action_key="api_user.create")
    assert [(r.action_key, r.before, r.after) for r in records.order_by("created_timestamp", "pk")] == [
        ("api_user.roles_change", {"role_keys": ["aml"], "active_flag": True}, {"role_keys": ["credit_check"], "active_flag": True}),
        ("api_user.deactivate", {"role_keys": ["credit_check"], "active_flag": True}, {"role_keys": ["credit_check"], "active_flag": False}),
    ]


def test_a_failure_while_deactivating_leaves_the_roles_unchanged_too(api, monkeypatch):
    from django.test import Client

    from service.audit.models import AuditEvent
    from service.auth import services
    from tests.conftest import ApiCaller

    body = _post(api, _users_url(api), {"name": "ERP", "role_keys": ["aml"]}).json()
    url = f"{_users_url(api)}/{body['api_user']['uuid']}"
    written = []

    def second_record_fails(**record):
        written.append(record["action"])
        if len(written) == 2:
            raise RuntimeError("the database went away")
        return audit_record(**record)

    audit_record = services.audit_record
    monkeypatch.setattr(services, "audit_record", second_record_fails)
    failing = ApiCaller(Client(raise_request_exception=False), api.credentials)

    response = _patch(failing, url, {"role_keys": ["credit_check"], "active_flag": False})

    assert response.status_code == 500 and written == ["api_user.roles_change", "api_user.deactivate"]
    [listing] = api.get(_users_url(api), roles=ADMIN).json()
    [erp] = [u for u in listing["elements"] if u["uuid"] == body["api_user"]["uuid"]]
    assert (erp["role_keys"], erp["active_flag"]) == (["aml"], True)  # not the roles without the deactivation
    assert not AuditEvent.objects.filter(object_uuid=erp["uuid"]).exclude(action_key="api_user.create").exists()


def test_an_api_user_cannot_deactivate_itself(api):
    response = _patch(api, f"{_users_url(api)}/{api.credentials.api_user.uuid}", {"active_flag": False})

    assert response.status_code == 409
    assert response.json()["code"] == "cannot_deactivate_self"


@pytest.mark.parametrize("method", ["get_one", "patch", "rotate"])
def test_another_organisations_api_user_is_404(api, other_api, method):
    theirs = other_api.credentials.api_user.uuid
    url = f"{_users_url(api)}/{theirs}"
    if method == "patch":
        response = _patch(api, url, {"role_keys": []})
    elif method == "rotate":
        response = _post(api, f"{url}/secret-rotation", {})
    else:
        response = api.get(_users_url(other_api), roles=ADMIN)
    assert response.status_code == 404
    assert list(other_api.credentials.api_user.roles.all()) != []


def test_it_needs_the_app_admin_role(api):
    response = _post(api, _users_url(api), {"name": "ERP", "role_keys": []}, roles=["aml"])

    assert response.status_code == 403
    assert "app_admin" in response.json()["detail"]
