"""Members (extension): invite, list with the active flag, deactivate; a deactivated member can no
longer be named as a decider, assignee or actor."""

from __future__ import annotations

import json

from service.auth.models import AppMembership

V1 = "/analysis/v1"
ADMIN = ["app_admin"]


def _members_url(caller) -> str:
    return f"{V1}/app-customer/{caller.app_customer_uuid}/app-membership"


def _post(caller, path, body, roles=ADMIN):
    return caller.client.post(path, json.dumps(body), content_type="application/json", **caller.headers(roles))


def _patch(caller, path, body, roles=ADMIN):
    return caller.client.patch(path, json.dumps(body), content_type="application/json", **caller.headers(roles))


def test_it_invites_a_member_and_lists_them_active(api):
    response = _post(api, _members_url(api), {"email": " Kari@Nordbank.no ", "full_name": "Kari Nordmann"})

    assert response.status_code == 201, response.json()
    assert response.json()["email"] == "kari@nordbank.no" and response.json()["active_flag"] is True
    [listing] = api.get(_members_url(api)).json()
    assert [(m["email"], m["active_flag"]) for m in listing["elements"]] == [("kari@nordbank.no", True)]


def test_it_refuses_an_active_members_email_again_and_a_non_email(api):
    _post(api, _members_url(api), {"email": "kari@nordbank.no"})

    again = _post(api, _members_url(api), {"email": "kari@nordbank.no"})
    bad = _post(api, _members_url(api), {"email": "kari-nordbank"})

    assert again.status_code == 400 and again.json()["code"] == "already_member"
    assert again.json()["errors"][0]["loc"] == ["body", "email"]
    assert bad.status_code == 400 and bad.json()["errors"][0]["loc"] == ["body", "email"]
    assert AppMembership.objects.count() == 1


def test_a_deactivated_member_is_listed_as_such_and_refused_as_actor(api):
    kari = _post(api, _members_url(api), {"email": "kari@nordbank.no"}).json()

    response = _patch(api, f"{_members_url(api)}/{kari['uuid']}", {"active_flag": False})

    assert response.status_code == 200 and response.json()["active_flag"] is False
    [inactive] = api.get(_members_url(api), {"active_flag": "false"}).json()
    assert [m["email"] for m in inactive["elements"]] == ["kari@nordbank.no"]
    acting = _post(api, _members_url(api), {"email": "ola@nordbank.no", "app_membership_uuid": kari["uuid"]})
    assert acting.status_code == 400
    assert acting.json()["code"] == "membership_deactivated"
    assert acting.json()["errors"][0]["loc"] == ["body", "app_membership_uuid"]


def test_inviting_a_deactivated_members_email_makes_them_active_again(api):
    kari = _post(api, _members_url(api), {"email": "kari@nordbank.no"}).json()
    _patch(api, f"{_members_url(api)}/{kari['uuid']}", {"active_flag": False})

    again = _post(api, _members_url(api), {"email": "kari@nordbank.no"})

    assert again.status_code == 201 and again.json()["uuid"] == kari["uuid"] and again.json()["active_flag"] is True


def test_a_member_cannot_deactivate_themselves(api):
    kari = _post(api, _members_url(api), {"email": "kari@nordbank.no"}).json()

    response = _patch(api, f"{_members_url(api)}/{kari['uuid']}", {"active_flag": False, "app_membership_uuid": kari["uuid"]})

    assert response.status_code == 409 and response.json()["code"] == "cannot_deactivate_self"


def test_another_organisations_member_is_404(api, other_api):
    theirs = _post(other_api, _members_url(other_api), {"email": "x@fjord.no"}).json()

    assert _patch(api, f"{_members_url(api)}/{theirs['uuid']}", {"active_flag": False}).status_code == 404
    assert _post(api, _members_url(other_api), {"email": "y@fjord.no"}).status_code == 404
    assert AppMembership.objects.get(uuid=theirs["uuid"]).active_flag is True


def test_inviting_needs_the_app_admin_role(api):
    response = _post(api, _members_url(api), {"email": "kari@nordbank.no"}, roles=["aml"])

    assert response.status_code == 403
    assert not AppMembership.objects.exists()


def test_the_membership_list_holds_only_the_organisations_own_members(api, other_api):
    _post(api, _members_url(api), {"email": "kari@nordbank.no"})
    for email in ("a@fjord.no", "b@fjord.no"):
        _post(other_api, _members_url(other_api), {"email": email})

    for params in ({}, {"active_flag": "true"}, {"limit": 1000}):
        [listing] = api.get(_members_url(api), params).json()

        assert [m["email"] for m in listing["elements"]] == ["kari@nordbank.no"]
        assert listing["count"] == 1 and listing["has_more"] is False
    theirs = api.get(_members_url(other_api))  # nor by naming the other organisation
    assert theirs.status_code == 404
    assert (theirs.json()["code"], theirs.json()["detail"]) == ("not_found", "No such app customer.")
