"""Handing a case to a colleague from the case page: only active officers and admins of the organisation
who are linked to a person of the service are offered, and only they are accepted."""

from __future__ import annotations

import re

from portal.models import Member
from service.screening.models import ScreeningCase
from tests.screening.helpers import case_url, cases_make, member_make


def _offered(page: str) -> list[str]:
    return re.findall(r'data-testid="assign-to-colleague">([^<]+?) <', page)


def test_an_officer_hands_a_case_to_a_colleague(lists):
    officer = member_make("Nordbank ASA", "ingrid")
    screened = cases_make(officer)
    olav = member_make("", "olav", Member.Role.ADMIN, like=officer)
    member_make("", "vera", Member.Role.VIEWER, like=officer)  # reads cases, reviews none
    gone = member_make("", "gunnar", Member.Role.OFFICER, like=officer)
    gone.user.is_active = False
    gone.user.save()
    client = officer.client()
    url = case_url(screened.sanction_case.uuid)

    assert _offered(client.get(url).content.decode()) == ["olav@example.com"]

    response = client.post(f"{url}assign/", {"to": str(olav.member.uuid), "back": url}, follow=True)

    page = response.content.decode()
    assert "Assigned to olav@example.com." in page and "Assigned to <strong>olav@example.com</strong>" in page
    assert ScreeningCase.objects.get(uuid=screened.sanction_case.uuid).assignee_app_membership_id == olav.member.app_membership_uuid
    assert _offered(page) == []  # olav has it; nobody else reviews
    assert olav.client().get(url).content.decode().count("Assigned to <strong>you</strong>") == 1


def test_nobody_else_is_accepted_and_nothing_is_assigned(lists):
    officer = member_make("Nordbank ASA", "ingrid")
    screened = cases_make(officer)
    viewer = member_make("", "vera", Member.Role.VIEWER, like=officer)
    stranger = member_make("Fjordkreditt AS", "olav")
    url = case_url(screened.sanction_case.uuid)

    for to in (str(viewer.member.uuid), str(stranger.member.uuid), "someone"):
        page = officer.client().post(f"{url}assign/", {"to": to, "back": url}, follow=True).content.decode()
        assert "Choose yourself, nobody or a colleague who reviews cases" in page
    assert ScreeningCase.objects.get(uuid=screened.sanction_case.uuid).assignee_app_membership_id is None
