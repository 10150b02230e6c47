"""The top navigation for each role, at 1280 and 1024 px: daily work first, one Admin (or More) menu for the
rest, on one line; the menu opens with the keyboard. Screenshots `nav-<role>-<width>.png` go to
$VAKT_SCREENSHOT_DIR when it is set, else tmp_path."""


import re

import pytest
from playwright.sync_api import expect

from portal.models import Member
from tests.portal.conftest import make_member
from tests.browser.conftest import log_in

DAILY = ["Home", "Cases", "Related companies", "Companies", "Watchlists", "Reports"]


@pytest.mark.parametrize(
    "role, menu, entries",
    [
        (Member.Role.ADMIN, "Admin",
         ["Batch screening", "Screening setup", "Approvals", "Members", "API users", "Audit log", "Health", "API reference"]),
        (Member.Role.OFFICER, "More", ["Batch screening", "Screening setup", "Monitorings", "Members", "Health", "API reference"]),
        (Member.Role.VIEWER, "More", ["Batch screening", "Screening setup", "Monitorings", "Members", "Health", "API reference"]),
    ],
)
def test_the_navigation_fits_on_one_line_and_groups_the_rest(page, transactional_db, shots, role, menu, entries):
    member = make_member("Nordbank ASA", f"x{role}", role=role)
    log_in(page, member)
    nav = page.locator("#nav")

    for width in (1280, 1024):
        page.set_viewport_size({"width": width, "height": 700})
        page.goto("/")
        links = nav.locator(".navbar-nav > .nav-item > .nav-link")
        assert links.all_inner_texts() == [*DAILY, menu]
        bar = page.locator("nav.navbar").bounding_box()
        assert bar["height"] < 60, f"the navigation wraps at {width} px ({bar['height']} px high)"
        page.screenshot(path=str(shots / f"nav-{role}-{width}.png"), clip={"x": 0, "y": 0, "width": width, "height": 60})

    page.set_viewport_size({"width": 1280, "height": 700})
    page.goto("/")
    toggle = page.get_by_test_id("nav-menu-toggle")
    toggle.focus()
    page.keyboard.press("Enter")
    items = page.get_by_test_id("nav-menu").locator(".dropdown-item")
    expect(items.first).to_be_visible()
    assert items.all_inner_texts() == entries
    page.keyboard.press("ArrowDown")
    expect(items.first).to_be_focused()
    page.screenshot(path=str(shots / f"nav-{role}-menu.png"), clip={"x": 0, "y": 0, "width": 1280, "height": 380})
    page.keyboard.press("Enter")
    expect(page).not_to_have_url("/")
    assert list(page.js_errors) == []


def test_below_992_px_the_navigation_folds_into_a_menu_button(page, transactional_db, shots):
    member = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    log_in(page, member)
    page.set_viewport_size({"width": 800, "height": 700})
    page.goto("/")

    assert page.evaluate("document.documentElement.scrollWidth") == 800  # nothing runs off the window
    cases = page.locator("#nav").get_by_role("link", name="Cases")
    expect(cases).to_be_hidden()
    page.get_by_role("button", name="Menu").click()
    expect(cases).to_be_visible()
    page.screenshot(path=str(shots / "nav-800-open.png"), clip={"x": 0, "y": 0, "width": 800, "height": 380})
    cases.click()
    expect(page).to_have_url(re.compile(r"/screening/cases/$"))
    assert list(page.js_errors) == []
