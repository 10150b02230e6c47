"""The members page: the organisation's members, their dashboard role and the API roles it grants."""

import re

from django.contrib.auth import get_user_model

from portal.models import Member
from portal.roles import api_role_keys_for
from tests.portal.conftest import make_member

MEMBERS = "/members/"
ORG_ROLES = ["aml", "credit_check", "person_national_identification", "fraud_risk_score"]


def _add(organisation, username: str, role: str) -> Member:
    user = get_user_model().objects.create_user(username, password="pw")
    return Member.objects.create(user=user, organisation=organisation, role=role)


def _row(page: str, username: str) -> str:
    rows = re.findall(r'<tr data-testid="member-row">.*?</tr>', page, re.DOTALL)
    return next(row for row in rows if username in row)


def test_the_mapping_is_viewer_aml_officer_three_admin_all():
    assert api_role_keys_for(dashboard_role="viewer", organisation_role_keys=ORG_ROLES) == ["aml"]
    assert api_role_keys_for(dashboard_role="officer", organisation_role_keys=ORG_ROLES) == [
        "aml", "credit_check", "person_national_identification"
    ]
    assert api_role_keys_for(dashboard_role="admin", organisation_role_keys=ORG_ROLES) == ORG_ROLES
    assert api_role_keys_for(dashboard_role="officer", organisation_role_keys=["aml"]) == ["aml"]  # never more than the org has
    assert api_role_keys_for(dashboard_role="no-such-role", organisation_role_keys=ORG_ROLES) == []


def test_it_needs_a_login(db, client):
    assert client.get(MEMBERS).status_code == 302


def test_any_member_sees_every_member_of_the_organisation_with_the_roles_sent(db, other_member):
    viewer = make_member("Nordbank ASA", "vera", roles=ORG_ROLES, role=Member.Role.VIEWER)
    _add(viewer.organisation, "otto", Member.Role.OFFICER)
    _add(viewer.organisation, "ada", Member.Role.ADMIN)

    response = viewer.client().get(MEMBERS)

    page = response.content.decode()
    assert response.status_code == 200
    assert len(re.findall(r'data-testid="member-row"', page)) == 3
    assert "olav" not in page  # another organisation's member
    vera = _row(page, "vera")
    assert "aml" in vera and "credit_check" not in vera and "person_national_identification" not in vera
    officer = _row(page, "otto")
    assert all(key in officer for key in ("aml", "credit_check", "person_national_identification"))
    assert "fraud_risk_score" not in officer
    assert "fraud_risk_score" in _row(page, "ada")


def test_it_shows_the_mapping_for_each_dashboard_role(member):
    page = member.client().get(MEMBERS).content.decode()

    mapping = {role: re.search(rf'data-testid="role-{role}">(.*?)</tr>', page, re.DOTALL).group(1) for role in ("viewer", "officer", "admin")}
    assert "aml" in mapping["viewer"] and "credit_check" not in mapping["viewer"]
    assert "credit_check" in mapping["officer"] and "Payment remarks and credit reports" in mapping["officer"]
    assert "fraud_risk_score" not in mapping["officer"] and "fraud_risk_score" in mapping["admin"]


def test_it_is_linked_in_the_navigation(member):
    page = member.client().get("/").content.decode()

    assert 'href="/members/">Members</a>' in page


def test_each_call_for_a_member_sends_only_the_roles_their_role_grants(db):
    from portal.access import client_for_member

    viewer = make_member("Nordbank ASA", "vera", roles=ORG_ROLES, role=Member.Role.VIEWER)
    officer = _add(viewer.organisation, "otto", Member.Role.OFFICER)
    admin = _add(viewer.organisation, "ada", Member.Role.ADMIN)

    assert "Roles granted for this request: aml." in client_for_member(viewer.member).auth_status()
    assert "Roles granted for this request: aml, credit_check, person_national_identification." in (
        client_for_member(officer).auth_status()
    )
    assert f"Roles granted for this request: {', '.join(sorted(ORG_ROLES))}." in client_for_member(admin).auth_status()
