"""An admin corrects a customer person's name on the person's page and reads the new name there;
a refused birth date comes back at its field; an officer reads the page without the forms.

Screenshots go to $VAKT_SCREENSHOT_DIR when it is set, else to tmp_path.
"""

from __future__ import annotations

from playwright.sync_api import expect

from portal.models import Member
from service.audit.models import AuditEvent
from service.screening.models import CustomerPerson
from tests.browser.conftest import log_in
from tests.screening.helpers import api_of, member_make
from tests.service.companies.factories import geo_make
from tests.service.screening.helpers import config_make, customer_person_make, gender_uuid


def test_an_admin_corrects_a_name_and_sees_it_on_the_page(page, transactional_db, shots):
    admin = member_make("Nordbank ASA", "ingrid", Member.Role.ADMIN)
    officer = member_make("", "otto", Member.Role.OFFICER, like=admin)
    geo_make(country="NO")
    api = api_of(admin)
    kari = customer_person_make(api, config_make(api)["uuid"], full_name="Kari Nordmann", birth_date="1986-10-15",
                                gender_uuid=gender_uuid("female"))
    url = f"/screening/customer-persons/{kari['uuid']}/"

    log_in(page, admin)
    page.goto(url)
    form = page.get_by_test_id("correct-form")
    expect(form.get_by_label("Full name")).to_have_value("Kari Nordmann")
    expect(form.get_by_label("Birth date")).to_have_value("15.10.1986")
    page.screenshot(path=str(shots / "customer-person-page-admin.png"), full_page=True)

    form.get_by_label("Full name").fill("Kari Hansen")
    form.get_by_label("Birth date").fill("01.01.2999")
    form.get_by_role("button", name="Save corrections").click()
    expect(page.get_by_test_id("field-error-birth_date")).to_have_text("must not be in the future")
    expect(page.get_by_test_id("correct-form").get_by_label("Full name")).to_have_value("Kari Hansen")
    page.screenshot(path=str(shots / "customer-person-page-error.png"), full_page=True)

    page.get_by_test_id("correct-form").get_by_label("Birth date").fill("15.10.1986")
    page.get_by_test_id("correct-form").get_by_role("button", name="Save corrections").click()
    expect(page.get_by_role("alert")).to_have_text("Kari Hansen's details are corrected.")
    expect(page.get_by_test_id("person-name")).to_have_text("Kari Hansen")
    expect(page.get_by_test_id("correct-form").get_by_label("Full name")).to_have_value("Kari Hansen")
    page.screenshot(path=str(shots / "customer-person-page-corrected.png"), full_page=True)
    assert CustomerPerson.objects.get().full_name == "Kari Hansen"
    assert AuditEvent.objects.filter(action_key="customer_person.update").count() == 1
    assert page.js_errors == []

    log_in(page, officer)
    page.goto(url)
    expect(page.get_by_test_id("person-name")).to_have_text("Kari Hansen")
    expect(page.get_by_test_id("person-forms")).to_have_count(0)
    expect(page.get_by_test_id("read-only")).to_be_visible()
    page.screenshot(path=str(shots / "customer-person-page-officer.png"), full_page=True)
