"""/screening/cases/batch/: the queue's selected cases assigned, or closed as false positives with one
comment, all or none; a refusal shows the queue again with the selection and the comment kept."""

from __future__ import annotations

import re

import pytest

from portal.models import Member
from service.audit.models import AuditEvent
from service.screening.models import ScreeningCase, ScreeningCaseReview, ScreeningConfig, ScreeningListEntry
from tests.screening.helpers import QUEUE, api_of, case_url, cases_make, member_make
from tests.service.screening.cases.conftest import PEP_PERSON
from tests.service.screening.cases.steps import config_with, customer_person_screened

BATCH = "/screening/cases/batch/"
WHY = "Other persons: born decades apart, other nationality."


@pytest.fixture
def officer(lists):
    return member_make("Nordbank ASA", "ingrid")


def _selected(html: str) -> list[str]:
    return re.findall(r'name="case" value="([^"]+)" form="case-batch" checked', html)


def test_it_closes_the_selected_cases_as_false_positives_with_the_comment(officer):
    screened = cases_make(officer)
    back = f"{QUEUE}?hit=pep"

    response = officer.client().post(BATCH, {"case": [str(screened.pep_case.uuid)], "action": "false_positive",
                                             "comment": WHY, "back": back}, follow=True)

    assert response.redirect_chain[-1][0] == back  # back to the queue as it was filtered
    page = response.content.decode()
    assert "1 case closed as false positive." in page
    [review] = ScreeningCaseReview.objects.filter(screening_case=screened.pep_case)
    assert (review.screening_case_review_status.key, review.entity_match_decision_type.key) == ("false_positive", "no_match")
    assert review.screening_case_review_comment == WHY and review.reviewer_app_membership_id == officer.member.app_membership_uuid
    assert ScreeningCase.objects.get(pk=screened.pep_case.pk).case_status_key == "complete"
    assert ScreeningCase.objects.get(pk=screened.sanction_case.pk).case_status_key == "pending"  # not selected
    assert "Solbakken" not in officer.client().get(QUEUE).content.decode()


def test_it_assigns_the_selected_cases_to_a_colleague(officer):
    screened = cases_make(officer)
    colleague = member_make("", "ola", like=officer)
    both = [str(screened.pep_case.uuid), str(screened.sanction_case.uuid)]

    page = officer.client().get(QUEUE).content.decode()
    assert f'<option value="{colleague.member.uuid}">ola@example.com</option>' in page
    response = officer.client().post(BATCH, {"case": both, "action": "assign", "to": str(colleague.member.uuid), "back": QUEUE}, follow=True)

    assert "2 cases assigned to ola@example.com." in response.content.decode()
    assert set(ScreeningCase.objects.values_list("assignee_app_membership_id", flat=True)) == {colleague.member.app_membership_uuid}
    assert AuditEvent.objects.filter(action_key="screening_case.assign").count() == 2
    mine = officer.client().post(BATCH, {"case": both, "action": "assign", "to": "me", "back": QUEUE}, follow=True)
    assert "2 cases assigned to you." in mine.content.decode()
    stranger = officer.client().post(BATCH, {"case": both, "action": "assign", "to": str(screened.pep_case.uuid), "back": QUEUE})
    assert stranger.status_code == 400 and "Choose yourself, nobody or a colleague" in stranger.content.decode()


def test_closing_without_a_comment_keeps_the_selection_and_changes_nothing(officer):
    screened = cases_make(officer)
    chosen = str(screened.sanction_case.uuid)

    response = officer.client().post(BATCH, {"case": [chosen], "action": "false_positive", "comment": "  ", "back": QUEUE})

    assert response.status_code == 400
    page = response.content.decode()
    assert "Say why they are not the listed persons or companies" in page
    assert _selected(page) == [chosen] and "1 selected" in page
    assert not ScreeningCaseReview.objects.exists()
    nothing = officer.client().post(BATCH, {"action": "assign", "to": "me", "back": QUEUE})
    assert nothing.status_code == 400 and "Select the cases first" in nothing.content.decode()


def test_a_case_the_four_eyes_rule_refuses_leaves_every_selected_case_open(officer):
    screened = cases_make(officer)
    ScreeningConfig.objects.filter(uuid=screened.config_uuid).update(four_eyes_review_flag=True)
    escalated = officer.client().post(f"{case_url(screened.pep_case.uuid)}review/",
                                      {"status": "escalated", "decision": "possible_match", "comment": "Second opinion"})
    assert escalated.status_code == 302
    both = [str(screened.pep_case.uuid), str(screened.sanction_case.uuid)]

    refused = officer.client().post(BATCH, {"case": both, "action": "false_positive", "comment": WHY, "back": QUEUE})

    assert refused.status_code == 409
    page = refused.content.decode()
    problem = re.search(r'data-testid="batch-problems">(.*?)</div>\s*</form>', page, re.DOTALL).group(1)
    assert "Ingrid Margrethe Solbakken: Four-eyes review: ingrid@example.com escalated this case" in problem
    assert "No case was reviewed." in problem
    assert sorted(_selected(page)) == sorted(both) and WHY in page  # nothing to select or type again
    assert ScreeningCaseReview.objects.count() == 1  # the escalation only
    assert ScreeningCase.objects.get(pk=screened.sanction_case.pk).case_status_key == "pending"


def test_another_organisations_case_changes_nothing(officer):
    ours = cases_make(officer)
    stranger = member_make("Fjordbank ASA", "sigrid")
    config = config_with(api_of(stranger), "un_security_council")
    customer_person_screened(api_of(stranger), config["uuid"], PEP_PERSON)
    theirs = ScreeningCase.objects.get(screening_config_id=config["uuid"])

    refused = officer.client().post(BATCH, {"case": [str(ours.pep_case.uuid), str(theirs.uuid)],
                                            "action": "false_positive", "comment": WHY, "back": QUEUE})

    assert refused.status_code == 400
    assert "Nothing was changed." in refused.content.decode()
    assert not ScreeningCaseReview.objects.exists()


def test_a_viewer_sees_no_selection_and_cannot_act(officer):
    screened = cases_make(officer)
    viewer = member_make("", "vilde", Member.Role.VIEWER, like=officer)

    page = viewer.client().get(QUEUE).content.decode()
    assert 'data-testid="case-batch"' not in page and 'name="case"' not in page
    refused = viewer.client().post(BATCH, {"case": [str(screened.pep_case.uuid)], "action": "assign", "to": "me"})
    assert refused.status_code == 403
    assert ScreeningCase.objects.filter(assignee_app_membership__isnull=False).count() == 0


def _row(html: str, name: str) -> str:
    return re.search(rf'<tr data-testid="queue-row"[^>]*>(?:(?!</tr>).)*{name}(?:(?!</tr>).)*</tr>', html, re.DOTALL).group(0)


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_each_row_shows_what_the_case_page_shows_of_the_list_entry_to_close_it_from_the_queue(officer):
    """The list, the programme, the entry's birth dates and nationalities (and whether they agree with the
    screened person's), beside the screened person's own: a page of hits judged without opening each case."""
    screened = cases_make(officer)

    page = officer.client().get(QUEUE).content.decode()

    owner = _row(page, "Dragunov")
    listed = re.search(r'data-testid="listed-as">(.*?)</td>', owner, re.DOTALL).group(1)
    assert _text(listed) == "IVAN SERGEYEVICH DRAGUNOV UN Security Council · DPRK born 14.03.1966 agrees · RU agrees"
    assert 'title="UN Security Council, entry KPi.901"' in listed
    assert 'title="Agrees with the screened birth date: raised the score by' in listed
    assert "Person · born 14.03.1966 · RU" in _text(owner)  # the screened side, to compare
    customer = re.search(r'data-testid="listed-as">(.*?)</td>', _row(page, "Solbakken"), re.DOTALL).group(1)
    assert _text(customer).startswith("Ingrid Margrethe Solbakken PEP list born 30.09.1961 agrees · NO")

    # The same on the queue of everyone hit by one list entry, where such hits are closed together.
    same_entry = officer.client().get(QUEUE, {"listed_as": str(screened.sanction_case.uuid)}).content.decode()
    assert "born 14.03.1966 agrees · RU agrees" in _text(_row(same_entry, "Dragunov"))


def test_a_birth_date_that_differs_many_dates_and_none_are_said_in_the_row(officer):
    api = api_of(officer)
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], "Ivan Sergeyevich Dragunov", "1967-03-14")  # a year apart
    customer_person_screened(api, config["uuid"], PEP_PERSON, "1961-09-30")

    page = officer.client().get(QUEUE).content.decode()

    assert "born 14.03.1966 differs · RU" in _text(_row(page, "Dragunov"))
    assert 'title="Differs from the screened birth date: lowered the score by' in _row(page, "Dragunov")

    # An entry listing many possible birth dates shows three (the case page has them all); one listing none says so.
    ScreeningListEntry.objects.filter(source_id="KPi.901").update(birth_dates=["1966", "1967", "1968", "1969", "1970"])
    ScreeningListEntry.objects.filter(source_id="pep-1").update(birth_dates=[])
    page = officer.client().get(QUEUE).content.decode()
    assert "born 1966, 1967, 1968 +2 more differs · RU" in _text(_row(page, "Dragunov"))
    assert "no birth date listed · NO" in _text(_row(page, "Solbakken"))
