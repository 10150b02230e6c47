"""Four-eyes review in the browser (issue #23 item 6): with the config's four-eyes flag on, an officer escalates
a case, hands it to a second officer and is refused, with the reason on the page, when closing it; the second
officer closes it and it leaves the open queue; a confirmed hit is a proposal that waits for a second officer.

Screenshot `screening-case-four-eyes.png` goes to $VAKT_SCREENSHOT_DIR when it is set, else tmp_path.
"""


import pytest
from playwright.sync_api import expect

from service.screening.models import ScreeningConfig
from tests.screening.helpers import cases_make, member_make
from tests.service.screening.cases.conftest import lists  # noqa: F401
from tests.browser.conftest import log_in


@pytest.fixture
def officers(transactional_db, lists):
    anna = member_make("Nordbank ASA", "anna")
    bjorn = member_make("", "bjorn", like=anna)
    screened = cases_make(anna)
    ScreeningConfig.objects.filter(uuid=screened.config_uuid).update(four_eyes_review_flag=True)
    return anna, bjorn


def _open(page, name: str) -> None:
    page.goto("/screening/cases/")
    page.get_by_role("link", name=name).click()
    expect(page.get_by_test_id("case-subject")).to_have_text(name)


def _review(page, decision: str, status: str, comment: str) -> None:
    page.locator(f"label[for=decision-{decision}]").click()
    page.get_by_label(status, exact=False).first.check()
    page.get_by_label("Comment").fill(comment)
    page.get_by_role("button", name="Save review").click()


def test_a_second_officer_closes_what_the_first_escalated_or_proposed(page, officers, shots):
    anna, bjorn = officers
    log_in(page, anna)
    _open(page, "Ingrid Margrethe Solbakken")
    expect(page.get_by_test_id("four-eyes-rule")).to_contain_text("closed only when a second officer agrees")

    _review(page, "possible_match", "Escalated", "Same birth year as the listed person; second opinion please.")
    expect(page.get_by_role("alert")).to_contain_text("Review saved: escalated. The case stays open.")
    expect(page.get_by_test_id("four-eyes-blocked")).to_contain_text("You escalated this case")
    page.get_by_test_id("case-assign-menu").click()  # the second officer gets it
    page.screenshot(path=str(shots / "screening-case-assign-menu.png"))
    page.get_by_test_id("assign-to-colleague").filter(has_text="bjorn").click()
    expect(page.get_by_role("alert")).to_contain_text("Assigned to bjorn@example.com.")
    expect(page.get_by_test_id("case-assignee")).to_have_text("Assigned to bjorn@example.com")

    # Closing it is not offered to her: each closing status says another officer must do it.
    expect(page.get_by_label("False positive", exact=False).first).to_be_disabled()
    expect(page.get_by_label("Confirmed hit", exact=False).first).to_be_disabled()
    expect(page.get_by_test_id("status-blocked").first).to_contain_text("another officer must do this (four-eyes review)")
    page.screenshot(path=str(shots / "screening-case-four-eyes.png"), full_page=True)

    _open(page, "Ivan Sergeyevich Dragunov")
    _review(page, "match", "Confirmed hit", "Same name, birth date and nationality as the UN entry.")
    expect(page.get_by_test_id("four-eyes-proposal")).to_have_text("Confirmed hit proposed by you — awaiting a second officer")

    log_in(page, bjorn)
    page.goto("/screening/cases/")
    expect(page.get_by_test_id("queue-row").filter(has_text="Ivan Sergeyevich Dragunov").get_by_test_id("four-eyes-proposal")).to_be_visible()
    page.screenshot(path=str(shots / "screening-queue-four-eyes.png"))
    _open(page, "Ingrid Margrethe Solbakken")
    expect(page.get_by_test_id("four-eyes-blocked")).to_have_count(0)
    _review(page, "no_match", "False positive", "Different person: born 1984 in Bergen, per passport copy.")
    expect(page.get_by_role("alert")).to_contain_text("Review saved: false positive. The case is closed.")
    page.goto("/screening/cases/")
    expect(page.get_by_test_id("queue-row")).to_have_count(1)
    expect(page.get_by_test_id("queue-row")).to_contain_text("Ivan Sergeyevich Dragunov")

    _open(page, "Ivan Sergeyevich Dragunov")
    expect(page.get_by_test_id("four-eyes-proposal")).to_have_text("Confirmed hit proposed by anna@example.com — awaiting a second officer")
    _review(page, "match", "Confirmed hit", "Agree: the UN entry's birth date and passport match.")
    expect(page.get_by_role("alert")).to_contain_text("Review saved: confirmed hit. The case is closed.")
    expect(page.get_by_test_id("four-eyes-proposal")).to_have_count(0)
    # the refused review's page answers 409 on purpose; nothing else may fail
    assert [e for e in page.js_errors if "status of 409" not in e] == []
