"""Company pages when the service is busy (its rate limit, a 429): the sentence the case queue shows, not the 500 page."""

from __future__ import annotations

import pytest

from service.companies.analysis import analysis_refresh
from tests.service.companies.factories import accounts_make, company_make
from tests.service_busy import BUSY, service_busy


@pytest.fixture
def company(db):
    company = company_make(name="Havbris Teknologi AS", org_nr="913748174")
    accounts_make(company=company, year=2024)
    analysis_refresh(company_uuids=[company.uuid])
    return company


def test_the_company_page_says_the_service_is_busy(member, company, settings):
    client = member.client()
    service_busy(settings, member)

    response = client.get(f"/companies/{company.uuid}/")

    page = response.content.decode()
    assert response.status_code == 503 and int(response["Retry-After"]) > 0  # the service's own wait
    assert BUSY in page
    assert "Companies</a>" in page  # inside the site's frame, the way back to the search
    assert "error-500" not in page


def test_the_search_and_the_benchmark_panel_say_it_too(member, company, settings):
    client = member.client()
    service_busy(settings, member)

    search = client.get("/companies/", {"q": "havbris"})
    benchmark = client.get(f"/companies/{company.uuid}/benchmark/", {"measure": "return_on_assets", "year": "2024"},
                           HTTP_HX_REQUEST="true")

    assert search.status_code == 200 and BUSY in search.content.decode()
    assert benchmark.status_code == 200 and BUSY in benchmark.content.decode()
