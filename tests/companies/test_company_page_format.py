"""The company page in Norwegian number format and in words (issue #23 item 10): accounts, the score's
factors, flag evidence, auditor notes and the benchmark panel, including its empty states."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone

from service.companies.analysis import analysis_refresh
from service.companies.analysis.flags import accounts_due_year
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

NBSP = "\xa0"


def _page(member, company) -> str:
    response = member.client().get(f"/companies/{company.uuid}/")
    assert response.status_code == 200
    return response.content.decode()


def _benchmark(member, company, **params) -> str:
    response = member.client().get(f"/companies/{company.uuid}/benchmark/", params, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def solid(db):
    """Equity 3 328 000 of 8 000 000 assets: an equity ratio of 41,6 %."""
    company = company_make(name="Solid Drift AS")
    accounts_make(company=company, year=2024, balance={"total_equity": Decimal("3328000")},
                  notes=(("unqualified_opinion", "No remarks."),))
    analysis_refresh(company_uuids=[company.uuid])
    return company


def test_it_shows_the_accounts_in_norwegian_format(member, solid):
    page = _page(member, solid)

    assert f"10{NBSP}000{NBSP}000" in page  # total operating income
    assert f"41,6{NBSP}%" in page  # the equity ratio as a percentage
    assert f"12,8{NBSP}%" in page  # return on assets, (920 000 + 100 000) / 8 000 000
    assert "10,000,000" not in page and "0.416" not in page and "0,416" not in page


def test_it_explains_the_score_by_its_factors_in_words(member, solid):
    page = _page(member, solid)

    assert 'data-testid="risk-factor"' in page
    assert "Equity ratio" in page and "Company age" in page and "Base points" in page
    assert "equity_ratio" not in page.split('data-testid="risk-factors"')[1].split("</details>")[0]
    assert f"40,0{NBSP}% or more" in page  # the factor's band in words
    assert "years</td>" in page  # company age with its unit


def test_it_names_auditor_notes_in_words(member, solid):
    page = _page(member, solid)

    assert "Clean auditor&#x27;s report" in page
    assert "Unqualified opinion" not in page and "unqualified_opinion" not in page


def test_it_says_which_year_of_accounts_is_missing(member, db):
    company = company_make(name="Glemsk AS", registration_date=date(2010, 3, 1))
    accounts_make(company=company, year=2021)
    today = timezone.localdate()
    analysis_refresh(company_uuids=[company.uuid], today=today)  # the day the due year is worked out from
    due = accounts_due_year(today)

    page = _page(member, company)

    assert f"No accounts filed for {due} (deadline 31.07.{due + 1})." in page
    assert "Last accounts filed: 2021." in page
    assert "due_year" not in page and "Due year" not in page


def test_it_states_negative_equity_in_kroner(member, db):
    company = company_make(name="Minus AS")
    accounts_make(company=company, year=2024, balance={"total_equity": Decimal("-1250000")})
    analysis_refresh(company_uuids=[company.uuid])

    page = _page(member, company)

    assert f"Total equity -1{NBSP}250{NBSP}000{NBSP}kr in the 2024 accounts." in page


def test_an_officer_reads_remark_amounts_and_creditors_in_the_flag(member, db):
    company = company_make(name="Skyldig AS")
    accounts_make(company=company, year=2024)
    payment_remark_make(company=company, amount=Decimal("184500"), creditor_name="Inkasso Norge AS",
                        registered=date(2025, 1, 10))
    analysis_refresh(company_uuids=[company.uuid])

    page = _page(member, company)  # `member` is a compliance officer: credit_check is sent

    evidence = "".join(block.split("</ul>")[0] for block in page.split('data-testid="flag-evidence"')[1:])
    assert f"1 unsettled remark, 184{NBSP}500{NBSP}kr in total, the first registered 10.01.2025." in evidence
    assert f"184{NBSP}500{NBSP}kr to Inkasso Norge AS, registered 10.01.2025." in evidence
    assert "184500.00" not in page and "184,500" not in page


@pytest.fixture
def sector(db, solid):
    for i, equity in enumerate(("1000000", "2000000", "4000000", "6000000")):
        peer = company_make(name=f"Peer {i} AS")
        accounts_make(company=peer, year=2024, balance={"total_equity": Decimal(equity)})
        analysis_refresh(company_uuids=[peer.uuid])
    return solid


def test_the_benchmark_panel_shows_ratios_as_percentages(member, sector):
    panel = _benchmark(member, sector, measure="equity_ratio", year="2024")

    assert 'data-testid="benchmark-stats"' in panel
    assert f"This company: <strong>41,6{NBSP}%</strong>" in panel
    assert f"75,0{NBSP}%" in panel  # the highest peer: 6 000 000 / 8 000 000
    assert '"label": "' in panel  # the bars carry labels formatted here, not in the browser
    assert "null" not in panel.replace('"label"', "") and "bucket -1" not in panel


def test_a_year_without_data_says_so(member, sector):
    panel = _benchmark(member, sector, measure="equity_ratio", year="2019")

    assert 'data-testid="benchmark-empty"' in panel
    assert "No company in the sector has equity ratio" in panel and "for 2019" in panel
    assert "null" not in panel and "bucket -1" not in panel and "None" not in panel


def test_a_company_without_a_value_is_said_in_words(member, sector):
    empty = company_make(name="Tom AS")
    analysis_refresh(company_uuids=[empty.uuid])

    panel = _benchmark(member, empty, measure="equity_ratio", year="2024")

    assert "This company has no value for 2024." in panel
    assert "bucket -1" not in panel and "null" not in panel.replace('"label"', "")


def test_a_company_without_accounts_is_asked_for_a_year(member, db):
    empty = company_make(name="Ny AS")

    page = _page(member, empty)
    panel = _benchmark(member, empty, measure="equity_ratio", year="")

    assert "No accounts filed." in page
    assert "Pick a measure and a year." in panel and "alert" not in panel
