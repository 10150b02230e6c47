"""An admin imports a file of customer persons larger than the synchronous import takes (`VAKT_MAX_BODY_BYTES`,
made small here): it goes to the service's import job. A bad file's problems are listed by line and column; the
corrected file is checked (the panel swapped, the file still chosen) and imported with the same chosen file, and
the panel shows the counts. A job still running says so and is polled every 2 s until it is done. axe finds no
violation in the panels.

At 1400 and 390 px wide; the screenshots (`person-import-job-*-<width>.png`) go to $VAKT_SCREENSHOT_DIR when it
is set, else tmp_path.
"""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.utils import timezone
from playwright.sync_api import expect

from portal.models import Member
from service.screening.models import CustomerPerson, CustomerPersonImportJob
from tests.browser.conftest import log_in
from tests.browser.test_accessibility import _violations
from tests.conftest import ApiCaller
from tests.portal.conftest import make_member
from tests.service.screening.helpers import config_make, customer_person_make

SYNC_LIMIT = 256  # bytes: the files below are larger
GOOD = (
    "id;name;birth_date;gender;nationality;national_id;national_id_country;street_address;postal_code;postal_place;address_country\n"
    "K-10231;Ingrid Haugland;1979-04-22;female;NO;22047948464;NO;Kongens gate 8;7011;Trondheim;NO\n"
    "K-10232;Erik Johansson;1983-11-05;male;SE;831105-2313;SE;Drottninggatan 41;111 21;Stockholm;SE\n"
    "K-10233;Ahmad Karimi;14.02.1990;male;NO;;;Nygårdsgaten 5;5015;Bergen;NO\n"
)
BAD = GOOD + "K-10234;Ola Hansen;2999-01-01;male;NO;;;;;;\nK-10235;Per Olsen;1970-01-01;sometimes;NO;;;;;;\n"


@pytest.fixture
def admin(transactional_db, tmp_path):
    admin = make_member("Nordbank ASA", "ingrid", role=Member.Role.ADMIN)
    admin.config = config_make(ApiCaller(Client(), admin.credentials))
    with override_settings(VAKT_MAX_BODY_BYTES=SYNC_LIMIT, MEDIA_ROOT=str(tmp_path / "media")):
        yield admin


@pytest.mark.parametrize("width", [1400, 390])
def test_an_admin_checks_then_imports_a_file_over_the_sync_limit(page, admin, shots, tmp_path, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, admin)
    page.goto("/screening/approvals/?view=persons")
    chosen = page.get_by_label("CSV file (UTF-8)")
    check = page.get_by_role("button", name="Check the file")

    bad = tmp_path / "kunder-2026.csv"
    bad.write_text(BAD, encoding="utf-8")
    chosen.set_input_files(bad)
    check.click()
    problems = page.get_by_test_id("person-import-problems")
    expect(problems).to_contain_text("Nothing was imported. Correct the file and check it again:")
    expect(problems).to_contain_text("Line 5, birth_date:")
    expect(problems).to_contain_text("Line 6, gender:")
    page.screenshot(path=str(shots / f"person-import-job-problems-{width}.png"), full_page=True)
    assert _violations(page) == []

    good = tmp_path / "kunder-2026-rettet.csv"
    good.write_text(GOOD, encoding="utf-8")
    chosen.set_input_files(good)
    check.click()
    summary = page.get_by_test_id("person-import-summary")
    expect(summary).to_contain_text("kunder-2026-rettet.csv checked, 3 rows.")
    expect(summary).to_contain_text("3 new customer persons would be added.")
    expect(summary).to_contain_text("Nothing was saved: import the file to do this.")
    expect(check).to_be_enabled()
    page.screenshot(path=str(shots / f"person-import-job-check-{width}.png"), full_page=True)
    assert _violations(page) == []
    assert chosen.evaluate("input => input.files.length") == 1  # still chosen: only the panel was swapped
    assert CustomerPerson.objects.count() == 0

    page.get_by_role("button", name="Import", exact=True).click()
    summary = page.get_by_test_id("person-import-summary")
    expect(summary).to_contain_text("kunder-2026-rettet.csv imported, 3 rows.")
    expect(summary).to_contain_text("3 new customer persons added.")
    expect(summary).to_contain_text("The 3 new monitorings wait under Pending for a decision.")
    expect(page.get_by_test_id("person-import-row")).to_have_count(0)  # a job keeps no rows
    expect(page.get_by_test_id("customer-person")).to_have_count(3)  # the tab, read once the job was done
    page.screenshot(path=str(shots / f"person-import-job-done-{width}.png"), full_page=True)
    assert CustomerPerson.objects.count() == 3
    assert page.js_errors == []


@pytest.mark.parametrize("width", [1400, 390])
def test_a_running_job_is_polled_until_it_is_done(page, admin, shots, width):
    job = CustomerPersonImportJob.objects.create(screening_config_id=admin.config["uuid"], file_name="kunder-2026.csv",
                                                 status="running")
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, admin)
    page.goto(f"/screening/approvals/customer-person-import/{job.uuid}/")
    running = page.get_by_test_id("person-import-job")
    expect(running).to_contain_text("Importing kunder-2026.csv … (this takes about a minute per 50\xa0000 rows)")
    running.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"person-import-job-running-{width}.png"), full_page=True)
    assert _violations(page) == []

    customer_person_make(ApiCaller(Client(), admin.credentials), admin.config["uuid"], full_name="Ingrid Haugland")
    CustomerPersonImportJob.objects.filter(pk=job.pk).update(
        status="complete", rows_count=60_000, created_count=59_000, monitored_count=59_500, already_monitored_count=500,
        complete_timestamp=timezone.now())
    summary = page.get_by_test_id("person-import-summary")
    expect(summary).to_contain_text("kunder-2026.csv imported, 60\xa0000 rows.")
    expect(running).to_have_count(0)  # no poll any more
    expect(page.get_by_test_id("customer-person")).to_contain_text("Ingrid Haugland")  # the page, read again
    page.screenshot(path=str(shots / f"person-import-job-polled-{width}.png"), full_page=True)

    CustomerPersonImportJob.objects.filter(pk=job.pk).update(status="failed", failure_code="changed_meanwhile",
                                                             failure_detail="Customer persons changed meanwhile.")
    page.reload()
    expect(page.get_by_test_id("person-import-error")).to_contain_text("Nothing was imported. Customer persons changed meanwhile.")
    page.screenshot(path=str(shots / f"person-import-job-failed-{width}.png"), full_page=True)
    assert page.js_errors == []
