"""An admin sets screening up (config, the UN list, a watchlist whose company's owner is listed),
then approves the suggested monitorings in bulk; the listed owner becomes a case.

Screenshots of the setup and approvals pages go to $VAKT_SCREENSHOT_DIR when it is set, else to tmp_path.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from playwright.sync_api import expect

from portal.models import Member
from service.screening.list_import import screening_list_import
from service.screening.models import ScreeningCase, ScreeningListCategory
from tests.conftest import ApiCaller
from tests.portal.conftest import make_member
from tests.service.companies.factories import company_make, person_make, role_make
from tests.service.screening.cases.conftest import PEP_RECORDS, UN_PERSON, UN_XML
from tests.service.screening.watchlists.helpers import nordlys_owned_by_kari, owns, watchlist_make
from tests.browser.conftest import log_in


@pytest.fixture
def admin(transactional_db):
    return make_member("Nordbank ASA", "ingrid", role=Member.Role.ADMIN)


@pytest.fixture
def lists(tmp_path, settings):
    """The real importers on a tiny UN list (one listed person) and a PEP list."""
    settings.DATA_DIR = tmp_path
    un_file, pep_file = tmp_path / "un.xml", tmp_path / "pep.json"
    un_file.write_text(UN_XML, encoding="utf-8")
    pep_file.write_text("".join(json.dumps(r) + "\n" for r in PEP_RECORDS), encoding="utf-8")
    for key, path in (("un_security_council", un_file), ("pep", pep_file)):
        screening_list_import(category=ScreeningListCategory.objects.get(key=key), path=path)


@pytest.fixture
def customers(admin, lists):
    """The watchlist "Kunder": Nordlys AS (Kari owns 31% through Fjell Holding) and Tundra Shipping AS,
    60% owned by the UN-listed Ivan Sergeyevich Dragunov, with Per Lind as chair of its board."""
    nordlys, _ = nordlys_owned_by_kari()
    tundra = company_make(name="Tundra Shipping AS")
    owns(person_make(full_name=UN_PERSON, birth_date="1966-03-14"), tundra, 60)
    role_make(company=tundra, role_key="board_chair", person=person_make(full_name="Per Lind"))
    return watchlist_make(ApiCaller(Client(), admin.credentials), "Kunder", companies=[nordlys, tundra])


def test_an_admin_sets_up_screening_and_approves_in_bulk(page, admin, customers, shots):
    log_in(page, admin)
    page.get_by_test_id("nav-menu-toggle").click()  # the Admin menu
    page.locator("#nav").get_by_role("link", name="Screening setup").click()
    expect(page.get_by_test_id("setup-state")).to_have_text("Not set up")
    page.get_by_role("button", name="Set up screening").click()
    expect(page.get_by_role("alert")).to_contain_text("Screening is set up.")

    un = page.get_by_test_id("list-category").filter(has_text="UN Security Council Consolidated List")
    expect(un).to_contain_text("UN Security Council, consolidated XML")
    un.get_by_role("button", name="Screen against UN Security Council Consolidated List").click()
    expect(page.get_by_role("alert")).to_contain_text("is screened from now on")
    expect(page.get_by_test_id("list-category").filter(has_text="Politically exposed persons")).to_contain_text("Always screened")

    page.get_by_role("button", name="Attach Kunder").click()
    expect(page.get_by_role("alert")).to_contain_text("Watchlist “Kunder” attached")
    # Kari (Nordlys) and Ivan (Tundra) are beneficial owners; the extended setting adds both chairs
    effect = page.get_by_test_id("setup-effect")
    expect(effect).to_contain_text("2 companies on 1 watchlist")
    expect(effect).to_contain_text("2 persons")
    expect(page.get_by_test_id("setting-enin_calculated_extended_beneficial_owners")).to_contain_text("4 persons suggested")
    page.screenshot(path=str(shots / "screening-setup.png"), full_page=True)

    page.get_by_test_id("nav-menu-toggle").click()  # the Admin menu
    page.locator("#nav").get_by_role("link", name="Approvals").click()
    expect(page.get_by_test_id("approvals-summary")).to_contain_text("4 waiting for a decision, for 2 companies")
    tundra = page.get_by_test_id("pending-company").filter(has_text="Tundra Shipping AS")
    expect(tundra.get_by_test_id("pending-row").filter(has_text=UN_PERSON)).to_contain_text("60,0")
    expect(page.get_by_test_id("chain").filter(has_text="Fjell Holding AS")).to_be_visible()
    page.screenshot(path=str(shots / "screening-approvals.png"), full_page=True)

    page.get_by_label("Select all on this page").check()
    page.get_by_label("Comment for the decision").fill("Customers since 2019")
    page.get_by_role("button", name="Approve selected").click()
    # the approval runs the screening in-process (Celery eager): the engine's first run compiles its kernels
    expect(page.get_by_role("alert")).to_contain_text("Approved 4 monitorings for 2 companies", timeout=120_000)
    expect(page.get_by_test_id("pending-empty")).to_be_visible()
    expect(page.get_by_test_id("approvals-summary")).to_contain_text("Nothing waiting for a decision")  # htmx swapped it too

    page.get_by_role("link", name="Screened now").click()
    expect(page.get_by_test_id("active-row")).to_have_count(4)
    # the approval started the screening run: the listed owner is a case now
    assert ScreeningCase.objects.filter(entity_inquiry__inquiry_entity_key="person").count() == 1

    page.get_by_role("link", name=UN_PERSON).first.click()
    expect(page.get_by_test_id("monitoring-status")).to_have_text("Screened")
    expect(page.get_by_test_id("decisions")).to_contain_text("Customers since 2019")
    page.screenshot(path=str(shots / "screening-monitoring.png"), full_page=True)

    page.goto("/screening/approvals/?view=persons")
    page.get_by_label("Full name").fill("Sigrid Solberg")
    page.get_by_label("Birth date").fill("1986-10-15")
    page.get_by_label("National id country").select_option("NO")
    page.get_by_label("National id number").fill("15108695087")  # a wrong check digit
    page.get_by_role("button", name="Add and monitor").click()
    expect(page.get_by_test_id("field-error-national_id_number")).to_be_visible()
    page.get_by_label("National id number").fill("15108695088")
    page.get_by_role("button", name="Add and monitor").click()
    expect(page.get_by_role("alert")).to_contain_text("Sigrid Solberg added as a customer person and is screened from now on.")
    expect(page.get_by_test_id("customer-person")).to_have_count(1)
    page.screenshot(path=str(shots / "screening-customer-persons.png"), full_page=True)
    assert list(page.js_errors) == []
