"""On a phone the wide tables stack, one block a row led by its name, each other cell with its
column's name in front, so a row's checkbox and buttons are on screen without scrolling
sideways: an admin decides pending monitorings, an officer takes a case from the queue, a
user reads a watchlist's companies.

Screenshots of the stacked pages go to $VAKT_SCREENSHOT_DIR when it is set, else to tmp_path.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.models import Member

from tests.browser.conftest import log_in
from tests.screening.helpers import api_of, cases_make, member_make
from tests.screening.setup_helpers import org_make, screening_with_nordlys, statuses
from tests.service.companies.factories import company_make
from tests.service.screening.cases.conftest import UN_PERSON, lists  # noqa: F401
from tests.service.screening.watchlists.helpers import watchlist_make

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def org(transactional_db):
    return org_make("Nordbank ASA", "ingrid")


def _on_screen(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def _page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def _no_sideways_scroll(page) -> None:
    width = _page_width(page)
    assert width <= PHONE["width"], f"the page scrolls sideways: {width} px"


def _label(cell) -> str:
    """What a stacked cell shows in front of its content (its column's name)."""
    return cell.evaluate("cell => getComputedStyle(cell, '::before').content")


def test_an_admin_decides_pending_monitorings_on_a_phone(page, org, shots):
    config, _ = screening_with_nordlys(org)
    page.set_viewport_size(PHONE)
    log_in(page, org.admin)
    page.goto("/screening/approvals/?view=pending")

    kari = page.get_by_test_id("pending-row").filter(has_text="Kari Nordmann")
    # each cell says which column it is (a label in front, from its data-label), as the header is gone
    expect(kari.locator('[data-label="Ownership chain"]')).to_contain_text("Fjell Holding AS")
    assert _label(kari.locator('[data-label="Ownership chain"]')) == '"Ownership chain"'
    assert not page.get_by_role("columnheader", name="Ownership chain").is_visible()
    for control in (kari.get_by_role("checkbox"), kari.get_by_role("button", name="Approve Kari Nordmann"),
                    kari.get_by_role("button", name="Decline Kari Nordmann")):
        assert _on_screen(control), control
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / "screening-approvals-phone.png"), full_page=True)
    page.reload()  # a full-page screenshot leaves style="" on the inputs, which htmx's swap would copy (CSP)

    kari.get_by_role("checkbox").check()  # the stacked checkbox still takes the tap
    page.get_by_label("Comment for the decision").fill("Known customer")
    page.get_by_role("button", name="Approve selected").click()
    expect(page.get_by_role("alert")).to_contain_text("Approved", timeout=120_000)
    expect(page.get_by_test_id("pending-row")).to_have_count(1)
    assert statuses(org, config) == {"Kari Nordmann": "active", "Nordlys AS": "pending"}

    page.goto("/screening/approvals/?view=active")
    row = page.get_by_test_id("active-row").filter(has_text="Kari Nordmann")
    expect(row.locator('[data-label="Why screened"]')).to_be_visible()
    assert _on_screen(row.get_by_role("button", name="Remove Kari Nordmann"))
    assert list(page.js_errors) == []


def test_an_officer_takes_a_case_from_the_queue_on_a_phone(page, lists, shots):
    officer = member_make("Nordbank ASA", "ingrid")
    cases_make(officer)
    page.set_viewport_size(PHONE)
    log_in(page, officer)
    page.goto("/screening/cases/")

    row = page.get_by_test_id("queue-row").filter(has_text=UN_PERSON)
    name, status = row.get_by_role("link", name=UN_PERSON), row.locator('[data-label="Status"]')
    assert name.bounding_box()["y"] < status.bounding_box()["y"], "the name leads the row"
    assert _label(row.locator('[data-label="Listed as"]')) == '"Listed as"'
    for control in (row.get_by_test_id("select-case"), row.get_by_test_id("assign-to-me"), name):
        assert _on_screen(control), control
    expect(page.get_by_test_id("key-hint")).to_be_hidden()  # no keyboard to press j/k on
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / "screening-queue-phone.png"), full_page=True)
    page.reload()  # as above: the screenshot's style="" would be copied by htmx's swap

    row.get_by_test_id("assign-to-me").click()  # htmx swaps the row: it stays stacked
    expect(row.get_by_test_id("assignee")).to_contain_text("Me")
    assert _label(row.get_by_test_id("assignee")) == '"Assigned to"'
    _no_sideways_scroll(page)
    assert list(page.js_errors) == []


def test_an_officer_compares_a_case_on_a_phone(page, lists, shots):
    """The side-by-side stacks: each detail led by its name, the screened and the listed value
    under it, each the card's width; a fact only the list entry has takes the whole line."""
    officer = member_make("Nordbank ASA", "ingrid")
    screened = cases_make(officer)
    page.set_viewport_size(PHONE)
    log_in(page, officer)
    page.goto(f"/screening/cases/{screened.sanction_case.uuid}/")

    query, listed, source = (page.get_by_test_id(name) for name in ("query-name", "listed-name", "listed-source"))
    assert query.bounding_box()["y"] < listed.bounding_box()["y"], "the screened name above the listed one"
    assert (_label(query), _label(listed)) == ('"Screened"', '"List entry"')
    for value in (query, listed, source):
        assert value.bounding_box()["width"] > PHONE["width"] * 0.7, value  # not a third of the row
    assert _on_screen(page.get_by_role("button", name="Save review"))
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / "case-phone.png"), full_page=True)
    assert list(page.js_errors) == []


def test_a_user_reads_a_watchlist_on_a_phone(page, transactional_db, shots):
    viewer = member_make("Nordbank ASA", "vera", role=Member.Role.VIEWER)
    companies = [company_make(name="Kjetilstrand Gårdeierselskap AS", org_nr="800818001"), company_make(name="Havbris AS")]
    watchlist = watchlist_make(api_of(viewer), "Kunder", companies=companies)
    page.set_viewport_size(PHONE)
    log_in(page, viewer)
    page.goto(f"/watchlists/{watchlist}/")

    row = page.get_by_test_id("watchlist-company").filter(has_text="Kjetilstrand")
    expect(row.locator('[data-label="Org. no."]')).to_contain_text("800818001")
    assert _label(row.locator('[data-label="Credit risk"]')) == '"Credit risk"'
    assert _on_screen(row.get_by_role("button", name="Order a report on Kjetilstrand Gårdeierselskap AS"))
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / "watchlist-phone.png"), full_page=True)
    assert list(page.js_errors) == []


def test_a_watchlist_named_by_one_long_word_wraps_instead_of_widening_the_pages(page, org):
    screening_with_nordlys(org)
    name = "Kundeportefølje" + "X" * 185  # the 200 characters a name may have, without a space
    watchlist = watchlist_make(org.api, name)
    log_in(page, org.admin)
    for viewport in (PHONE, {"width": 1400, "height": 900}):
        page.set_viewport_size(viewport)
        for path in ("/", "/watchlists/", f"/watchlists/{watchlist}/", "/screening/setup/"):
            page.goto(path)
            expect(page.get_by_text(name).first).to_be_visible()
            assert _page_width(page) <= viewport["width"], (path, viewport, _page_width(page))
    assert list(page.js_errors) == []


def test_an_admin_reads_the_audit_log_on_a_phone(page, org, shots):
    """Each record a block led by what was done; an email stays whole on its line, not broken letter by letter."""
    from service.audit.models import AuditEvent

    screening_with_nordlys(org)
    AuditEvent.objects.create(app_customer_id=org.admin.app_customer.uuid, action_key="app_membership.invite",
                              object_type="app_membership", object_uuid=org.admin.member.app_membership_uuid,
                              object_label="ingrid@example.com", after={"email": "ingrid@example.com", "active_flag": True})
    page.set_viewport_size(PHONE)
    log_in(page, org.admin)
    page.goto("/members/audit/")

    row = page.get_by_test_id("audit-row").filter(has_text="Invited a member").first
    expect(row.locator(".stack-title")).to_have_text("Invited a member")
    when = row.locator('[data-label="When"]')
    assert _label(when) == '"When"'
    # the column's name in front and the time beside it, not on top of each other
    assert when.evaluate("cell => parseFloat(getComputedStyle(cell).paddingLeft)") >= 100
    on = row.locator('[data-label="On"]').get_by_test_id("audit-object")
    assert on.evaluate("link => link.getClientRects().length") == 1, "the email is broken over lines"
    assert _on_screen(on)
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / "audit-phone.png"), full_page=True)
    assert list(page.js_errors) == []


def test_every_page_of_the_admin_menu_fits_a_phone(page, org):
    """A table too wide for a phone scrolls inside its card; the page itself never scrolls sideways."""
    screening_with_nordlys(org)
    page.set_viewport_size(PHONE)
    log_in(page, org.admin)
    widths = {}
    for path in ("/", "/screening/setup/", "/screening/approvals/", "/screening/cases/", "/screening/cases/statistics/",
                 "/screening/batches/", "/screening/related-companies/", "/watchlists/", "/reports/", "/members/",
                 "/members/audit/"):
        page.goto(path)
        widths[path] = _page_width(page)
    assert {path: width for path, width in widths.items() if width > PHONE["width"]} == {}
    assert list(page.js_errors) == []
