"""An admin merges a second record of one customer into the record kept on the kept one's page: the
page says what the merge moves, the browser's confirm dialog repeats it (cancelled: nothing is sent),
and once accepted the page says what moved; the merged record's page says where it went and offers
no forms. Screenshots go to $VAKT_SCREENSHOT_DIR when it is set, else to tmp_path."""

from __future__ import annotations

from playwright.sync_api import expect

from portal.models import Member
from service.screening.models import CustomerPerson
from tests.browser.conftest import dialog_answer, log_in
from tests.conftest import ALL_ROLES
from tests.screening.helpers import api_of, member_make
from tests.service.companies.factories import geo_make
from tests.service.screening.helpers import config_make, customer_person_make, monitoring_make


def test_an_admin_merges_a_duplicate_after_confirming_and_sees_where_it_went(page, transactional_db, shots):
    admin = member_make("Nordbank ASA", "ingrid", Member.Role.ADMIN)
    geo_make(country="NO")
    api = api_of(admin)
    config = config_make(api)["uuid"]
    kept = customer_person_make(api, config, full_name="Kari Nordmann", birth_date="1986-10-15")
    twin = customer_person_make(api, config, full_name="KARI NORDMANN", birth_date="1986-10-15", customer_reference="K-10231")
    for person in (kept, twin):
        monitoring_make(api, config, customer_person=person["uuid"], decision={"approved_flag": True})
    twin_url = f"/analysis/v1/customer-person/{twin['uuid']}"
    bergen = {"street_address": "Bryggen 5", "postal_code": "5003", "postal_place": "Bergen", "country_code_two": "NO"}
    assert api.post(f"{twin_url}/customer-person-location", bergen, roles=ALL_ROLES).status_code == 201
    dialogs = []

    log_in(page, admin)
    page.goto(f"/screening/customer-persons/{kept['uuid']}/")
    expect(page.get_by_test_id("only-on-duplicate")).to_contain_text(
        "has the address Bryggen 5, 5003 Bergen, NO; the customer reference K-10231. Merging it into this record moves them here")
    page.screenshot(path=str(shots / "customer-person-duplicate.png"), full_page=True)
    merge = page.get_by_role("button", name="Merge into this record: KARI NORDMANN (K-10231), added")

    page.once("dialog", dialog_answer(dialogs, accept=False))  # a misclick, cancelled: nothing is sent
    merge.click()
    expect(page.get_by_test_id("namesakes")).to_be_visible()
    assert CustomerPerson.objects.get(uuid=twin["uuid"]).merged_into_id is None

    page.once("dialog", dialog_answer(dialogs, accept=True))
    merge.click()
    expect(page.get_by_role("alert")).to_contain_text(
        "is merged into this record and no longer screened. Moved here: the address Bryggen 5, 5003 Bergen, NO; "
        "the customer reference K-10231. Its cases stay on it.")
    expect(page.get_by_test_id("person-reference")).to_contain_text("K-10231")
    expect(page.get_by_test_id("addresses")).to_contain_text("Bryggen 5, 5003 Bergen, NO")
    expect(page.get_by_test_id("namesakes")).to_have_count(0)
    page.screenshot(path=str(shots / "customer-person-merged-into.png"), full_page=True)
    assert dialogs[0] == dialogs[1]
    assert dialogs[0].startswith("Merge KARI NORDMANN (K-10231), added ")
    assert dialogs[0].endswith(", into this record? Moved here: the address Bryggen 5, 5003 Bergen, NO; the customer reference "
                               "K-10231. Its screening stops and it is marked merged. Its cases stay on it.")

    page.get_by_test_id("merged-here").get_by_role("link").click()
    expect(page.get_by_test_id("merged-into")).to_contain_text("Merged into another record")
    expect(page.get_by_test_id("person-forms")).to_have_count(0)
    expect(page.get_by_test_id("monitor-form")).to_have_count(0)
    page.screenshot(path=str(shots / "customer-person-merged.png"), full_page=True)
    page.get_by_test_id("merged-into").get_by_role("link").click()
    expect(page.get_by_test_id("person-name")).to_have_text("Kari Nordmann")
    assert page.js_errors == []
