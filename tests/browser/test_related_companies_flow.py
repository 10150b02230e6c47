"""An admin reads the related companies page in a real browser: each watchlisted company with its
screening state, attention first; filters kept in the URL; refresh on demand. Screenshot
`screening-related.png` to $VAKT_SCREENSHOT_DIR when set, else tmp_path."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.models import Member
from tests.portal.conftest import make_member
from tests.screening.steps import api_of, cases, config_with, review
from tests.service.companies.factories import company_make, person_make, role_make
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON, lists  # noqa: F401 (fixture)
from tests.service.screening.helpers import decide, monitorings
from tests.service.screening.watchlists.helpers import attach, owns, watchlist_make
from tests.browser.conftest import log_in


@pytest.fixture
def admin(transactional_db, lists):
    """Nordbank screens the watchlist "Bedriftskunder": a company on the UN list with its listed owner,
    a company owned by a PEP, two companies whose owners are approved and found on no list, and two
    whose owners still wait for a decision."""
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    api = api_of(admin)
    config = config_with(api, "un_security_council", "pep")
    koryo = company_make(name="Koryo Fjord Trading AS")
    owns(person_make(full_name=UN_PERSON), koryo, 60)
    solbakken = company_make(name="Solbakken Invest AS")
    owns(person_make(full_name=PEP_PERSON), solbakken, 100)
    brygga = company_make(name="Brygga Regnskap AS")
    owns(person_make(full_name="Liv Berg"), brygga, 100)
    havbris = company_make(name="Havbris Teknologi AS")
    owns(person_make(full_name="Kari Nordmann"), havbris, 40)
    owns(person_make(full_name="Ola Nordmann"), havbris, 35)
    fjellvegen = company_make(name="Fjellvegen Eiendom AS")
    role_make(company=fjellvegen, role_key="board_chair", person=person_make(full_name="Per Hansen"))
    lysaker = company_make(name="Lysaker Marine AS")
    owns(person_make(full_name="Sigrid Lie"), lysaker, 51)
    watchlist = watchlist_make(api, "Bedriftskunder", companies=[koryo, solbakken, brygga, havbris, fjellvegen, lysaker])
    assert attach(api, config["uuid"], watchlist).status_code == 201
    for company in (koryo, solbakken, brygga, lysaker):  # approved: screened at once
        for composite in monitorings(api, config["uuid"], related_company_uuid=str(company.uuid)):
            assert decide(api, config["uuid"], composite["entity_monitoring"]["uuid"]).status_code == 201
    solbakken_case = cases(api, config["uuid"], related_company_uuid=str(solbakken.uuid))["elements"][0]
    review(api, config["uuid"], solbakken_case["screening_case"]["uuid"], "in_review", "possible_match")
    return admin


def test_an_admin_sees_which_companies_need_attention_and_filters_them(page, admin, shots):
    log_in(page, admin)
    page.get_by_test_id("nav-related").click()

    expect(page).to_have_url(re.compile(r"/screening/related-companies/$"))
    names = page.get_by_test_id("company-name")
    expect(names).to_have_count(6)
    expect(names.first).to_have_text("Koryo Fjord Trading AS")  # sanction hits first
    expect(names.nth(1)).to_have_text("Solbakken Invest AS")  # then PEP hits
    expect(page.get_by_test_id("open-sanction")).to_have_text("2")  # the company's own name and its owner
    expect(page.get_by_test_id("open-pep")).to_have_text("1")
    expect(page.get_by_test_id("refreshed")).to_have_text("Updated just now")
    koryo = page.get_by_test_id("related-row").first
    expect(koryo.get_by_test_id("state")).to_contain_text("Sanction hit")
    href = koryo.get_by_test_id("cases-link").get_attribute("href")
    assert re.fullmatch(r"/screening/cases/\?company=[0-9a-f-]{36}", href), href
    page.screenshot(path=str(shots / "screening-related.png"), full_page=True)

    # The link opens the queue of that company alone (before, the queue ignored it and showed every case).
    koryo.get_by_test_id("cases-link").click()
    expect(page.get_by_test_id("company-filter")).to_contain_text("Koryo Fjord Trading AS")
    expect(page.get_by_test_id("queue-row")).to_have_count(2)
    # The company page says the same, in its screening card.
    page.goto(f"/companies/{href.rsplit('=', 1)[1]}/")
    card = page.get_by_test_id("company-screening")
    expect(card.get_by_test_id("open-cases")).to_contain_text("2 sanction")
    page.screenshot(path=str(shots / "company-screening-card.png"), full_page=True)
    page.goto("/screening/related-companies/")

    page.get_by_test_id("filter-pending-approvals").click()
    expect(page).to_have_url(re.compile(r"\?show=pending-approvals"))
    expect(names).to_have_count(2)
    expect(page.get_by_test_id("filter-pending-approvals")).to_have_class(re.compile("active"))

    page.get_by_test_id("refresh").click()
    expect(page.get_by_role("alert")).to_contain_text("Screening state refreshed")
    expect(page).to_have_url(re.compile(r"\?show=pending-approvals"))  # the filter stays
    expect(names).to_have_count(2)

    page.get_by_role("link", name="Home").click()
    card = page.get_by_test_id("work-screening")
    expect(card.get_by_test_id("home-open-cases")).to_have_text("3")
    expect(card.get_by_test_id("home-pending-companies")).to_have_text("2")
    page.screenshot(path=str(shots / "screening-home.png"), full_page=True)
    assert list(page.js_errors) == []


def test_before_setup_a_viewer_reads_what_is_missing(page, transactional_db, shots):
    viewer = make_member("Nordbank ASA", "vera", role=Member.Role.VIEWER)
    log_in(page, viewer)

    page.get_by_test_id("nav-related").click()

    expect(page.get_by_test_id("no-config")).to_contain_text("Screening is not set up yet")
    expect(page.get_by_test_id("no-config")).to_contain_text("An admin of your organisation sets it up")
    page.screenshot(path=str(shots / "screening-related-empty.png"), full_page=True)
    assert list(page.js_errors) == []


@pytest.mark.parametrize("width", [1024, 800])
def test_the_screening_pages_fit_a_narrow_window(page, admin, shots, width):
    log_in(page, admin)
    page.set_viewport_size({"width": width, "height": 800})

    for path in ("/screening/related-companies/", "/screening/approvals/"):
        page.goto(path)
        assert page.evaluate("document.documentElement.scrollWidth") == width, f"{path} runs off a {width} px window"
    approve = page.get_by_role("button", name="Approve Kari Nordmann")
    box = approve.bounding_box()
    if width >= 1024:  # the width the docs promise: the buttons without sideways scrolling
        assert box["x"] + box["width"] <= width, f"Approve is cut off at {width} px"
    else:  # narrower, the table scrolls inside its card, and the button is reached so
        approve.scroll_into_view_if_needed()
        expect(approve).to_be_in_viewport()
    page.screenshot(path=str(shots / f"approvals-{width}.png"), full_page=True)
    assert list(page.js_errors) == []
