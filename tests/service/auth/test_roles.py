"""The Nk-Role-Keys header (spec §5.3) and the role error (spec §7)."""

import json
import uuid

import pytest

from service.auth.principal import Principal
from service.errors import RoleMissing, error_response
from tests.conftest import make_caller

AUTH_STATUS = "/analysis/v1/auth-status"
SPEC_WORDING = (
    "Missing role(s): credit_check. Do you have access to the role, "
    "and have you added it to the Nk-Role-Keys header?"
)


def _granted(response) -> str:
    assert response.status_code == 200
    text = response.content.decode()
    return text.split("Roles granted for this request:")[1].strip()


def _principal(*, assigned=(), requested=()) -> Principal:
    return Principal(
        api_user_uuid=uuid.uuid4(),
        app_customer_uuid=uuid.uuid4(),
        assigned_roles=frozenset(assigned),
        requested_roles=frozenset(requested),
    )


def test_it_grants_no_role_without_the_header(api):
    assert _granted(api.get(AUTH_STATUS)) == "none."


def test_it_grants_requested_roles_that_are_assigned(api):
    response = api.get(AUTH_STATUS, roles=["credit_check", "aml"])

    assert _granted(response) == "aml, credit_check."


def test_it_ignores_requested_roles_that_are_not_assigned(db):
    caller = make_caller("Aml Only AS", roles=["aml"])

    response = caller.get(AUTH_STATUS, roles=["aml", "credit_check", "no_such_role"])

    assert _granted(response) == "aml."


def test_assigned_roles_are_not_granted_unless_requested(db):
    caller = make_caller("Aml Only AS", roles=["aml"])

    assert _granted(caller.get(AUTH_STATUS, roles=["credit_check"])) == "none."


def test_it_reads_a_header_with_spaces_and_empty_items(api):
    response = api.client.get(AUTH_STATUS, **api.headers(), HTTP_NK_ROLE_KEYS=" aml , ,credit_check ,")

    assert _granted(response) == "aml, credit_check."


def test_the_header_works_with_a_bearer_token(api, client):
    creds = api.credentials
    token = client.post(
        "/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": creds.token_auth_id,
            "client_secret": creds.token_auth_secret,
            "audience": "http://testserver/analysis",
        },
        content_type="application/json",
    ).json()["access_token"]

    response = client.get(AUTH_STATUS, HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_NK_ROLE_KEYS="aml")

    assert _granted(response) == "aml."


def test_require_passes_when_the_role_is_granted():
    _principal(assigned={"aml", "credit_check"}, requested={"credit_check"}).require("credit_check")


@pytest.mark.parametrize(
    "assigned, requested",
    [
        ({"credit_check"}, set()),  # assigned, not in the header
        (set(), {"credit_check"}),  # in the header, not assigned
        ({"aml"}, {"aml"}),  # another role
    ],
)
def test_require_refuses_a_role_that_is_not_granted(assigned, requested):
    with pytest.raises(RoleMissing) as caught:
        _principal(assigned=assigned, requested=requested).require("credit_check")

    assert caught.value.detail == SPEC_WORDING


def test_the_role_error_is_a_403_in_the_error_shape():
    with pytest.raises(RoleMissing) as caught:
        _principal(assigned={"aml"}, requested={"aml"}).require("aml", "credit_check")

    response = error_response(caught.value)

    assert response.status_code == 403
    body = json.loads(response.content)
    assert body == {
        "detail": SPEC_WORDING,
        "code": "role_missing",
        "errors": [{"loc": ["header", "Nk-Role-Keys"], "msg": "missing role: credit_check"}],
        "request_id": "",  # outside a request
    }


def test_the_role_error_names_every_missing_role():
    with pytest.raises(RoleMissing) as caught:
        _principal().require("aml", "credit_check")

    assert caught.value.detail.startswith("Missing role(s): aml, credit_check. Do you have access")
    assert [e["msg"] for e in caught.value.errors] == ["missing role: aml", "missing role: credit_check"]


# Through a real role-gated endpoint: collection cases need credit_check (spec §4.2).
COLLECTION_CASES = "/analysis/v1/collection-case-composite"
UNKNOWN_DEBTOR = {"debtor_company_identifier": "NO923609016"}  # valid org nr, not in the database


def test_a_gated_endpoint_answers_403_without_the_header(api):
    response = api.get(COLLECTION_CASES, UNKNOWN_DEBTOR)

    assert response.status_code == 403
    assert response.json() == {
        "detail": SPEC_WORDING,
        "code": "role_missing",
        "errors": [{"loc": ["header", "Nk-Role-Keys"], "msg": "missing role: credit_check"}],
        "request_id": response["X-Request-Id"],
    }


def test_a_gated_endpoint_answers_403_for_a_requested_role_that_is_not_assigned(db):
    caller = make_caller("Aml Only AS", roles=["aml"])

    response = caller.get(COLLECTION_CASES, UNKNOWN_DEBTOR, roles=["credit_check"])

    assert response.status_code == 403
    assert response.json()["detail"] == SPEC_WORDING


def test_a_gated_endpoint_lets_a_granted_role_through(api):
    response = api.get(COLLECTION_CASES, UNKNOWN_DEBTOR, roles=["credit_check"])

    assert response.status_code == 404  # past the role check, to the lookup
    assert response.json()["code"] == "not_found"


def test_without_the_header_no_role_is_requested():
    from django.test import RequestFactory

    from service.auth.principal import requested_roles_from

    assert requested_roles_from(RequestFactory().get(AUTH_STATUS)) == frozenset()
    with_header = RequestFactory().get(AUTH_STATUS, HTTP_NK_ROLE_KEYS=" aml ,, credit_check")
    assert requested_roles_from(with_header) == frozenset({"aml", "credit_check"})


@pytest.mark.parametrize(
    ("assigned", "requested", "has"),
    [(["aml"], ["aml"], True), (["aml"], [], False), ([], ["aml"], False), (["aml", "credit_check"], ["credit_check"], False)],
)
def test_has_role_needs_the_role_both_assigned_and_requested(assigned, requested, has):
    assert _principal(assigned=assigned, requested=requested).has_role("aml") is has
