"""The company page shows a member only what their dashboard role grants (issue #20 item 3):
a viewer sees no payment remark anywhere (remarks, flags, their evidence, the score's factors)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from portal.models import Member
from service.companies.analysis import analysis_refresh
from tests.companies.conftest import make_member
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

REMARK_AMOUNT = Decimal("187654")


@pytest.fixture
def debt_free(db):
    """The indebted company's twin without the payment remark."""
    company = company_make(name="Skyldfri Handel AS")
    accounts_make(company=company, year=2024)
    analysis_refresh(company_uuids=[company.uuid])
    return company


@pytest.fixture
def indebted(db):
    company = company_make(name="Skyldig Handel AS")
    accounts_make(company=company, year=2024)
    payment_remark_make(company=company, amount=REMARK_AMOUNT, creditor_name="Inkasso Norge AS")
    analysis_refresh(company_uuids=[company.uuid])
    return company


def _page(member, company) -> str:
    response = member.client().get(f"/companies/{company.uuid}/")
    assert response.status_code == 200
    return response.content.decode()


def _amount_forms(amount: Decimal) -> list[str]:
    whole = int(amount)
    return [str(whole), f"{whole:,}", f"{whole:,}".replace(",", " "), f"{whole:,}".replace(",", "\xa0")]


def test_a_viewer_sees_no_payment_remark_anywhere(db, indebted):
    viewer = make_member("Nordbank ASA", "vera", role=Member.Role.VIEWER)

    page = _page(viewer, indebted)

    assert 'data-testid="risk"' in page  # the score itself is shown
    assert not re.search(r"payment|remark", page, re.IGNORECASE)
    assert not any(form in page for form in _amount_forms(REMARK_AMOUNT))
    assert "Inkasso Norge AS" not in page
    assert "2 factors hidden from your role; the score and class are computed without them." in page


@pytest.mark.parametrize("role", [Member.Role.OFFICER, Member.Role.ADMIN])
def test_an_officer_and_an_admin_see_them(db, indebted, role):
    member = make_member("Nordbank ASA", "olga", role=role)

    page = _page(member, indebted)

    assert 'data-testid="payment-remark"' in page and "Inkasso Norge AS" in page
    assert "Payment remarks" in page  # the flag
    assert any(form in page for form in _amount_forms(REMARK_AMOUNT))  # in the table and the flag's evidence
    assert "Unsettled remarks, amount" in page  # a factor of the score, under the PDF's label
    assert "187\xa0654\xa0kr" in page  # in Norwegian format, without stray decimals


def test_an_officer_of_an_organisation_without_credit_check_sees_none(db, indebted):
    officer = make_member("Nordbank ASA", "otto", roles=["aml"], role=Member.Role.OFFICER)

    page = _page(officer, indebted)

    assert not re.search(r"payment|remark", page, re.IGNORECASE)


def _risk(page) -> str:
    """The score and class as the page shows them."""
    block = page.split('data-testid="risk">')[1].split("</div>")[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", block)).strip()


def test_without_credit_check_the_score_is_the_one_without_the_remark_factors(db, indebted, debt_free):
    viewer = make_member("Nordbank ASA", "vera", role=Member.Role.VIEWER)
    officer = make_member("Kredittbanken ASA", "olga", role=Member.Role.OFFICER)

    seen_by_viewer = _risk(_page(viewer, indebted))

    # A viewer cannot tell the company from its twin without the remark, nor the remark's weight.
    assert seen_by_viewer == _risk(_page(viewer, debt_free)) == _risk(_page(officer, debt_free))
    assert _risk(_page(officer, indebted)) != seen_by_viewer


def test_the_search_shows_the_class_without_the_remark_factors_without_credit_check(db, indebted, debt_free):
    def classes(member) -> dict[str, str]:
        page = member.client().get("/companies/", {"q": "Skyld"}).content.decode()
        rows = page.split("<tbody>")[1].split("<tr>")[1:]
        return {
            re.search(r">(Skyld\w+ Handel AS)<", row).group(1): re.search(r"badge risk-(\w+)", row).group(1)
            for row in rows
        }

    seen = classes(make_member("Nordbank ASA", "otto", roles=["aml"]))
    full = classes(make_member("Kredittbanken ASA", "olga"))

    assert seen["Skyldig Handel AS"] == seen["Skyldfri Handel AS"] == full["Skyldfri Handel AS"]
    assert full["Skyldig Handel AS"] != seen["Skyldig Handel AS"]
