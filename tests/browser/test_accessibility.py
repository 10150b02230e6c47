"""The dashboard as assistive technology reads it: axe-core (axe-playwright-python) finds no
violation of its rules (WCAG 2.1 A and AA, and its best practices) on any page a member opens,
at a desk and on a phone; a table that scrolls sideways inside its card can be reached and
scrolled with the keyboard."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from portal.models import Member
from portal.tasks import worker_heartbeat
from service.companies.analysis import analysis_refresh
from service.screening.models import EntityMonitoring
from service.watchlists.services import watchlist_create
from tests.browser.conftest import log_in
from tests.screening.helpers import api_of, cases_make, member_make
from tests.service.companies.factories import accounts_make, company_make, employment_make, person_make
from tests.service.screening.batch.conftest import csv_bytes, upload
from tests.service.screening.cases.conftest import lists  # noqa: F401
from tests.service.screening.helpers import monitoring_make

PHONE = {"width": 390, "height": 844}
axe = Axe()


def _violations(page) -> list[str]:
    results = axe.run(page).response
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[node['target'] for node in v['nodes'][:3]]}"
        for v in results["violations"]
    ]


@pytest.fixture
def pages(transactional_db, lists, settings, tmp_path):  # noqa: F811
    """An admin of an organisation with a bit of everything, and the paths of the pages to read."""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    worker_heartbeat()
    admin = member_make("Nordbank ASA", "ada", Member.Role.ADMIN)
    screened = cases_make(admin)
    pending = monitoring_make(api_of(admin), screened.config_uuid, person=person_make(full_name="Kari Nordmann").uuid,
                              type_key="beneficial_owners", related_company=screened.company.uuid)
    company = company_make(name="Havbris Teknologi AS", org_nr="913748174")
    accounts_make(company=company, year=2024, balance={"total_equity": Decimal("3328000")})
    employment_make(company=company, count=12, start=date(2023, 1, 1), end=date(2024, 1, 1))
    analysis_refresh(company_uuids=[company.uuid])
    watchlist = watchlist_create(app_customer_uuid=admin.app_customer.uuid, watchlist_name="Kunder")
    customer = EntityMonitoring.objects.filter(screening_config_id=screened.config_uuid, customer_person__isnull=False).get()
    batch = upload(api_of(admin), screened.config_uuid, csv_bytes([{"name": "Ivan Sergeyevich Dragunov"}, {"name": "Kari Nordmann"}])).json()
    paths = [
        "/", "/screening/cases/", f"/screening/cases/{screened.sanction_case.uuid}/", "/screening/cases/statistics/",
        "/screening/approvals/", "/screening/approvals/?view=active", "/screening/approvals/?view=persons",
        f"/screening/monitorings/{pending['entity_monitoring']['uuid']}/", f"/screening/customer-persons/{customer.customer_person_id}/",
        "/screening/setup/", "/screening/related-companies/", "/screening/batches/",
        f"/screening/batches/{batch['uuid']}/", f"/screening/batches/{batch['uuid']}/delete/", "/watchlists/",
        f"/watchlists/{watchlist.uuid}/", "/companies/?q=havbris", f"/companies/{company.uuid}/", "/reports/",
        "/members/", "/members/api-users/", "/members/audit/", "/health/",
    ]
    return admin, paths


def test_no_page_violates_an_accessibility_rule_at_a_desk(page, pages):
    admin, paths = pages
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto("/login/")
    found = {"/login/": _violations(page)}
    log_in(page, admin)
    for path in paths:
        page.goto(path)
        found[path] = _violations(page)
    page.goto("/no-such-page/")
    found["404"] = _violations(page)

    assert {path: v for path, v in found.items() if v} == {}


def test_no_page_violates_an_accessibility_rule_on_a_phone(page, pages):
    admin, paths = pages
    page.set_viewport_size(PHONE)
    log_in(page, admin)
    found = {}
    for path in paths:
        page.goto(path)
        found[path] = _violations(page)

    assert {path: v for path, v in found.items() if v} == {}


def test_a_table_that_scrolls_sideways_is_reached_with_the_keyboard_and_one_that_fits_is_not(page, pages):
    admin, _ = pages
    log_in(page, admin)
    page.set_viewport_size(PHONE)
    page.goto("/members/api-users/")
    region = page.locator(".table-responsive").first
    assert region.evaluate("r => r.scrollWidth > r.clientWidth")  # the API users' table is wider than a phone
    assert (region.get_attribute("tabindex"), region.get_attribute("role")) == ("0", "region")
    assert region.get_attribute("aria-label").startswith("Table: Name")

    region.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.table-responsive').scrollLeft > 0")

    page.set_viewport_size({"width": 1400, "height": 900})  # now it fits: out of the tab order again
    page.wait_for_function("() => !document.querySelector('.table-responsive').hasAttribute('tabindex')")
    assert region.get_attribute("role") is None


def test_a_field_refused_says_why_to_a_screen_reader(page, pages):
    admin, _ = pages
    log_in(page, admin)
    page.goto("/screening/approvals/?view=persons")
    page.get_by_label("Full name").fill("Kari Nordmann")
    page.get_by_label("Birth date").fill("01.01.2999")
    page.get_by_role("button", name="Add and monitor").click()

    birth_date = page.get_by_label("Birth date")
    expect(birth_date).to_have_attribute("aria-invalid", "true")
    expect(birth_date).to_have_accessible_description("must not be in the future")
    expect(page.get_by_label("Full name")).not_to_have_attribute("aria-invalid", "true")
    assert _violations(page) == []
