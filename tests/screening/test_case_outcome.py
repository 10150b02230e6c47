"""What an officer reads of a case's state: a closed case's outcome (queue, case page), an escalated case
the same on the case page as in the queue, what the escalator may not do said before they try, and a
match decision the service refuses explained at that field, on the case page's own address."""

from __future__ import annotations

import re

import pytest

from portal.models import Member

from service.screening.models import ScreeningCaseReview, ScreeningConfig
from tests.screening.helpers import QUEUE, case_url, cases_make, member_make

ESCALATE = {"status": "escalated", "decision": "possible_match", "comment": "Same birth year, ask Anna"}
FALSE_POSITIVE = {"status": "false_positive", "decision": "no_match", "comment": "Born 1971, Norwegian citizen"}
CONFIRM = {"status": "confirmed_hit", "decision": "match", "comment": "Same person, same birth date"}


@pytest.fixture
def officer():
    return member_make("Nordbank ASA", "anna")


def _row(queue: str, name: str) -> str:
    return re.search(rf'<tr data-testid="queue-row"[^>]*>(?:(?!</tr>).)*{name}(?:(?!</tr>).)*</tr>', queue, re.DOTALL).group(0)


def _header(page: str) -> str:
    """The case page's header: the name, the status and its badges, before the assignment."""
    return page.split('data-testid="case-subject"')[1].split('data-testid="case-assignee"')[0]


def _review_url(client, case) -> str:
    """Where the case page's review form posts, as a browser would read it."""
    page = client.get(case_url(case.uuid)).content.decode()
    return re.search(r'<form method="post" action="([^"]*)" data-testid="review-form"', page).group(1).replace("&amp;", "&")


def test_a_confirmed_hit_and_a_false_positive_read_apart_in_the_queue_and_on_the_case_page(officer, lists):
    screened = cases_make(officer)
    client = officer.client()

    client.post(_review_url(client, screened.sanction_case), CONFIRM)
    client.post(_review_url(client, screened.pep_case), FALSE_POSITIVE)

    queue = client.get(QUEUE, {"status": "all"}).content.decode()
    assert "Closed: confirmed hit" in _row(queue, "Dragunov")
    assert "Closed: false positive" in _row(queue, "Solbakken")
    assert 'title="Closed as a confirmed hit · API status complete"' in _row(queue, "Dragunov")
    assert "Closed: confirmed hit" in _header(client.get(case_url(screened.sanction_case.uuid)).content.decode())
    assert "Closed: false positive" in _header(client.get(case_url(screened.pep_case.uuid)).content.decode())


def test_a_hit_awaiting_the_second_officer_is_not_called_closed(officer, lists):
    screened = cases_make(officer)
    ScreeningConfig.objects.filter(uuid=screened.config_uuid).update(four_eyes_review_flag=True)
    member_make("", "bjorn", like=officer)  # the second officer who will confirm it
    client = officer.client()

    client.post(_review_url(client, screened.sanction_case), CONFIRM)

    header = _header(client.get(case_url(screened.sanction_case.uuid)).content.decode())
    row = _row(client.get(QUEUE, {"status": "all"}).content.decode(), "Dragunov")
    assert ">In review<" in header and "Closed" not in header
    assert ">In review<" in row and "Hit proposed · needs 2nd officer" in row and "Closed" not in row


def test_an_escalated_case_page_reads_as_its_queue_row(officer, lists):
    screened = cases_make(officer)
    client = officer.client()
    client.post(_review_url(client, screened.pep_case), ESCALATE)

    plain = _header(client.get(case_url(screened.pep_case.uuid)).content.decode())
    ScreeningConfig.objects.filter(uuid=screened.config_uuid).update(four_eyes_review_flag=True)
    four_eyes = _header(client.get(case_url(screened.pep_case.uuid)).content.decode())
    row = _row(client.get(QUEUE).content.decode(), "Solbakken")

    assert ">In review<" in plain and 'data-testid="escalation">Escalated</span>' in plain
    assert 'title="Escalated by you for a second opinion"' in plain
    assert 'data-testid="escalation">Escalated · needs 2nd officer</span>' in four_eyes
    assert 'data-testid="escalation">Escalated · needs 2nd officer</span>' in row
    assert "Escalated by you — another officer must close it (four-eyes review)" in four_eyes


def test_the_escalator_is_not_offered_to_close_the_case_under_four_eyes(officer, lists):
    screened = cases_make(officer)
    ScreeningConfig.objects.filter(uuid=screened.config_uuid).update(four_eyes_review_flag=True)
    bjorn = member_make("", "bjorn", like=officer)
    client = officer.client()
    client.post(_review_url(client, screened.pep_case), ESCALATE)

    mine = client.get(case_url(screened.pep_case.uuid)).content.decode()
    theirs = bjorn.client().get(case_url(screened.pep_case.uuid)).content.decode()

    for status in ("false_positive", "confirmed_hit"):
        assert re.search(rf'id="status-{status}" value="{status}" disabled>', mine)
        assert re.search(rf'id="status-{status}" value="{status}" required>', theirs)
    blocked = re.findall(r'data-testid="status-blocked">([^<]+)<span class="small">([^<]+)</span>', mine)
    assert blocked == [("False positive ", "· another officer must do this (four-eyes review)"),
                       ("Confirmed hit ", "· another officer must do this (four-eyes review)")]
    assert re.search(r'id="status-escalated" value="escalated" required>', mine)  # still theirs to do
    assert "status-blocked" not in theirs


def test_a_match_decision_against_the_status_is_explained_at_the_decision_on_the_case_page(officer, lists):
    screened = cases_make(officer)
    client = officer.client()
    before = client.get(case_url(screened.sanction_case.uuid)).content.decode()
    assert "A false positive goes with the match decision No match, a confirmed hit with Match." in before
    action = _review_url(client, screened.sanction_case)
    assert action == case_url(screened.sanction_case.uuid)  # not …/review/: the page after a refusal is the case's

    refused = client.post(action, {**CONFIRM, "decision": "no_match"})

    page = refused.content.decode()
    assert refused.status_code == 400
    problem = re.search(r'data-testid="decision-problem">([^<]*)<', page).group(1)
    assert problem == ("This match decision does not go with the status you chose. "
                       "A false positive goes with the match decision No match, a confirmed hit with Match.")
    assert "entity_match_decision_type_uuid" not in page and "Invalid value" not in page
    assert "Same person, same birth date" in page  # the comment is kept
    assert not ScreeningCaseReview.objects.exists()
    reloaded = client.get(action)  # a reload as a GET (or the address opened again): the case
    assert reloaded.status_code == 200 and 'data-testid="review-form"' in reloaded.content.decode()


def test_the_review_forms_former_address_opens_the_case(officer, lists):
    screened = cases_make(officer)

    response = officer.client().get(f"{case_url(screened.pep_case.uuid)}review/", {"back": f"{QUEUE}?hit=pep"})

    assert response.status_code == 302
    assert response["Location"].startswith(case_url(screened.pep_case.uuid))


def test_a_viewer_cannot_review_through_the_case_address(officer, lists):
    screened = cases_make(officer)
    viewer = member_make("", "vera", Member.Role.VIEWER, like=officer)

    response = viewer.client().post(case_url(screened.pep_case.uuid), FALSE_POSITIVE)

    assert response.status_code == 403
    assert not ScreeningCaseReview.objects.exists()
