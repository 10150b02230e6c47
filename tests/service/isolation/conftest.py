"""Organisations with every kind of private data, a register company with protected facts, the
screening lists they match, and files in a temp folder."""

from __future__ import annotations

from datetime import date

import pytest

from service.companies.analysis import analysis_refresh
from tests.service.companies.factories import (
    accounts_make, collection_case_make, company_make, payment_remark_make, person_make, role_make,
)
from tests.service.isolation.world import world_make
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON, lists  # noqa: F401  (the fixture)

REGISTER_NATIONAL_ID = "02029012345"  # a board member's number in the register (person_national_identification)
CREDITOR = "Kreditor Hemmelig AS"  # a payment remark's creditor (credit_check)
REMARK_AMOUNT = "48250"
CASE_REFERENCE = "K-7731-H"  # a collection case (credit_check)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture
def company(db):
    """A register company with protected facts: a remark and a collection case, a board member's national id."""
    company = company_make(name="Delt Register AS", org_nr="913748174")
    accounts_make(company=company, year=2024)
    case = collection_case_make(company=company, amount=REMARK_AMOUNT, opened=date(2025, 1, 5), case_reference=CASE_REFERENCE)
    payment_remark_make(company=company, amount=REMARK_AMOUNT, registered=date(2025, 1, 10), creditor_name=CREDITOR,
                        collection_case=case)
    role_make(company=company, role_key="board_chair", person=person_make(full_name="Styre Leder", national_id=REGISTER_NATIONAL_ID),
              from_date=date(2015, 1, 1))
    analysis_refresh(company_uuids=[company.uuid])
    return company


@pytest.fixture
def worlds(db, lists, company, django_capture_on_commit_callbacks):  # noqa: F811
    """(a, b): organisation A's data is the target, B the caller with a mirror of its own."""
    a = world_make("Alfa Sparebank", tag="Alfa", company=company, listed_person=UN_PERSON, capture=django_capture_on_commit_callbacks)
    b = world_make("Beta Finans", tag="Beta", company=company, listed_person=PEP_PERSON, capture=django_capture_on_commit_callbacks)
    return a, b


@pytest.fixture
def world(db, lists, company, django_capture_on_commit_callbacks):  # noqa: F811
    return world_make("Alfa Sparebank", tag="Alfa", company=company, listed_person=UN_PERSON, capture=django_capture_on_commit_callbacks)
