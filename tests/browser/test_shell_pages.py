"""The shell and the company page as an officer sees them (issue #23 item 10): Norwegian numbers on the
page and in the charts, the home work list, the health page and the 404 page, with screenshots.

Screenshots go to $VAKT_SCREENSHOT_DIR when it is set (for looking at them), else to tmp_path.
"""

import re
import uuid
from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from portal.models import Member
from portal.tasks import worker_heartbeat
from reports.models import ReportDownload
from service.companies.analysis import analysis_refresh
from service.watchlists.services import watchlist_create
from tests.portal.conftest import make_member
from tests.service.companies.factories import accounts_make, company_make, employment_make, payment_remark_make
from tests.browser.conftest import log_in


@pytest.fixture
def company(transactional_db):
    company = company_make(name="Havbris Teknologi AS", org_nr="913748174")
    accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024, balance={"total_equity": Decimal("3328000")},
                  notes=(("emphasis_of_matter", "The auditor points to the note on a disputed customer claim."),))
    employment_make(company=company, count=12, start=date(2023, 1, 1), end=date(2024, 1, 1))
    employment_make(company=company, count=18, start=date(2024, 1, 1))
    payment_remark_make(company=company, amount=Decimal("184500"), creditor_name="Inkasso Norge AS")
    peers = [company_make(name=f"Konkurrent {i} AS") for i in range(6)]
    for i, peer in enumerate(peers):
        accounts_make(company=peer, year=2024, balance={"total_equity": Decimal(900000 * (i + 1) - 1500000)})
    analysis_refresh(company_uuids=[company.uuid, *[p.uuid for p in peers]])
    return company


def test_the_company_page_reads_in_norwegian(page, member, company, shots):
    log_in(page, member)
    page.goto(f"/companies/{company.uuid}/")

    expect(page.get_by_test_id("benchmark-stats")).to_be_visible()
    page.select_option("#measure", "equity_ratio")
    expect(page.get_by_test_id("own-value")).to_contain_text(re.compile(r"This company: 41,6\s%"))
    expect(page.locator("canvas[data-chart=benchmark][data-drawn='1']")).to_be_visible()
    expect(page.get_by_test_id("accounts")).to_contain_text(re.compile(r"10\s000\s000"))
    page.locator("[data-testid=risk-factors] summary").click()

    labels = page.evaluate("Chart.getChart(document.querySelector('canvas[data-chart=benchmark]')).data.labels")
    assert labels and all("%" in label for label in labels), labels
    assert not any(re.search(r"\d\.\d", label) for label in labels), labels  # decimal commas, not points
    ticks = page.evaluate(
        "Chart.getChart(document.querySelector('canvas[data-chart=benchmark]')).scales.y.ticks.map(t => t.label)"
    )
    assert ticks and all(re.fullmatch(r"[\d\u00a0]+", tick) for tick in ticks), ticks
    page.screenshot(path=str(shots / "shell-company.png"), full_page=True)
    assert list(page.js_errors) == []


def test_the_home_page_is_a_work_list(page, member, transactional_db, shots):
    kunder = watchlist_create(app_customer_uuid=member.app_customer.uuid, watchlist_name="Kunder")
    watchlist_create(app_customer_uuid=member.app_customer.uuid, watchlist_name="Leverandører")
    for name, status in (("Havbris Teknologi AS", "complete"), ("Fjellvann Bygg AS", "processing")):
        ReportDownload.objects.create(
            organisation=member.organisation, ordered_by=member.member, order_uuid=uuid.uuid4(),
            report_uuid=uuid.uuid4(), company_uuid=uuid.uuid4(), company_name=name,
            report_type="company_profile", status=status,
        )

    log_in(page, member)

    expect(page.get_by_test_id("work-watchlists")).to_contain_text("Kunder")
    expect(page.get_by_test_id("reports-ready-count")).to_have_text("1")
    page.screenshot(path=str(shots / "shell-home.png"), full_page=True)
    page.get_by_test_id("role").click()
    expect(page.get_by_test_id("role-abilities")).to_contain_text("payment remarks")
    page.screenshot(path=str(shots / "shell-home-role-menu.png"))
    page.get_by_role("link", name="Kunder").click()
    expect(page).to_have_url(re.compile(f"/watchlists/{kunder.uuid}/$"))
    assert list(page.js_errors) == []


def test_the_health_page_shows_details_to_admins(page, transactional_db, shots):
    worker_heartbeat()
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    log_in(page, admin)

    page.goto("/health/")
    expect(page.get_by_test_id("health-summary")).to_have_text("all good")
    page.locator("[data-testid=health-details] summary").click()
    expect(page.get_by_test_id("health-details")).to_contain_text(str(admin.app_customer.uuid))
    page.screenshot(path=str(shots / "shell-health.png"), full_page=True)


def test_the_404_page_keeps_the_frame(page, member, settings, shots):
    settings.DEBUG = False
    log_in(page, member)

    response = page.goto("/no-such-page/")

    assert response.status == 404
    expect(page.get_by_test_id("error-404")).to_contain_text("This page does not exist")
    expect(page.get_by_test_id("who")).to_be_visible()
    page.screenshot(path=str(shots / "shell-404.png"), full_page=True)
