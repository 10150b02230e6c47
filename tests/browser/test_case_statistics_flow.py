"""An officer opens the case statistics from the queue, narrows the period to six months (the
select applies at once) and downloads the table as CSV.

Screenshot `case-statistics.png` goes to $VAKT_SCREENSHOT_DIR when it is set, else tmp_path.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.screening.test_case_statistics_page import officer_with_cases
from tests.service.screening.cases.conftest import lists  # noqa: F401


def test_an_officer_reads_the_case_statistics(page, transactional_db, lists, shots):  # noqa: F811
    officer = officer_with_cases()

    log_in(page, officer)
    page.goto("/screening/cases/")
    page.get_by_test_id("queue-statistics").click()
    expect(page.get_by_role("heading", name="Case statistics")).to_be_visible()
    expect(page.get_by_test_id("statistics-month")).to_have_count(12)
    expect(page.get_by_test_id("open-over-month")).to_have_text("1")

    page.get_by_label("Period").select_option("6")  # applies at once (autosubmit.js)
    expect(page.get_by_test_id("statistics-month")).to_have_count(6)
    expect(page).to_have_url(re.compile(r"/statistics/\?months=6$"))  # "anyone screened" leaves the URL clean
    page.screenshot(path=str(shots / "case-statistics.png"), full_page=True)

    with page.expect_download() as info:
        page.get_by_test_id("statistics-csv").click()
    assert info.value.suggested_filename.startswith("screening-case-statistics-nordbank-asa-")
    assert list(page.js_errors) == []
