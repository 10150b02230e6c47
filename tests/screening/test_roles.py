"""Roles in the dashboard (issue #23 item 8): viewers read, officers review, admins configure and approve.

Each screening POST refuses the wrong role with the framed 403 page and changes nothing; each page
hides the controls the role cannot use; an unreachable service is a sentence saying what to do."""

from __future__ import annotations

import uuid

import pytest

from portal.models import Member
from service.audit.models import AuditEvent
from tests.screening.helpers import QUEUE, case_url, cases_make, member_make

VIEWER, OFFICER, ADMIN = Member.Role.VIEWER, Member.Role.OFFICER, Member.Role.ADMIN
SOME = uuid.UUID(int=7)
ADMIN_POSTS = [
    "/screening/setup/create/",
    f"/screening/configs/{SOME}/update/",
    f"/screening/configs/{SOME}/lists/",
    f"/screening/configs/{SOME}/watchlists/attach/",
    f"/screening/configs/{SOME}/watchlists/{SOME}/detach/",
    "/screening/approvals/decide/",
    "/screening/approvals/remove/",
    "/screening/approvals/customer-person/",
    f"/screening/customer-persons/{SOME}/correct/",
    f"/screening/customer-persons/{SOME}/national-ids/",
    f"/screening/customer-persons/{SOME}/addresses/",
    f"/screening/customer-persons/{SOME}/national-ids/{SOME}/remove/",
    f"/screening/customer-persons/{SOME}/addresses/{SOME}/remove/",
]


@pytest.fixture
def team(lists):
    officer = member_make("Nordbank ASA", "otto")
    people = {OFFICER: officer, VIEWER: member_make("", "vera", VIEWER, like=officer), ADMIN: member_make("", "ada", ADMIN, like=officer)}
    return people, cases_make(officer)


@pytest.mark.parametrize("role", [VIEWER, OFFICER])
def test_only_admins_configure_and_approve(team, role):
    people, _ = team
    client = people[role].client()

    for path in ADMIN_POSTS:
        response = client.post(path, {"action": f"approve:{SOME}", "four_eyes": "on", "category": str(SOME)})
        assert response.status_code == 403, path
        assert 'data-testid="error-403"' in response.content.decode(), path
    assert not AuditEvent.objects.filter(actor_app_membership_id=people[role].member.app_membership_uuid).exists()


def test_viewers_neither_review_nor_assign(team):
    people, screened = team
    client = people[VIEWER].client()
    url = case_url(screened.pep_case.uuid)

    for response in (client.post(f"{url}review/", {"status": "false_positive", "decision": "no_match"}),
                     client.post(f"{url}assign/", {"to": "me"})):
        assert response.status_code == 403 and 'data-testid="error-403"' in response.content.decode()
    assert not AuditEvent.objects.filter(action_key__startswith="screening_case").exists()


def test_each_page_shows_only_the_controls_of_the_role(team):
    people, screened = team
    url = case_url(screened.pep_case.uuid)
    viewer, officer, admin = (people[r].client() for r in (VIEWER, OFFICER, ADMIN))

    viewer_case = viewer.get(url).content.decode()
    assert 'data-testid="review-read-only"' in viewer_case
    assert 'data-testid="review-form"' not in viewer_case and "Assign to me" not in viewer_case
    assert "Assign to me" not in viewer.get(QUEUE).content.decode()
    officer_case = officer.get(url).content.decode()
    assert 'data-testid="review-form"' in officer_case and "Assign to me" in officer_case

    for client in (viewer, officer):
        setup = client.get("/screening/setup/").content.decode()
        assert 'data-testid="read-only"' in setup and "Save choices" not in setup and "Attach</button>" not in setup
        approvals = client.get("/screening/approvals/").content.decode()
        assert 'data-testid="read-only"' in approvals and 'name="action"' not in approvals
    assert "Save choices" in admin.get("/screening/setup/").content.decode()


@pytest.fixture
def unreachable(settings, monkeypatch):
    """The service's address points at a closed port: every call fails to connect (no waiting between retries)."""
    from portal.service.client import ServiceClient

    settings.VAKT_SERVICE_URL = "http://127.0.0.1:9"
    monkeypatch.setattr(ServiceClient, "_sleep", lambda self, attempt: None)


def test_an_unreachable_service_is_a_sentence_never_a_trace(team, unreachable):
    people, screened = team
    admin, officer = people[ADMIN].client(), people[OFFICER].client()
    url = case_url(screened.pep_case.uuid)

    pages = [admin.get(p) for p in ("/screening/setup/", QUEUE, url, "/screening/approvals/", "/members/audit/")]
    review = officer.post(f"{url}review/", {"status": "false_positive", "decision": "no_match", "comment": "kept"})

    for response in [*pages, review]:
        body = response.content.decode()
        assert "The service could not be reached" in body, response.request["PATH_INFO"]
        assert "Try again in a moment" in body
        assert "Traceback" not in body and "ConnectionError" not in body and "127.0.0.1:9" not in body
    assert review.status_code == 503
