"""Four-eyes review in the dashboard: the setup switch, and the case page and queue explaining who may close."""

from __future__ import annotations

import re

import pytest

from service.audit.models import AuditEvent
from service.screening.models import ScreeningCase, ScreeningConfig
from tests.screening.helpers import QUEUE, case_url, cases_make, member_make
from tests.screening.setup_helpers import admin, org  # noqa: F401 (fixtures)
from tests.service.screening.helpers import config_make

ESCALATE = {"status": "escalated", "decision": "possible_match", "comment": "Same birth year, ask Anna"}
CLOSE = {"status": "false_positive", "decision": "no_match", "comment": "Different person: born in Bergen"}
CONFIRM = {"status": "confirmed_hit", "decision": "match", "comment": "Same person, same birth date"}


def test_the_admin_turns_four_eyes_on_and_is_told_what_it_causes(org, admin):
    config = config_make(org.api)
    page = admin.get("/screening/setup/").content.decode()
    assert 'name="four_eyes"' in page
    assert "closed only by a second officer, never by the one who escalated or proposed it alone" in page

    response = admin.post(f"/screening/configs/{config['uuid']}/update/", {"four_eyes": "on"}, follow=True)

    assert ScreeningConfig.objects.get(uuid=config["uuid"]).four_eyes_review_flag is True
    assert "Four-eyes review is on: an escalated case or a confirmed hit is closed only by a second officer" in response.content.decode()
    assert re.search(r'id="four_eyes" name="four_eyes" checked', response.content.decode())
    event = AuditEvent.objects.filter(action_key="screening_config.update").latest("created_timestamp")
    assert event.actor_app_membership_id == org.admin.member.app_membership_uuid


def test_setting_up_screening_with_four_eyes_sends_the_flag(org, admin):
    admin.post("/screening/setup/create/", {"four_eyes": "on"})

    assert ScreeningConfig.objects.get(app_customer_id=org.admin.app_customer.uuid).four_eyes_review_flag is True


@pytest.fixture
def officers(lists):
    anna = member_make("Nordbank ASA", "anna")
    bjorn = member_make("", "bjorn", like=anna)
    screened = cases_make(anna)
    ScreeningConfig.objects.filter(uuid=screened.config_uuid).update(four_eyes_review_flag=True)
    return anna, bjorn, screened


def _review(member, case, data):
    return member.client().post(f"{case_url(case.uuid)}review/", data)


def _queue_row(member, name: str) -> str:
    queue = member.client().get(QUEUE).content.decode()
    return re.search(rf'<tr data-testid="queue-row"[^>]*>(?:(?!</tr>).)*{name}(?:(?!</tr>).)*</tr>', queue, re.DOTALL).group(0)


def test_the_escalator_is_told_before_and_refused_when_closing_and_a_second_officer_closes(officers):
    anna, bjorn, screened = officers
    case = screened.pep_case
    _review(anna, case, ESCALATE)

    page = anna.client().get(case_url(case.uuid)).content.decode()
    assert "Four-eyes review is on" in page
    assert "You escalated this case, so another officer must close it" in page

    refused = _review(anna, case, CLOSE)

    body = refused.content.decode()
    problem = re.search(r'data-testid="review-problem">(.*?)</div></div>', body, re.DOTALL).group(1)
    assert refused.status_code == 409
    assert "The review was not saved. Four-eyes review: anna@example.com escalated this case, so another officer must close it" in problem
    assert "Different person: born in Bergen" in body  # the comment is kept
    assert ScreeningCase.objects.get(pk=case.pk).case_status_key == "ongoing"

    assert "You escalated" not in bjorn.client().get(case_url(case.uuid)).content.decode()
    row = _queue_row(bjorn, "Solbakken")  # the queue says which open case waits for a second officer
    assert "Escalated · needs 2nd officer" in row
    assert "Escalated by anna@example.com — another officer must close it (four-eyes review)" in row
    closed = bjorn.client().post(f"{case_url(case.uuid)}review/", CLOSE, follow=True)

    assert "Review saved: false positive. The case is closed." in closed.content.decode()
    assert "Solbakken" not in bjorn.client().get(QUEUE).content.decode()


def test_a_confirmed_hit_is_a_proposal_until_a_second_officer_confirms_it(officers):
    anna, bjorn, screened = officers
    case = screened.sanction_case

    proposed = anna.client().post(f"{case_url(case.uuid)}review/", CONFIRM, follow=True).content.decode()

    assert "the hit is proposed, and the case stays open until a second officer confirms it" in proposed
    assert "Confirmed hit proposed by you — awaiting a second officer" in proposed
    assert "You proposed this confirmed hit, so another officer must confirm it" in proposed
    queue = bjorn.client().get(QUEUE).content.decode()
    row = re.search(r'<tr data-testid="queue-row"[^>]*>(?:(?!</tr>).)*Dragunov(?:(?!</tr>).)*</tr>', queue, re.DOTALL).group(0)
    assert "Confirmed hit proposed by anna@example.com — awaiting a second officer" in row
    assert "Confirmed hit proposed by anna@example.com — awaiting a second officer" in bjorn.client().get(case_url(case.uuid)).content.decode()

    assert _review(anna, case, CONFIRM).status_code == 409
    confirmed = bjorn.client().post(f"{case_url(case.uuid)}review/", CONFIRM, follow=True).content.decode()

    assert "Review saved: confirmed hit. The case is closed." in confirmed
    assert "awaiting a second officer" not in confirmed
    assert ScreeningCase.objects.get(pk=case.pk).case_status_key == "complete"


def test_without_four_eyes_the_form_says_nothing_of_it(lists):
    anna = member_make("Nordbank ASA", "anna")
    screened = cases_make(anna)
    _review(anna, screened.pep_case, ESCALATE)

    page = anna.client().get(case_url(screened.pep_case.uuid)).content.decode()

    assert "Four-eyes review is on" not in page and "You escalated" not in page
    row = _queue_row(anna, "Solbakken")
    assert 'data-testid="escalation">Escalated</span>' in row and "needs 2nd officer" not in row
    assert "Escalated by you for a second opinion" in row


def test_the_escalator_confirms_a_hit_the_other_officer_proposed(officers):
    """Two officers are enough: Anna escalates, Bjørn proposes the hit, Anna confirms it."""
    anna, bjorn, screened = officers
    case = screened.sanction_case
    _review(anna, case, ESCALATE)
    _review(bjorn, case, CONFIRM)

    page = anna.client().get(case_url(case.uuid)).content.decode()
    assert ("You escalated this case: you may confirm the hit bjorn@example.com proposed, but rejecting it "
            "(false positive) needs another officer.") in page
    confirmed = anna.client().post(f"{case_url(case.uuid)}review/", CONFIRM, follow=True).content.decode()

    assert "Review saved: confirmed hit. The case is closed." in confirmed
    assert ScreeningCase.objects.get(pk=case.pk).case_status_key == "complete"


def test_a_proposal_left_when_four_eyes_is_switched_off_awaits_nobody(officers):
    anna, bjorn, screened = officers
    case = screened.sanction_case
    _review(anna, case, CONFIRM)
    ScreeningConfig.objects.filter(uuid=screened.config_uuid).update(four_eyes_review_flag=False)

    page = anna.client().get(case_url(case.uuid)).content.decode()
    row = _queue_row(bjorn, "Dragunov")

    assert "awaiting a second officer" not in page and "You proposed" not in page
    assert "Hit proposed" not in row
    confirmed = anna.client().post(f"{case_url(case.uuid)}review/", CONFIRM, follow=True).content.decode()
    assert "Review saved: confirmed hit. The case is closed." in confirmed


def _too_few(page: str) -> str | None:
    found = re.search(r'data-testid="four-eyes-too-few">(.*?)</div>', page, re.DOTALL)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()) if found else None


def test_with_a_single_member_able_to_review_the_queue_and_the_case_page_warn_that_no_case_can_close(lists):
    """Four-eyes review on, and Anna the only officer: an escalated case or a confirmed hit waits for a second
    officer who does not exist. Where cases are worked, everyone is told; an admin gets the way out."""
    from portal.models import Member

    anna = member_make("Nordbank ASA", "anna")
    screened = cases_make(anna)
    viewer = member_make("", "vera", Member.Role.VIEWER, like=anna)
    ScreeningConfig.objects.filter(uuid=screened.config_uuid).update(four_eyes_review_flag=True)

    for page in (anna.client().get(QUEUE).content.decode(), anna.client().get(case_url(screened.pep_case.uuid)).content.decode()):
        assert _too_few(page) == ("Four-eyes review is on, but you are the only member who can review cases: an escalated "
                                  "case or a confirmed hit waits for a second officer, so it cannot be closed. An admin adds a "
                                  "second compliance officer or admin under Members, or switches four-eyes review off in the "
                                  "screening setup.")
    assert _too_few(viewer.client().get(QUEUE).content.decode()).startswith(
        "Four-eyes review is on, but anna@example.com is the only member who can review cases")

    # An admin (not linked to a service person, so not a reviewer) is shown where to fix it.
    admin = member_make("", "ada", Member.Role.ADMIN, like=anna)
    admin.member.app_membership_uuid = None
    admin.member.save()
    warning = re.search(r'data-testid="four-eyes-too-few">(.*?)</div>', admin.client().get(QUEUE).content.decode(), re.DOTALL).group(1)
    assert 'href="/members/"' in warning and 'href="/screening/setup/"' in warning
    setup = admin.client().get("/screening/setup/").content.decode()  # where four-eyes is switched on, too
    assert _too_few(setup).startswith("Four-eyes review is on, but anna@example.com is the only member who can review cases")

    member_make("", "bjorn", like=anna)  # a second officer: four eyes can close cases
    assert _too_few(anna.client().get(QUEUE).content.decode()) is None
    assert _too_few(anna.client().get(case_url(screened.pep_case.uuid)).content.decode()) is None
    assert _too_few(admin.client().get("/screening/setup/").content.decode()) is None


def test_without_four_eyes_a_single_officer_is_not_warned(lists):
    anna = member_make("Nordbank ASA", "anna")
    screened = cases_make(anna)

    assert _too_few(anna.client().get(QUEUE).content.decode()) is None
    assert _too_few(anna.client().get(case_url(screened.pep_case.uuid)).content.decode()) is None


def test_a_deactivated_second_officer_brings_the_warning_back(officers):
    anna, bjorn, screened = officers
    assert _too_few(anna.client().get(QUEUE).content.decode()) is None

    bjorn.user.is_active = False
    bjorn.user.save()

    assert "you are the only member who can review cases" in _too_few(anna.client().get(QUEUE).content.decode())
