"""An admin corrects a customer person's name on the person's page and reads the new name there;
a refused birth date comes back at its field; an officer reads the page without the forms. An admin
removes an address and a national id, each only once the browser's confirm dialog is accepted, and puts a
customer under monitoring, removes it on the monitoring's page and monitors the customer again.

Screenshots go to $VAKT_SCREENSHOT_DIR when it is set, else to tmp_path.
"""

from __future__ import annotations

from playwright.sync_api import expect

from portal.models import Member
from service.audit.models import AuditEvent
from service.screening.models import CustomerPerson, CustomerPersonLocation, CustomerPersonNationalIdentification, EntityMonitoring
from tests.browser.conftest import dialog_answer, log_in
from tests.conftest import ALL_ROLES
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


def test_an_admin_removes_an_address_and_a_national_id_after_confirming(page, transactional_db, shots):
    admin = member_make("Nordbank ASA", "ingrid", Member.Role.ADMIN)
    geo_make(country="NO")
    api = api_of(admin)
    kari = customer_person_make(api, config_make(api)["uuid"], full_name="Kari Nordmann")
    person_url = f"/analysis/v1/customer-person/{kari['uuid']}"
    national_id = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
    assert api.post(f"{person_url}/customer-person-national-identification", national_id, roles=ALL_ROLES).status_code == 201
    for street, code, place in (("Storgata 1", "0155", "Oslo"), ("Bryggen 5", "5003", "Bergen")):
        address = {"street_address": street, "postal_code": code, "postal_place": place, "country_code_two": "NO"}
        assert api.post(f"{person_url}/customer-person-location", address, roles=ALL_ROLES).status_code == 201
    dialogs = []

    log_in(page, admin)
    page.goto(f"/screening/customer-persons/{kari['uuid']}/")
    page.screenshot(path=str(shots / "customer-person-remove-buttons.png"), full_page=True)
    remove_storgata = page.get_by_role("button", name="Remove the address Storgata 1, 0155 Oslo, NO")

    page.once("dialog", dialog_answer(dialogs, accept=False))  # a misclick, cancelled: nothing is sent
    remove_storgata.click()
    expect(page.get_by_test_id("addresses")).to_contain_text("Storgata 1, 0155 Oslo, NO")
    assert dialogs == ["Remove the address Storgata 1, 0155 Oslo, NO from Kari Nordmann?"]
    assert CustomerPersonLocation.objects.count() == 2

    page.once("dialog", dialog_answer(dialogs, accept=True))
    remove_storgata.click()  # the cancelled form may be sent (submit-once did not hold it)
    expect(page.get_by_role("alert")).to_have_text("The address Storgata 1, 0155 Oslo, NO is removed from Kari Nordmann.")
    expect(page.get_by_test_id("addresses")).not_to_contain_text("Storgata")
    expect(page.get_by_test_id("addresses")).to_contain_text("Bryggen 5, 5003 Bergen, NO")
    page.screenshot(path=str(shots / "customer-person-address-removed.png"), full_page=True)

    page.once("dialog", dialog_answer(dialogs, accept=True))
    page.get_by_role("button", name="Remove the national id NO 15108695088").click()
    expect(page.get_by_role("alert")).to_have_text("NO 151086***** removed from Kari Nordmann.")
    expect(page.get_by_test_id("national-ids")).to_have_text("–")
    page.screenshot(path=str(shots / "customer-person-national-id-removed.png"), full_page=True)
    assert dialogs[1:] == ["Remove the address Storgata 1, 0155 Oslo, NO from Kari Nordmann?",
                           "Remove the national id NO 15108695088 from Kari Nordmann?"]
    assert list(CustomerPersonLocation.objects.values_list("street_address", flat=True)) == ["Bryggen 5"]
    assert not CustomerPersonNationalIdentification.objects.exists()
    assert {e.action_key for e in AuditEvent.objects.filter(action_key__endswith="_remove")} == {
        "customer_person.location_remove", "customer_person.national_id_remove"
    }
    assert page.js_errors == []


def test_an_admin_puts_a_customer_under_monitoring_again_after_a_removal(page, transactional_db, shots):
    admin = member_make("Nordbank ASA", "ingrid", Member.Role.ADMIN)
    api = api_of(admin)
    config = config_make(api)
    kari = customer_person_make(api, config["uuid"], full_name="Kari Nordmann")
    log_in(page, admin)
    page.goto(f"/screening/customer-persons/{kari['uuid']}/")

    form = page.get_by_test_id("monitor-form")
    expect(form.get_by_role("button", name="Put under monitoring")).to_be_visible()  # never monitored
    expect(form.get_by_label("Screen from now on (approve the monitoring)")).to_be_checked()
    form.get_by_label("Why this person is screened").fill("Private banking customer")
    form.get_by_role("button", name="Put under monitoring").click()
    expect(page.get_by_role("alert")).to_have_text("Kari Nordmann is screened from now on.")
    expect(page.get_by_test_id("monitor-form")).to_have_count(0)

    page.get_by_role("link", name="since").first.click()  # the monitoring's page
    page.get_by_label("Reason for removing").fill("Customer relationship ended")
    page.get_by_role("button", name="Remove from screening").click()
    page.get_by_test_id("customer-person-link").click()
    form = page.get_by_test_id("monitor-form")
    form.get_by_label("Screen from now on (approve the monitoring)").uncheck()
    form.get_by_role("button", name="Monitor again").click()
    expect(page.get_by_role("alert")).to_have_text("Kari Nordmann waits for approval under Pending.")
    page.screenshot(path=str(shots / "customer-person-monitored-again.png"), full_page=True)
    statuses = [m.removed_flag for m in EntityMonitoring.objects.filter(customer_person_id=kari["uuid"]).order_by("create_timestamp")]
    assert statuses == [True, False]
    assert page.js_errors == []


def test_an_admin_gives_a_nationality_and_a_birth_date_the_national_id_refuses_comes_back_at_its_field(
    page, transactional_db, shots,
):
    """The nationality on the add form, on the person's page and in the correction form; a corrected
    birth date the recorded national id disagrees with is refused at its field. Wide and on a phone."""
    admin = member_make("Nordbank ASA", "ingrid", Member.Role.ADMIN)
    geo_make(country="NO")
    config_make(api_of(admin))

    log_in(page, admin)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto("/screening/approvals/?view=persons")
    form = page.get_by_test_id("person-form")
    form.get_by_label("Full name").fill("Kari Nordmann")
    form.get_by_label("Birth date").fill("16.10.1986")  # mistyped: the number is of someone born the 15th
    form.get_by_label("Nationality").fill("no, se")
    form.get_by_label("National id country").select_option("NO")
    form.get_by_label("National id number").fill("151086 95088")
    form.get_by_role("button", name="Add and monitor").click()
    expect(page.get_by_test_id("field-error-national_id_number")).to_have_text(
        "is of someone born 15.10.1986; the person's birth date is 16.10.1986")
    assert CustomerPerson.objects.count() == 0
    page.screenshot(path=str(shots / "customer-person-add-refused-1400.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / "customer-person-add-refused-390.png"), full_page=True)

    page.get_by_test_id("person-form").get_by_label("Birth date").fill("15.10.1986")
    page.get_by_test_id("person-form").get_by_role("button", name="Add and monitor").click()
    page.get_by_role("link", name="Kari Nordmann").click()
    expect(page.get_by_test_id("nationalities")).to_have_text("NO, SE")
    correct = page.get_by_test_id("correct-form")
    expect(correct.get_by_label("Nationality")).to_have_value("NO, SE")
    correct.get_by_label("Birth date").fill("16.10.1986")
    correct.get_by_label("Nationality").fill("NO")
    correct.get_by_role("button", name="Save corrections").click()
    expect(page.get_by_test_id("field-error-birth_date")).to_contain_text("the national id NO 151086***** recorded for the person")
    assert CustomerPerson.objects.get().nationalities == ["NO", "SE"]  # nothing written
    page.screenshot(path=str(shots / "customer-person-page-refused-390.png"), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.screenshot(path=str(shots / "customer-person-page-refused-1400.png"), full_page=True)

    page.get_by_test_id("correct-form").get_by_label("Birth date").fill("15.10.1986")
    page.get_by_test_id("correct-form").get_by_role("button", name="Save corrections").click()
    expect(page.get_by_role("alert")).to_have_text("Kari Nordmann's details are corrected. Screened again with the new details.")
    expect(page.get_by_test_id("nationalities")).to_have_text("NO")
    page.screenshot(path=str(shots / "customer-person-page-corrected-1400.png"), full_page=True)
    assert page.js_errors == []
