"""Fixtures for partner reports: a scored company with accounts, roles and remarks; files in a temp folder."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from pypdf import PdfReader

from service.companies.analysis import analysis_refresh
from tests.service.companies.factories import (
    accounts_make, collection_case_make, company_make, payment_remark_make, person_make, role_make,
)

NBSP = "\u00a0"
# The day the company is analysed on: its last accounts are for 2024, so the missing-accounts flag
# the reports show names 2025 (due by 31 July 2026) on this day, not whichever year is due today.
ANALYSED_ON = date(2026, 9, 1)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def media_root(_media):
    return _media


@pytest.fixture
def company(db):
    """Nordlys Handel AS: five years of accounts, a board, a holding chain and an unsettled payment remark."""
    company = company_make(name="Nordlys Handel AS", org_nr="913748174", employees=42, founded_date=date(2008, 5, 2))
    for year, income, result, equity in (
        (2020, "48250000", "1210000", "9100000"),
        (2021, "51730400", "1875300", "10400000"),
        (2022, "55012900", "2398700", "11800000"),
        (2023, "53120000", "-350000", "11200000"),
        (2024, "58990000", "2745000", "12900000"),
    ):
        total_assets = Decimal("31000000")
        accounts_make(
            company=company, year=year,
            income={"total_operating_income": Decimal(income), "total_sales": Decimal(income),
                    "other_operating_income": Decimal(0), "operating_result": Decimal(result) + 400000,
                    "result_before_tax": Decimal(result), "annual_result": Decimal(result)},
            balance={"total_assets": total_assets, "total_equity": Decimal(equity),
                     "total_equity_and_liabilities": total_assets},
        )
    holding = company_make(name="Nordlys Holding AS")
    founder = person_make(full_name="Kari Nordmann")
    role_make(company=company, role_key="board_chair", person=founder, from_date=date(2015, 1, 1))
    role_make(company=company, role_key="ceo", person=person_make(full_name="Ola Hansen"), from_date=date(2019, 3, 1))
    role_make(company=company, role_key="shareholder", holder_company=holding, share_percentage=Decimal("62"))
    role_make(company=company, role_key="shareholder", person=person_make(full_name="Per Berg"), share_percentage=Decimal("38"))
    role_make(company=holding, role_key="shareholder", person=founder, share_percentage=Decimal("100"))
    case = collection_case_make(company=company, amount="184500", opened=date(2025, 1, 5), case_reference="K-7731")
    payment_remark_make(company=company, amount="184500", registered=date(2025, 3, 1), collection_case=case,
                        creditor_name="Inkasso Norge AS")
    analysis_refresh(company_uuids=[company.uuid, holding.uuid], today=ANALYSED_ON)
    return company


def pdf_text(content: bytes) -> tuple[str, int]:
    """Every page's text (no-break spaces as plain spaces) and the page count."""
    reader = PdfReader(io.BytesIO(content))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return text.replace(NBSP, " "), len(reader.pages)


def order_reports(caller, capture, company, *keys, roles=("credit_check",)) -> dict:
    """Order reports through the API, run the task on commit, and return the answer's JSON."""
    lines = [{"partner_report": {"company_uuid": str(company.uuid), "partner_report_type_key": key}} for key in keys]
    with capture(execute=True):
        response = caller.post(
            f"/analysis/v1/app-customer/{caller.app_customer_uuid}/partner-report-order-composite",
            {"partner_report_composites": lines}, roles=list(roles),
        )
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def report_file(api, company, django_capture_on_commit_callbacks):
    """The file path of a complete company profile of `api`'s organisation, ordered without roles
    (so any caller of the organisation may download it)."""
    from service.reports.models import PartnerReport

    answer = order_reports(api, django_capture_on_commit_callbacks, company, "company_profile", roles=())
    return PartnerReport.objects.get(uuid=answer["partner_report_composites"][0]["partner_report"]["uuid"]).file_path
