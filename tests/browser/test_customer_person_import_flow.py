"""An admin imports customer persons from a file on the approvals page's Customer persons tab: a file
with a bad row is checked and its problems are listed by line and column; the corrected file is
checked (htmx swaps only the result panel, so the file stays chosen), and imported with the same
chosen file; the tab then lists the persons, waiting for approval. axe finds no violation in the
swapped panel.

At 1400 and 390 px wide; the screenshots (`person-import-*-<width>.png`) go to $VAKT_SCREENSHOT_DIR
when it is set, else tmp_path.
"""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from portal.models import Member
from service.screening.models import CustomerPerson
from tests.browser.conftest import log_in
from tests.browser.test_accessibility import _violations
from tests.conftest import ApiCaller
from tests.portal.conftest import make_member
from tests.service.screening.helpers import config_make

GOOD = (
    "id;name;birth_date;gender;nationality;national_id;national_id_country;street_address;postal_code;postal_place;address_country\n"
    "K-10231;Ingrid Haugland;1979-04-22;female;NO;22047948464;NO;Kongens gate 8;7011;Trondheim;NO\n"
    "K-10232;Erik Johansson;1983-11-05;male;SE;831105-2313;SE;Drottninggatan 41;111 21;Stockholm;SE\n"
    "K-10233;Ahmad Karimi;14.02.1990;male;NO;;;Nygårdsgaten 5;5015;Bergen;NO\n"
)
BAD = GOOD + "K-10234;Ola Hansen;2999-01-01;male;NO;;;;;;\nK-10235;Per Olsen;1970-01-01;sometimes;NO;;;;;;\n"


@pytest.fixture
def admin(transactional_db):
    admin = make_member("Nordbank ASA", "ingrid", role=Member.Role.ADMIN)
    config_make(ApiCaller(Client(), admin.credentials))
    return admin


@pytest.mark.parametrize("width", [1400, 390])
def test_an_admin_checks_a_file_then_imports_the_same_chosen_file(page, admin, shots, tmp_path, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, admin)
    page.goto("/screening/approvals/?view=persons")
    expect(page.get_by_role("heading", name="Import customer persons from a file")).to_be_visible()
    page.screenshot(path=str(shots / f"person-import-form-{width}.png"), full_page=True)

    chosen = page.get_by_label("CSV file (UTF-8)")
    check = page.get_by_role("button", name="Check the file")
    bad = tmp_path / "kunder-uke-48.csv"
    bad.write_text(BAD, encoding="utf-8")
    chosen.set_input_files(bad)
    check.click()
    problems = page.get_by_test_id("person-import-problems")
    expect(problems).to_contain_text("Nothing was imported. Correct the file and check it again:")
    expect(problems).to_contain_text("Line 5, birth_date:")
    expect(problems).to_contain_text("Line 6, gender:")
    expect(check).to_be_enabled()  # disabled while the check is on its way
    page.screenshot(path=str(shots / f"person-import-problems-{width}.png"), full_page=True)
    assert _violations(page) == []  # the swapped panel too, as assistive technology reads it

    good = tmp_path / "kunder-uke-48-rettet.csv"
    good.write_text(GOOD, encoding="utf-8")
    chosen.set_input_files(good)
    page.get_by_label("Why these persons are screened").fill("Private customers of Nordbank")
    check.click()
    summary = page.get_by_test_id("person-import-summary")
    expect(summary).to_contain_text("kunder-uke-48-rettet.csv checked, 3 rows: nothing is imported yet.")
    expect(summary).to_contain_text("3 new customer persons would be added")
    expect(page.get_by_test_id("person-import-row")).to_have_count(3)
    expect(page.get_by_test_id("person-import-row").nth(2)).to_contain_text("14.02.1990")
    expect(check).to_be_enabled()
    page.screenshot(path=str(shots / f"person-import-check-{width}.png"), full_page=True)
    assert _violations(page) == []
    assert chosen.evaluate("input => input.files.length") == 1  # still chosen: only the panel was swapped
    assert CustomerPerson.objects.count() == 0

    page.get_by_role("button", name="Import", exact=True).click()
    summary = page.get_by_test_id("person-import-summary")
    expect(summary).to_contain_text("kunder-uke-48-rettet.csv imported, 3 rows.")
    expect(summary).to_contain_text("3 new customer persons added")
    expect(summary).to_contain_text("The 3 new monitorings wait under Pending for a decision.")
    expect(page.get_by_test_id("customer-person")).to_have_count(3)
    page.screenshot(path=str(shots / f"person-import-done-{width}.png"), full_page=True)
    assert CustomerPerson.objects.count() == 3

    page.get_by_test_id("person-import-row").first.get_by_role("link", name="Ingrid Haugland").click()
    expect(page.locator("h1")).to_contain_text("Ingrid Haugland")
    assert page.js_errors == []
