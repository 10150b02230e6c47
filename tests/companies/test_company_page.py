"""The dashboard's company search and company page, served through the service client."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from service.companies.analysis import analysis_refresh
from tests.service.companies.factories import accounts_make, company_make, employment_make


@pytest.fixture
def aker(db):
    company = company_make(name="AKER SOLUTIONS ASA", org_nr="913748174", organization_type="ASA")
    for year in (2022, 2023, 2024):
        accounts_make(company=company, year=year, notes=(("going_concern", "Material uncertainty about going concern."),) if year == 2024 else ())
    accounts_make(company=company, year=2024, type_key="annual_corporate_group_accounts",
                  balance={"total_assets": Decimal("90000000"), "total_equity_and_liabilities": Decimal("90000000")})
    employment_make(company=company, count=40, start=date(2022, 1, 1), end=date(2023, 1, 1))
    employment_make(company=company, count=55, start=date(2023, 1, 1))
    analysis_refresh(company_uuids=[company.uuid])
    return company


def test_it_searches_by_name_and_by_org_number(member, aker):
    client = member.client()
    company_make(name="Fjord Fisk AS")
    by_name = client.get("/companies/", {"q": "aker sol"})
    assert by_name.status_code == 200
    assert "AKER SOLUTIONS ASA" in by_name.content.decode() and "Fjord Fisk" not in by_name.content.decode()
    by_number = client.get("/companies/", {"q": "913 748 174"})
    assert "AKER SOLUTIONS ASA" in by_number.content.decode()
    nothing = client.get("/companies/", {"q": "zzzz-no-such"})
    assert "No company matches" in nothing.content.decode()


def test_it_answers_htmx_search_with_the_results_partial_only(member, aker):
    response = member.client().get("/companies/", {"q": "aker"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "AKER SOLUTIONS ASA" in body
    assert "<html" not in body and 'name="q"' not in body


def test_it_shows_register_data_risk_flags_employment_accounts_and_notes(member, aker):
    response = member.client().get(f"/companies/{aker.uuid}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-testid="company-name">AKER SOLUTIONS ASA<' in body
    assert "913748174" in body and "Storgata 1" in body
    assert 'data-testid="risk"' in body  # score and class from the service's model
    assert "Going concern doubt" in body  # a flag raised from the auditor note
    assert 'id="employment-data"' in body and "55" in body
    assert body.count("<td>2024</td>") == 2  # company and group accounts for 2024
    assert "<td>Group</td>" in body
    assert "Material uncertainty about going concern." in body


def test_it_is_404_for_an_unknown_company(member, db):
    response = member.client().get("/companies/00000000-0000-0000-0000-000000000000/")
    assert response.status_code == 404


def test_it_says_the_service_failed_rather_than_that_the_company_does_not_exist(member, aker, monkeypatch):
    # One of the page's reads fails inside the service (a 500): the company exists, so the page
    # must not answer 404 "No such company", which would send an officer looking elsewhere.
    from service.companies.analysis import selectors

    def failing(**_kwargs):
        raise RuntimeError("the flags table went away")

    monkeypatch.setattr(selectors, "company_flags_active", failing)

    client = member.client()
    client.raise_request_exception = False
    response = client.get(f"/companies/{aker.uuid}/")

    assert response.status_code >= 500
    assert "No such company" not in response.content.decode()


def test_it_needs_a_login(db, client, aker):
    response = client.get(f"/companies/{aker.uuid}/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_it_shows_the_sector_benchmark_with_the_company_marked(member, aker):
    peers = []
    for i, roa_result in enumerate(("100000", "400000", "900000", "1500000", "-300000")):
        peer = company_make(name=f"Peer {i} AS")
        accounts_make(company=peer, year=2024, income={"result_before_tax": Decimal(roa_result)})
        peers.append(peer)
    analysis_refresh(company_uuids=[p.uuid for p in peers])

    response = member.client().get(
        f"/companies/{aker.uuid}/benchmark/", {"measure": "return_on_assets", "year": "2024"}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="benchmark-buckets"' in body
    assert 'data-testid="benchmark-stats"' in body
    assert "6 (6 with a value)" in body  # the company and its five peers
    assert 'data-own-bucket="' in body and 'data-own-bucket=""' not in body
    assert "Peer 2 AS" in body  # highest return on assets, listed with a link


def test_it_explains_a_benchmark_the_service_refuses(member, aker):
    response = member.client().get(f"/companies/{aker.uuid}/benchmark/", {"measure": "no_such_measure", "year": "2024"})
    assert 'data-testid="benchmark-error"' in response.content.decode()


def test_a_year_that_is_not_a_plain_number_is_explained_not_a_500(member, aker):
    for year in ("²", "20²4", "abc"):  # "²".isdigit() is true, int("²") is not
        response = member.client().get(f"/companies/{aker.uuid}/benchmark/", {"measure": "return_on_assets", "year": year})
        assert response.status_code == 200, year
        assert "The year is a four-digit number, e.g. 2024." in response.content.decode(), year


def test_it_lists_names_starting_with_the_query_first(member, db):
    for name in ("Nordic Aker Invest AS", "Aker Bygg AS", "Berg og Aker AS", "Aker ASA"):
        company_make(name=name)
    body = member.client().get("/companies/", {"q": "aker"}).content.decode()
    order = [body.index(name) for name in ("Aker ASA", "Aker Bygg AS", "Berg og Aker AS", "Nordic Aker Invest AS")]
    assert order == sorted(order)


def test_it_reads_the_page_at_once_from_a_remote_service(transactional_db, live_server, settings):
    from tests.companies.conftest import make_member

    company = company_make(name="Fjernt Selskap AS")
    accounts_make(company=company, year=2024, notes=(("going_concern", "Material uncertainty about going concern."),))
    analysis_refresh(company_uuids=[company.uuid])
    member = make_member("Nordbank ASA", "rita")
    settings.VAKT_SERVICE_URL = live_server.url  # the dashboard as a client of another deployment

    body = member.client().get(f"/companies/{company.uuid}/").content.decode()

    assert 'data-testid="company-name">Fjernt Selskap AS<' in body
    assert 'data-testid="risk"' in body and "Going concern doubt" in body and "<td>2024</td>" in body
