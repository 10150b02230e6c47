"""An officer works the case queue (issue #23 item 3): filters it, opens a case with the keyboard, reviews it as a
false positive, sees it leave the open queue, downloads the case report; a viewer reads the case but cannot review.

Screenshots `screening-queue.png` and `screening-case.png` go to $VAKT_SCREENSHOT_DIR when it is set, else tmp_path.
"""

import io

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from portal.models import Member
from tests.screening.helpers import cases_make, member_make
from tests.service.screening.cases.conftest import lists  # noqa: F401
from tests.browser.conftest import log_in


@pytest.fixture
def officer(transactional_db):
    return member_make("Nordbank ASA", "ingrid")


def test_an_officer_filters_opens_reviews_and_downloads(page, officer, lists, shots, tmp_path):
    cases_make(officer)
    log_in(page, officer)

    page.locator("#nav").get_by_role("link", name="Cases").click()
    rows = page.get_by_test_id("queue-row")
    expect(rows).to_have_count(2)
    expect(page.get_by_test_id("count-open")).to_have_text("2")
    expect(page.get_by_test_id("key-hint")).to_contain_text("j/k")
    page.screenshot(path=str(shots / "screening-queue.png"), full_page=True)

    page.get_by_label("Hit").select_option("pep")  # submits on change; the filter stands in the URL
    expect(page).to_have_url("/screening/cases/?hit=pep")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Ingrid Margrethe Solbakken")

    page.keyboard.press("j")
    expect(rows.first).to_have_class("is-current")
    page.keyboard.press("o")
    expect(page.get_by_test_id("case-subject")).to_have_text("Ingrid Margrethe Solbakken")
    expect(page.get_by_test_id("query-name").locator("mark.np-match")).to_have_count(3)
    page.screenshot(path=str(shots / "screening-case.png"), full_page=True)

    page.keyboard.press("r")
    expect(page.locator("#decision-no_match")).to_be_focused()
    page.locator("label[for=decision-no_match]").click()
    page.get_by_label("False positive").check()
    page.get_by_label("Comment").fill("Different person: born 1984 in Bergen, per passport copy.")
    page.get_by_role("button", name="Save review").click()
    expect(page.get_by_role("alert")).to_contain_text("Review saved: false positive. The case is closed.")
    expect(page.get_by_test_id("review-entry")).to_contain_text("ingrid@example.com")

    with page.expect_download() as download_info:
        page.get_by_test_id("case-report").click()
    download = download_info.value
    assert download.suggested_filename.startswith("screening-case-ingrid-margrethe-solbakken-")
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(target.read_bytes())).pages).split())
    assert "Ingrid Margrethe Solbakken" in text and "Case status Closed" in text and "passport copy" in text

    page.get_by_test_id("back-to-queue").click()  # back to the queue as it was left: PEP hits only
    expect(page).to_have_url("/screening/cases/?hit=pep")
    expect(page.get_by_test_id("queue-empty")).to_contain_text("No open cases match these filters")
    page.get_by_test_id("clear-filters").click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Ivan Sergeyevich Dragunov")
    expect(page.get_by_test_id("count-complete")).to_have_text("1")

    rows.first.get_by_test_id("assign-to-me").click()  # htmx swaps the row
    expect(rows.first.get_by_test_id("assignee")).to_contain_text("Me")
    assert page.js_errors == []


def test_a_viewer_reads_a_case_but_cannot_review(page, officer, lists):
    screened = cases_make(officer)
    viewer = member_make("", "vera", Member.Role.VIEWER, like=officer)
    log_in(page, viewer)

    page.goto("/screening/cases/")
    expect(page.get_by_test_id("queue-row")).to_have_count(2)
    expect(page.get_by_test_id("assign-to-me")).to_have_count(0)
    page.goto(f"/screening/cases/{screened.sanction_case.uuid}/")
    expect(page.get_by_test_id("review-read-only")).to_be_visible()
    expect(page.get_by_test_id("review-form")).to_have_count(0)
    page.keyboard.press("r")  # nothing to focus, nothing breaks
    assert page.js_errors == []


def test_setting_a_case_in_review_puts_the_officers_name_on_it(page, officer, lists, shots):
    cases_make(officer)
    log_in(page, officer)
    page.goto("/screening/cases/")
    rows = page.get_by_test_id("queue-row")
    expect(rows.first.get_by_test_id("assignee")).to_have_text("Nobody")
    expect(rows.first.locator(".badge").first).to_have_text("New")
    rows.first.locator("a.case-link").click()
    expect(page.get_by_test_id("case-assignee")).to_contain_text("Assigned to nobody")

    page.locator("label[for=decision-possible_match]").click()
    page.get_by_label("In review").check()
    page.get_by_role("button", name="Save review").click()

    expect(page.get_by_role("alert")).to_contain_text("Review saved: in review. The case stays open, assigned to you.")
    expect(page.get_by_test_id("case-assignee")).to_have_text("Assigned to you")
    expect(page.get_by_test_id("review-entry")).to_contain_text("ingrid@example.com")
    page.screenshot(path=str(shots / "screening-case-in-review.png"), full_page=True)
    page.get_by_test_id("back-to-queue").click()
    expect(rows.first.get_by_test_id("assignee")).to_have_text("Me")
    expect(rows.first.locator(".badge").first).to_have_text("In review")  # the form's word, in the queue too
    assert page.js_errors == []
