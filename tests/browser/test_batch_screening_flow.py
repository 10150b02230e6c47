"""An officer screens a CSV file of this week's new customers from the browser: a file with a bad row
is refused with its problems listed by line, the corrected file is screened, and its result is
downloaded as CSV with the UN-listed person and company among the hits.

Screenshots `batch-screening-problems.png` and `batch-screening.png` go to $VAKT_SCREENSHOT_DIR when it
is set, else tmp_path.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from playwright.sync_api import expect

from service.screening.models import ScreeningBatch
from tests.browser.conftest import log_in
from tests.screening.helpers import api_of, member_make
from tests.service.screening.cases.conftest import lists  # noqa: F401
from tests.service.screening.cases.steps import config_with

GOOD = (
    "type;id;name;birth_date;nationality;country\n"
    "person;K-1;Dragunov Ivan Sergeevich;1966-03-14;RU;\n"
    "person;K-2;Kari Nordmann;1980-05-17;NO;\n"
    "company;K-3;Koryo Fjord Trading AS;;;\n"
)


@pytest.fixture
def officer(transactional_db, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    officer = member_make("Nordbank ASA", "ingrid")
    config_with(api_of(officer), "un_security_council")
    return officer


def test_an_officer_screens_a_file_and_downloads_the_result(page, officer, lists, shots, tmp_path):  # noqa: F811
    log_in(page, officer)
    page.get_by_test_id("nav-menu-toggle").click()
    page.get_by_test_id("nav-batches").click()
    expect(page.get_by_role("heading", name="Batch screening")).to_be_visible()
    expect(page.get_by_test_id("no-batches")).to_be_visible()

    bad = tmp_path / "new customers.csv"
    bad.write_text(GOOD + "person;K-4;Ola Hansen;2999-01-01;NO;\n", encoding="utf-8")
    page.get_by_label("CSV file (UTF-8)").set_input_files(bad)
    page.get_by_role("button", name="Screen the file").click()
    problems = page.get_by_test_id("batch-problems")
    expect(problems).to_contain_text("Nothing was screened")
    expect(problems).to_contain_text("Line 5, birth_date:")
    page.screenshot(path=str(shots / "batch-screening-problems.png"), full_page=True)
    assert ScreeningBatch.objects.count() == 0

    good = tmp_path / "new customers.csv"
    good.write_text(GOOD, encoding="utf-8")
    page.get_by_label("CSV file (UTF-8)").set_input_files(good)
    page.get_by_role("button", name="Screen the file").click()
    row = page.get_by_test_id("batch-row")
    expect(row).to_have_count(1)
    expect(row.get_by_test_id("batch-status")).to_contain_text("Done")  # polled every 2 s until then
    expect(row.get_by_test_id("batch-hits")).to_contain_text("2")
    page.screenshot(path=str(shots / "batch-screening.png"), full_page=True)

    row.get_by_test_id("batch-link").click()
    expect(page.get_by_test_id("batch-summary")).to_contain_text("2 with possible hits")
    expect(page.get_by_test_id("batch-hit-row").first).to_contain_text("Dragunov Ivan Sergeevich")
    page.screenshot(path=str(shots / "batch-screening-result.png"), full_page=True)
    page.go_back()

    with page.expect_download() as info:
        row.get_by_test_id("batch-result-csv").click()
    assert info.value.suggested_filename == "new-customers-result.csv"
    rows = {}
    for line in csv.DictReader(Path(info.value.path()).read_text(encoding="utf-8-sig").splitlines()):
        rows.setdefault(line["Your reference"], line)  # a line per hit, the best first
    assert rows["K-1"]["List"] == "UN Security Council Consolidated List" and rows["K-1"]["Source id"] == "KPi.901"
    assert rows["K-1"]["List type"] == "Sanction" and "Birth date: agrees" in rows["K-1"]["Why"]
    assert rows["K-3"]["Source id"] == "KPe.901" and rows["K-2"]["Possible hit"] == "No"
    assert list(page.js_errors) == []
