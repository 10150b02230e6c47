"""POST /screening/cases/<uuid>/review/: a review as the member, its message, and every refusal."""

from __future__ import annotations

import re

import pytest

from portal.models import Member
from portal.service import ServiceBadRequest
from portal.service.cases import CasesArea
from screening import freshness
from service.screening.models import ScreeningCase, ScreeningCaseReview
from tests.screening.helpers import QUEUE, case_url, cases_make, member_make

FALSE_POSITIVE = {"status": "false_positive", "decision": "no_match", "comment": "Born 1971, Norwegian citizen"}


@pytest.fixture
def officer():
    return member_make("Nordbank ASA", "ingrid")


def _review_url(case) -> str:
    return f"{case_url(case.uuid)}review/"


def test_a_false_positive_closes_the_case_and_it_leaves_the_open_queue(officer, lists):
    screened = cases_make(officer)
    client = officer.client()
    generation_key = freshness.cache_key(organisation_uuid=officer.organisation.app_customer_uuid, name="case-counts")

    response = client.post(_review_url(screened.pep_case), FALSE_POSITIVE, follow=True)

    page = response.content.decode()
    assert response.redirect_chain == [(case_url(screened.pep_case.uuid), 302)]
    assert "Review saved: false positive. The case is closed." in page
    history = re.search(r'data-testid="review-history">(.*)', page, re.DOTALL).group(1)
    assert "False positive" in history and "ingrid@example.com" in history and "Born 1971, Norwegian citizen" in history
    review = ScreeningCaseReview.objects.get(screening_case=screened.pep_case)
    assert review.reviewer_app_membership_id == officer.member.app_membership_uuid
    queue = client.get(QUEUE).content.decode()
    assert "Solbakken" not in queue and "Dragunov" in queue
    assert freshness.cache_key(organisation_uuid=officer.organisation.app_customer_uuid, name="case-counts") != generation_key


def test_an_ongoing_review_keeps_the_case_open_and_the_queue_link_back(officer, lists):
    screened = cases_make(officer)
    back = f"{QUEUE}?hit=sanction"

    client = officer.client()

    response = client.post(_review_url(screened.sanction_case), {"status": "in_review", "decision": "possible_match", "back": back})

    assert response.status_code == 302 and "back=" in response["Location"]
    page = client.get(response["Location"]).content.decode()
    assert "Review saved: in review. The case stays open, assigned to you." in page
    assert 'href="/screening/cases/?hit=sanction" data-testid="back-to-queue"' in page


def test_a_viewer_cannot_review(officer, lists):
    screened = cases_make(officer)
    viewer = member_make("", "vera", Member.Role.VIEWER, like=officer)

    response = viewer.client().post(_review_url(screened.pep_case), FALSE_POSITIVE)

    assert response.status_code == 403
    assert not ScreeningCaseReview.objects.exists()


def test_a_missing_choice_is_named_and_nothing_is_sent(officer, lists):
    screened = cases_make(officer)

    response = officer.client().post(_review_url(screened.pep_case), {"comment": "keep this text"})

    page = response.content.decode()
    assert response.status_code == 400
    assert "Choose what the review says" in page and "Choose the match decision" in page and "keep this text" in page
    assert not ScreeningCaseReview.objects.exists()


def test_a_refusal_of_the_service_is_shown_at_the_form(officer, lists, monkeypatch):
    screened = cases_make(officer)

    def refuse(*args, **kwargs):
        raise ServiceBadRequest(400, "four_eyes", "A second officer must close a case you escalated.")

    monkeypatch.setattr(CasesArea, "review", refuse)
    response = officer.client().post(_review_url(screened.pep_case), FALSE_POSITIVE)

    problem = re.search(r'data-testid="review-problem">(.*?)</div></div>', response.content.decode(), re.DOTALL).group(1)
    assert response.status_code == 400
    assert "The review was not saved. A second officer must close a case you escalated." in problem
    assert "Born 1971, Norwegian citizen" in response.content.decode()


def test_a_login_not_linked_to_a_service_person_is_told_so(officer, lists):
    screened = cases_make(officer)
    officer.member.app_membership_uuid = None
    officer.member.save()

    response = officer.client().post(_review_url(screened.pep_case), FALSE_POSITIVE)

    assert response.status_code == 400 and "not linked to a person in the service" in response.content.decode()


def test_another_organisations_case_is_404(officer, lists):
    screened = cases_make(officer)
    other = member_make("Fjordkreditt AS", "olav")
    from tests.screening.helpers import api_of
    from tests.service.screening.cases.steps import config_with

    config_with(api_of(other), "un_security_council")

    assert other.client().post(_review_url(screened.pep_case), FALSE_POSITIVE).status_code == 404
    assert not ScreeningCaseReview.objects.exists()


def test_escalating_or_closing_needs_a_comment_and_an_agreeing_decision(officer, lists):
    screened = cases_make(officer)
    client = officer.client()

    blank = client.post(_review_url(screened.pep_case), {**FALSE_POSITIVE, "comment": "  "})
    contradicting = client.post(_review_url(screened.pep_case), {**FALSE_POSITIVE, "decision": "match"})

    assert blank.status_code == 400
    assert "Say why in the comment: escalating or closing a case needs a reason the record keeps." in blank.content.decode()
    assert contradicting.status_code == 400
    assert "This match decision does not go with the status you chose." in contradicting.content.decode()
    assert "Born 1971, Norwegian citizen" in contradicting.content.decode()  # the comment is kept
    assert not ScreeningCaseReview.objects.exists()
    assert client.post(_review_url(screened.pep_case), {"status": "in_review", "decision": "possible_match"}).status_code == 302


def test_in_review_puts_the_reviewers_name_on_the_case(officer, lists):
    """"In review" says "I am looking at it": the case is assigned to the reviewer, the queue says Me."""
    screened = cases_make(officer)
    client = officer.client()
    page = client.get(case_url(screened.sanction_case.uuid)).content.decode()
    assert "I am looking at it: the case is assigned to me and stays open" in page  # said before choosing it

    response = client.post(_review_url(screened.sanction_case), {"status": "in_review", "decision": "possible_match"}, follow=True)

    page = response.content.decode()
    assert "Review saved: in review. The case stays open, assigned to you." in page
    assert "Assigned to <strong>you</strong>" in page
    assert ScreeningCase.objects.get(pk=screened.sanction_case.pk).assignee_app_membership_id == officer.member.app_membership_uuid
    history = re.search(r'data-testid="review-history">(.*)', page, re.DOTALL).group(1)
    assert "In review" in history and "ingrid@example.com" in history  # who set it in review, and when
    queue = client.get(QUEUE, {"assignee": "me"}).content.decode()
    assert "Dragunov" in queue and ">Me<" in queue and "Solbakken" not in queue


def test_in_review_takes_the_case_from_a_colleague_and_says_so(officer, lists):
    screened = cases_make(officer)
    colleague = member_make("", "ola", like=officer)
    colleague.client().post(f"{case_url(screened.sanction_case.uuid)}assign/", {"to": "me"})

    response = officer.client().post(_review_url(screened.sanction_case), {"status": "in_review", "decision": "possible_match"}, follow=True)

    assert ("Review saved: in review. The case stays open, assigned to you (it was assigned to ola@example.com)."
            in response.content.decode())
    assert ScreeningCase.objects.get(pk=screened.sanction_case.pk).assignee_app_membership_id == officer.member.app_membership_uuid


def test_escalating_leaves_the_assignee_alone(officer, lists):
    screened = cases_make(officer)

    officer.client().post(_review_url(screened.pep_case), {"status": "escalated", "decision": "possible_match", "comment": "Ask Anna"})

    assert ScreeningCase.objects.get(pk=screened.pep_case.pk).assignee_app_membership_id is None


def test_when_the_assignment_fails_the_review_stands_and_a_warning_says_so(officer, lists, monkeypatch):
    screened = cases_make(officer)

    def refuse(*args, **kwargs):
        raise ServiceBadRequest(400, "bad_field", "The member is not active.")

    monkeypatch.setattr(CasesArea, "assign", refuse)
    response = officer.client().post(_review_url(screened.sanction_case), {"status": "in_review", "decision": "possible_match"}, follow=True)

    page = response.content.decode()
    assert "Review saved: in review. The case stays open." in page
    assert "The case could not be assigned to you. The member is not active." in page
    assert ScreeningCaseReview.objects.filter(screening_case=screened.sanction_case).count() == 1
    assert ScreeningCase.objects.get(pk=screened.sanction_case.pk).assignee_app_membership_id is None
