"""An admin decides pending monitorings on a phone: the approvals table stacks, one block a
row with each column's name in front, so a row's checkbox and its Approve and Decline buttons
are on screen without scrolling sideways.

A screenshot of the stacked tab goes to $VAKT_SCREENSHOT_DIR when it is set, else to tmp_path.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.screening.setup_helpers import org_make, screening_with_nordlys, statuses

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def org(transactional_db):
    return org_make("Nordbank ASA", "ingrid")


def _on_screen(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_an_admin_decides_pending_monitorings_on_a_phone(page, org, shots):
    config, _ = screening_with_nordlys(org)
    page.set_viewport_size(PHONE)
    log_in(page, org.admin)
    page.goto("/screening/approvals/?view=pending")

    kari = page.get_by_test_id("pending-row").filter(has_text="Kari Nordmann")
    # each cell says which column it is (a label in front, from its data-label), as the header is gone
    expect(kari.locator('[data-label="Ownership chain"]')).to_contain_text("Fjell Holding AS")
    label = kari.locator('[data-label="Ownership chain"]').evaluate("cell => getComputedStyle(cell, '::before').content")
    assert label == '"Ownership chain"'
    assert not page.get_by_role("columnheader", name="Ownership chain").is_visible()
    for control in (kari.get_by_role("checkbox"), kari.get_by_role("button", name="Approve Kari Nordmann"),
                    kari.get_by_role("button", name="Decline Kari Nordmann")):
        assert _on_screen(control), control
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= PHONE["width"], f"the page scrolls sideways: {scroll_width} px"
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
