"""Find a company, read its page and its sector benchmark, in a real browser."""

import re
from datetime import date
from decimal import Decimal

from playwright.sync_api import expect

from service.companies.analysis import analysis_refresh
from tests.service.companies.factories import accounts_make, company_make, employment_make
from tests.browser.conftest import log_in


def test_it_finds_a_company_and_shows_its_page_and_benchmark(page, member):
    company = company_make(name="Havbris Teknologi AS")
    for year in (2023, 2024):
        accounts_make(company=company, year=year)
    employment_make(company=company, count=12, start=date(2023, 1, 1), end=date(2024, 1, 1))
    employment_make(company=company, count=18, start=date(2024, 1, 1))
    peers = [company_make(name=f"Konkurrent {i} AS") for i in range(4)]
    for i, peer in enumerate(peers):
        accounts_make(company=peer, year=2024, income={"result_before_tax": Decimal(200000 * (i + 1))})
    analysis_refresh(company_uuids=[company.uuid, *[p.uuid for p in peers]])

    log_in(page, member)
    page.locator("#nav").get_by_role("link", name="Companies", exact=True).click()
    page.get_by_role("searchbox", name="Search companies").fill("havbris")
    page.get_by_role("link", name="Havbris Teknologi AS").click()

    expect(page.get_by_test_id("company-name")).to_have_text("Havbris Teknologi AS")
    expect(page.get_by_test_id("risk")).to_be_visible()
    expect(page.locator("canvas[data-chart=employment][data-drawn='1']")).to_be_visible()
    # the benchmark panel loads by itself for the latest year, through htmx
    expect(page.get_by_test_id("benchmark-stats")).to_contain_text("5 (5 with a value)")
    expect(page.locator("canvas[data-chart=benchmark][data-drawn='1']")).to_be_visible()

    page.select_option("#measure", "equity_ratio")
    expect(page.get_by_test_id("own-value")).to_contain_text(re.compile(r"This company: 40,0\s%"))  # 3.2m of 8m
    expect(page.get_by_test_id("top").locator("li")).to_have_count(3)

    assert list(page.js_errors) == []
