"""An admin in an English (en-US) browser adds a customer person: the birth date is typed and shown
as dd.mm.yyyy, as the dashboard writes days, not as the browser's mm/dd/yyyy date picker.

The screenshot of the form goes to $VAKT_SCREENSHOT_DIR when it is set, else to tmp_path.
"""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from portal.models import Member
from service.screening.models import CustomerPerson
from tests.browser.conftest import log_in
from tests.conftest import ApiCaller
from tests.portal.conftest import make_member
from tests.service.screening.helpers import config_make


@pytest.fixture
def admin(transactional_db):
    admin = make_member("Nordbank ASA", "ingrid", role=Member.Role.ADMIN)
    config_make(ApiCaller(Client(), admin.credentials))
    return admin


@pytest.fixture
def american_page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="en-US", timezone_id="America/New_York")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.js_errors = errors
    yield page
    context.close()


def test_an_english_browser_types_and_reads_the_birth_date_as_dd_mm_yyyy(american_page, admin, shots):
    page = american_page
    log_in(page, admin)
    page.goto("/screening/approvals/?view=persons")
    assert page.evaluate("navigator.language") == "en-US"
    birth_date = page.get_by_label("Birth date")
    expect(birth_date).to_have_attribute("type", "text")
    expect(birth_date).to_have_attribute("placeholder", "dd.mm.yyyy")
    expect(page.locator("label[for=id_birth_date]")).to_have_text("Birth date (dd.mm.yyyy)")

    page.get_by_label("Full name").fill("Kari Nordmann")
    birth_date.fill("10/15/1986")  # as an American writes it
    page.get_by_role("button", name="Add and monitor").click()
    expect(page.get_by_test_id("field-error-birth_date")).to_have_text("Enter the date as dd.mm.yyyy, e.g. 15.10.1986.")
    expect(page.get_by_label("Birth date")).to_have_value("10/15/1986")
    page.screenshot(path=str(shots / "customer-person-birth-date-error.png"), full_page=True)

    page.get_by_label("Birth date").fill("01.01.2999")
    page.get_by_role("button", name="Add and monitor").click()
    expect(page.get_by_test_id("field-error-birth_date")).to_have_text("must not be in the future")
    expect(page.get_by_test_id("form-error")).to_have_text("Nothing was saved. Correct the field and send again.")
    expect(page.get_by_label("Birth date")).to_have_value("01.01.2999")

    page.get_by_label("Birth date").fill("15.10.1986")
    page.get_by_label("National id country").select_option("NO")
    page.get_by_label("National id number").fill("15108695087")  # a wrong check digit: the form comes back
    page.get_by_role("button", name="Add and monitor").click()
    expect(page.get_by_test_id("field-error-national_id_number")).to_be_visible()
    expect(page.get_by_label("Birth date")).to_have_value("15.10.1986")
    page.screenshot(path=str(shots / "customer-person-form.png"), full_page=True)

    page.get_by_label("National id number").fill("15108695088")
    page.get_by_role("button", name="Add and monitor").click()
    expect(page.get_by_role("alert")).to_contain_text("Kari Nordmann added as a customer person and is screened from now on.")
    expect(page.get_by_test_id("customer-person")).to_contain_text("15.10.1986")
    assert CustomerPerson.objects.get().birth_date.isoformat() == "1986-10-15"
    assert page.js_errors == []
