"""An admin keeps a former customer's records past the retention period: opens the legal hold on
the customer person's page, is told the reason is needed, places the hold, finds it on the Record
holds tab, and releases it saying why. An officer sees that the records are held, not why.

Screenshots go to $VAKT_SCREENSHOT_DIR when it is set, else to tmp_path.
"""

from __future__ import annotations

from playwright.sync_api import expect

from portal.models import Member
from service.screening.models import ScreeningConfig, ScreeningRecordsHold
from tests.browser.conftest import log_in
from tests.screening.helpers import api_of, member_make
from tests.service.screening.helpers import config_make, customer_person_make

REASON = "Our case 2026-114: the police asked for the records."


def test_an_admin_places_a_hold_and_releases_it(page, transactional_db, shots):
    admin = member_make("Nordbank ASA", "ingrid", Member.Role.ADMIN)
    officer = member_make("", "otto", Member.Role.OFFICER, like=admin)
    api = api_of(admin)
    kari = customer_person_make(api, config_make(api)["uuid"], full_name="Kari Nordmann")
    url = f"/screening/customer-persons/{kari['uuid']}/"

    log_in(page, admin)
    page.goto(url)
    expect(page.get_by_test_id("person-retention")).to_contain_text("Kept until")
    hold_form = page.get_by_test_id("hold-form")
    hold_form.get_by_text("Keep past the retention period (legal hold)…").click()
    hold_form.get_by_role("button", name="Place the hold").click()
    expect(page.get_by_test_id("field-error-reason")).to_have_text("Say why the records are kept.")
    assert not ScreeningRecordsHold.objects.exists()

    page.get_by_test_id("hold-form").get_by_label("Why the records are kept").fill(REASON)
    page.get_by_test_id("hold-form").get_by_role("button", name="Place the hold").click()
    expect(page.get_by_role("alert")).to_have_text("Kari Nordmann's records are held: nothing is deleted until the hold is released.")
    expect(page.get_by_test_id("records-hold")).to_contain_text(REASON)
    expect(page.get_by_test_id("person-retention")).to_have_count(0)
    page.screenshot(path=str(shots / "customer-person-held.png"), full_page=True)

    page.goto("/screening/approvals/?view=holds")
    row = page.get_by_test_id("hold-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Kari Nordmann")
    expect(row).to_contain_text("In force")
    page.screenshot(path=str(shots / "record-holds-tab.png"), full_page=True)
    row.get_by_role("link", name="Kari Nordmann").click()

    release = page.get_by_test_id("hold-release")
    release.get_by_label("Why the hold is released").fill("Case 2026-114 closed.")
    release.get_by_role("button", name="Release the hold").click()
    expect(page.get_by_role("alert")).to_contain_text("The hold on Kari Nordmann's records is released")
    expect(page.get_by_test_id("person-retention")).to_contain_text("Kept until")
    assert ScreeningRecordsHold.objects.get().release_reason == "Case 2026-114 closed."
    assert page.js_errors == []

    # Held again; an officer reads that it is held, not why.
    assert api.post(f"/analysis/v1/screening-config/{kari['screening_config_uuid']}/records-hold",
                    {"entity_key": "customer_person", "entity_uuid": kari["uuid"], "reason": REASON},
                    roles=["aml"]).status_code == 201
    log_in(page, officer)
    page.goto(url)
    expect(page.get_by_test_id("records-hold")).to_contain_text("(admins read why)")
    expect(page.get_by_test_id("records-hold")).not_to_contain_text(REASON)
    expect(page.get_by_test_id("hold-form")).to_have_count(0)


def test_under_four_eyes_one_admin_asks_to_release_and_another_confirms(page, transactional_db, shots):
    ingrid = member_make("Nordbank ASA", "ingrid", Member.Role.ADMIN)
    anna = member_make("", "anna", Member.Role.ADMIN, like=ingrid)
    api = api_of(ingrid)
    config = config_make(api)
    ScreeningConfig.objects.filter(uuid=config["uuid"]).update(four_eyes_review_flag=True)
    kari = customer_person_make(api, config["uuid"], full_name="Kari Nordmann")
    assert api.post(f"/analysis/v1/screening-config/{config['uuid']}/records-hold",
                    {"entity_key": "customer_person", "entity_uuid": kari["uuid"], "reason": REASON},
                    roles=["aml"]).status_code == 201
    url = f"/screening/customer-persons/{kari['uuid']}/"

    log_in(page, ingrid)
    page.goto(url)
    release = page.get_by_test_id("hold-release")
    release.get_by_label("Why the hold is released").fill("Case 2026-114 closed.")
    release.get_by_role("button", name="Ask to release the hold").click()
    expect(page.get_by_role("alert")).to_contain_text("takes effect when another admin confirms it")
    expect(page.get_by_test_id("release-requested")).to_contain_text("Release asked for by ingrid@example.com")
    expect(page.get_by_test_id("hold-release")).to_have_count(0)
    expect(page.get_by_role("button", name="Withdraw the request")).to_be_visible()
    assert ScreeningRecordsHold.objects.get().in_force

    log_in(page, anna)
    page.goto(url)
    page.screenshot(path=str(shots / "customer-person-release-asked.png"), full_page=True)
    release = page.get_by_test_id("hold-release")
    release.get_by_label("Why the hold is released").fill("Checked with the police: closed.")
    release.get_by_role("button", name="Confirm the release").click()
    expect(page.get_by_role("alert")).to_contain_text("The hold on Kari Nordmann's records is released")
    hold = ScreeningRecordsHold.objects.get()
    assert not hold.in_force and hold.released_by.email == "anna@example.com"
    assert page.js_errors == []
