"""An officer selects cases in the queue (a box, select-all, the x key), assigns them to herself in one go,
then closes them as false positives with one comment; the buttons wait for a selection.

Screenshot `screening-queue-selected.png` goes to $VAKT_SCREENSHOT_DIR when it is set, else tmp_path.
"""

import pytest
from playwright.sync_api import expect

from service.screening.models import ScreeningCase, ScreeningCaseReview
from tests.browser.conftest import log_in
from tests.screening.helpers import api_of, cases_make, member_make
from tests.service.screening.cases.conftest import UN_PERSON, lists  # noqa: F401
from tests.service.screening.cases.steps import customer_person_screened


@pytest.fixture
def officer(transactional_db):
    return member_make("Nordbank ASA", "ingrid")


def test_an_officer_assigns_and_closes_selected_cases(page, officer, lists, shots):
    cases_make(officer)
    log_in(page, officer)
    page.goto("/screening/cases/")
    rows, bar = page.get_by_test_id("queue-row"), page.get_by_test_id("case-batch")
    expect(rows).to_have_count(2)
    # What the case page says of each list entry, to judge the hits before selecting them.
    expect(rows.first.get_by_test_id("listed-facts")).to_have_text("born 14.03.1966 agrees · RU agrees")
    expect(rows.first.get_by_test_id("listed-as")).to_contain_text("UN Security Council · DPRK")
    expect(bar).to_contain_text("Select cases to act on several at once")
    expect(bar.get_by_test_id("batch-assign")).to_be_disabled()

    page.keyboard.press("j")
    page.keyboard.press("x")  # the current row
    expect(bar).to_contain_text("1 selected")
    page.get_by_label("Select every case on this page").check()
    expect(bar).to_contain_text("2 selected")
    page.screenshot(path=str(shots / "screening-queue-selected.png"), full_page=True)

    bar.get_by_test_id("batch-assign").click()
    expect(page.get_by_role("alert")).to_contain_text("2 cases assigned to you.")
    expect(rows.get_by_test_id("assignee").filter(has_text="Me")).to_have_count(2)

    page.get_by_label("Select every case on this page").check()
    bar.get_by_test_id("batch-comment").fill("Other persons: born decades apart.")
    bar.get_by_test_id("batch-false-positive").click()
    expect(page.get_by_role("alert")).to_contain_text("2 cases closed as false positives.")
    expect(page.get_by_test_id("queue-empty")).to_contain_text("No open cases")
    assert set(ScreeningCase.objects.values_list("case_status_key", flat=True)) == {"complete"}
    assert {r.screening_case_review_comment for r in ScreeningCaseReview.objects.all()} == {"Other persons: born decades apart."}
    assert page.js_errors == []


def test_from_a_case_to_everyone_hit_by_its_list_entry_closed_together(page, officer, lists, shots):
    screened = cases_make(officer)  # Dragunov owns Nordlys AS; a PEP customer
    customer_person_screened(api_of(officer), screened.config_uuid, UN_PERSON, "1966-03-14")  # the same man, a customer
    log_in(page, officer)
    page.goto(f"/screening/cases/{screened.sanction_case.uuid}/")

    page.get_by_test_id("same-listed-queue").click()
    rows = page.get_by_test_id("queue-row")
    expect(rows).to_have_count(2)
    expect(page.get_by_test_id("listed-filter")).to_contain_text("IVAN SERGEYEVICH DRAGUNOV")
    page.screenshot(path=str(shots / "screening-queue-listed-as.png"), full_page=True)
    page.get_by_label("Select every case on this page").check()
    page.get_by_test_id("batch-assign").click()
    expect(page.get_by_role("alert")).to_contain_text("2 cases assigned to you.")
    expect(page.get_by_test_id("listed-filter")).to_be_visible()  # back to the same narrowed queue
    assert page.js_errors == []
