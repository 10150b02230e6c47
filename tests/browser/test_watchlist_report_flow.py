"""Fill a watchlist (one bad pasted line, fixed), order a company profile from its row, wait, download the PDF.

Screenshots of each state go to $VAKT_SCREENSHOT_DIR when it is set (for looking at them), else to tmp_path.
"""

import io
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from reports.models import ReportDownload
from reports.tasks import report_download_poll
from service.companies.analysis import analysis_refresh
from tests.reports.helpers import report_types_seed
from tests.service.companies.factories import accounts_make, company_make
from tests.browser.conftest import log_in


@pytest.fixture
def register(transactional_db):
    healthy = company_make(name="Havbris Teknologi AS", org_nr="913748174")
    troubled = company_make(name="Fjellvann Bygg AS")
    for year in (2023, 2024):
        accounts_make(company=healthy, year=year)
        accounts_make(company=troubled, year=year, balance={"total_equity": Decimal("-2500000")})
    analysis_refresh(company_uuids=[healthy.uuid, troubled.uuid])
    report_types_seed()
    return healthy, troubled


def test_it_fills_a_watchlist_orders_a_report_and_downloads_the_pdf(page, member, register, shots, monkeypatch):
    healthy, troubled = register
    # The poll task is run by the test below, so the page's htmx polling has something to wait for.
    queued: list[str] = []
    monkeypatch.setattr(report_download_poll, "delay", lambda download_uuid: queued.append(download_uuid))

    log_in(page, member)
    page.get_by_role("link", name="Watchlists").click()
    expect(page.get_by_test_id("watchlists-empty")).to_be_visible()
    page.get_by_label("New watchlist name").fill("Key customers")
    page.get_by_role("button", name="Create watchlist").click()
    expect(page.get_by_role("alert")).to_contain_text("Watchlist “Key customers” created.")

    # paste two good numbers (one with spaces and the NO prefix) and one with a digit missing
    page.locator("#numbers").fill(f"{healthy.org_nr}\nNO 913 74 817\n{troubled.org_nr}\n")
    page.get_by_role("button", name="Add", exact=True).click()
    bad = page.get_by_test_id("bad-line")
    expect(bad).to_have_count(1)
    expect(bad).to_contain_text("2")
    expect(bad).to_contain_text("is not a valid NO organisation number: it has 8 digits, a Norwegian organisation number has 9")
    page.screenshot(path=str(shots / "watchlist-paste-error.png"), full_page=True)

    page.locator("#numbers").fill(f"{healthy.org_nr}\nNO {troubled.org_nr[:3]} {troubled.org_nr[3:6]} {troubled.org_nr[6:]}\n")
    page.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("alert")).to_contain_text("Added 2 companies; 2 on the watchlist now.")
    rows = page.get_by_test_id("watchlist-company")
    expect(rows).to_have_count(2)
    expect(rows.filter(has_text="Fjellvann Bygg AS")).to_contain_text("Negative total equity")
    page.screenshot(path=str(shots / "watchlist-companies.png"), full_page=True)

    page.locator("#nav").get_by_role("link", name="Watchlists").click()
    expect(page.get_by_test_id("company-count")).to_have_text("2")
    page.screenshot(path=str(shots / "watchlist-list.png"), full_page=True)
    page.get_by_role("link", name="Key customers").click()

    # order a company profile from Havbris' row; the reports page polls the row until it is ready
    row = page.get_by_test_id("watchlist-company").filter(has_text="Havbris Teknologi AS")
    row.get_by_role("button", name="Order a report on Havbris Teknologi AS").click()
    row.get_by_role("button", name="Company profile").click()
    expect(page.get_by_role("alert")).to_contain_text("Company profile of Havbris Teknologi AS ordered.")
    status = page.get_by_test_id("report-status")
    expect(status).to_contain_text("Ordered")
    page.screenshot(path=str(shots / "reports-pending.png"), full_page=True)
    assert len(queued) == 1
    report_download_poll.run(queued[0])  # what the worker does; the page's next poll shows the result
    expect(status).to_contain_text("Ready", timeout=10_000)
    page.screenshot(path=str(shots / "reports.png"), full_page=True)

    with page.expect_download() as info:
        page.get_by_test_id("download").click()
    content = Path(info.value.path()).read_bytes()
    assert content.startswith(b"%PDF")
    assert "Havbris Teknologi AS" in PdfReader(io.BytesIO(content)).pages[0].extract_text()
    assert ReportDownload.objects.get().status == "complete"
    assert list(page.js_errors) == []


def test_it_adds_a_company_found_by_search_and_orders_from_the_company_page(page, member, register, shots):
    healthy, troubled = register
    log_in(page, member)
    page.goto("/watchlists/")
    page.get_by_label("New watchlist name").fill("Suppliers")
    page.get_by_role("button", name="Create watchlist").click()

    page.get_by_role("tab", name="Search").click()
    page.get_by_label("Search companies to add").fill("fjellvann")
    result = page.get_by_test_id("search-result")
    expect(result).to_contain_text("Fjellvann Bygg AS")
    result.get_by_role("button", name="Add").click()
    expect(page.get_by_role("alert")).to_contain_text("Added 1 company; 1 on the watchlist now.")

    page.get_by_role("link", name="Fjellvann Bygg AS").click()
    expect(page.get_by_test_id("company-name")).to_have_text("Fjellvann Bygg AS")
    page.screenshot(path=str(shots / "company-page.png"), full_page=True)
    page.get_by_label("Report type for Fjellvann Bygg AS").select_option("ownership_report")
    page.get_by_role("button", name="Order report").click()
    expect(page.get_by_role("alert")).to_contain_text("Ownership report of Fjellvann Bygg AS ordered.")
    expect(page.get_by_test_id("report-status")).to_contain_text("Ready")
    assert list(page.js_errors) == []


def test_a_viewer_downloads_the_ownership_report_an_officer_with_credit_check_ordered(page, member, register, shots):
    # The officer's calls carry credit_check: the company profile shows payment remarks and stays the
    # officer's, the ownership report shows the same to everyone and is the viewer's too.
    from portal.models import Member
    from reports.services import report_order
    from tests.portal.conftest import add_member

    healthy, _ = register
    for kind in ("ownership_report", "company_profile"):
        report_order(member=member.member, company_uuid=healthy.uuid, report_type=kind)  # the worker runs on commit
    assert set(ReportDownload.objects.values_list("report_type", "status")) == {
        ("ownership_report", "complete"), ("company_profile", "complete")}
    viewer = add_member(member, "vilde", Member.Role.VIEWER)

    log_in(page, viewer)
    page.goto("/reports/")
    rows = page.get_by_test_id("report-row")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Ownership report")
    expect(page.get_by_test_id("reports-count")).to_contain_text("that your role opens")
    page.screenshot(path=str(shots / "reports-viewer.png"), full_page=True)
    with page.expect_download() as info:
        rows.get_by_test_id("download").click()
    content = Path(info.value.path()).read_bytes()
    assert content.startswith(b"%PDF") and "Havbris Teknologi AS" in PdfReader(io.BytesIO(content)).pages[0].extract_text()
    assert list(page.js_errors) == []
