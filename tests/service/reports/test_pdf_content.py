"""What the PDFs say: figures in Norwegian format, and roles respected."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from django.core.files.storage import default_storage
from django.utils import timezone

from service.companies.analysis import analysis_refresh
from service.reports.content import report_content_gather
from service.reports.models import PartnerReport
from service.reports.paths import storage_name
from tests.service.companies.factories import accounts_make, company_make, person_make, role_make
from tests.service.reports.conftest import order_reports, pdf_text


def text_of(caller, capture, company, key, *, roles=("credit_check",)) -> str:
    answer = order_reports(caller, capture, company, key, roles=roles)
    report = PartnerReport.objects.get(uuid=answer["partner_report_composites"][0]["partner_report"]["uuid"])
    with default_storage.open(storage_name(report.file_path)) as handle:
        return pdf_text(handle.read())[0]


def test_a_company_profile_shows_the_register_risk_flags_and_key_figures(api, company, django_capture_on_commit_callbacks):
    text = text_of(api, django_capture_on_commit_callbacks, company, "company_profile", roles=())

    assert "Company profile" in text and "Org. nr. NO 913 748 174" in text
    assert "Risk score" in text and "risk class" in text
    assert "Missing accounts" in text  # an active flag, with its evidence in words
    words = " ".join(text.split())  # table cells wrap
    assert "No accounts filed for 2025 (deadline 31.07.2026)." in words and "Last accounts filed: 2024." in words
    assert "01.08.2026" in text  # the flag's day in Oslo (it began at 22:00 UTC the day before)
    for figure in ("58 990 000", "-350 000", "41,6 %", "-0,8 %", "31 000 000"):
        assert figure in text, figure
    assert "2020" in text and "2024" in text
    assert "Operating income and annual result (million NOK)" in text


def test_a_company_profile_dates_the_score_and_the_flags_by_the_day_in_oslo(api, stopped_clock, django_capture_on_commit_callbacks):
    stopped_clock.now = datetime(2026, 11, 26, 23, 30, tzinfo=UTC)  # 00:30 on 27 November in Oslo
    company = company_make(name="Midnatt AS")
    accounts_make(company=company, year=2024, balance={"total_equity": Decimal("-1")})  # announced 15.06.2025
    analysis_refresh(company_uuids=[company.uuid])

    text = text_of(api, django_capture_on_commit_callbacks, company, "company_profile", roles=())

    assert "computed 27.11.2026." in " ".join(text.split())
    flags = text[text.index("Active flags"):text.index("Key figures")]
    assert "15.06.2025" in flags and "14.06.2025" not in flags  # negative equity since the accounts were announced


def test_a_company_profile_without_credit_check_shows_no_payment_remarks(api, company, django_capture_on_commit_callbacks):
    text = text_of(api, django_capture_on_commit_callbacks, company, "company_profile", roles=())

    assert "unsettled" not in text.lower()  # no remark factors, no payment_remarks flag
    assert "184 500" not in text and "Inkasso Norge" not in text and "Collection cases" not in text
    assert "ordered without the credit_check role" in " ".join(text.split())  # said whether or not there are remarks


def test_a_company_profile_shows_the_score_the_ordering_roles_allow(api, company, django_capture_on_commit_callbacks):
    def in_pdf(roles) -> tuple[float, str]:
        text = text_of(api, django_capture_on_commit_callbacks, company, "company_profile", roles=roles)
        shown = re.search(r"Risk score (\S+) of 100 \(higher is riskier\); risk class (.+?)\. Model", " ".join(text.split()))
        score, risk_class = shown.groups()
        return float(score.replace(",", ".")), risk_class.lower().replace(" ", "_")

    def on_the_endpoint(roles) -> tuple[float, str]:
        url = f"/analysis/v1/company/{company.uuid}/company-credit-risk-composite"
        risk = api.get(url, roles=list(roles)).json()[0]["company_credit_risk"]
        return risk["risk_score"], risk["risk_class"]

    public, full = in_pdf(()), in_pdf(("credit_check",))

    assert public == on_the_endpoint(())  # computed without the remark factors (test_payment_remark_visibility)
    assert full == on_the_endpoint(("credit_check",))
    assert full[0] > public[0]  # the remark's points are in the full score only


def test_a_company_profile_with_credit_check_shows_the_remark_factors(api, company, django_capture_on_commit_callbacks):
    text = text_of(api, django_capture_on_commit_callbacks, company, "company_profile")

    assert "Unsettled payment remarks" in text and "184 500 kr" in text
    assert "Vakt's own analysis (credit risk model" in " ".join(text.split())


def test_a_credit_report_adds_remarks_and_collection_cases(api, company, django_capture_on_commit_callbacks):
    text = text_of(api, django_capture_on_commit_callbacks, company, "credit_report")

    assert "Credit report" in text
    assert "Payment remarks" in text and "Collection cases" in text
    assert "184 500 kr" in text and "K-7731" in text and "01.03.2025" in text


def test_an_ownership_report_shows_roles_chains_and_owners(api, company, django_capture_on_commit_callbacks):
    text = text_of(api, django_capture_on_commit_callbacks, company, "ownership_report", roles=())

    assert "Ownership report" in text
    assert "Chair of the board" in text and "Kari Nordmann" in text and "CEO (daglig leder)" in text
    assert "Nordlys Holding AS" in text and "62,0 %" in text and "100,0 %" in text
    owners = text[text.index("Beneficial owners"):]
    assert "Kari Nordmann" in owners and "Per Berg" in owners and "38,0 %" in owners
    assert "Nordlys Holding AS (100,0 %)" in owners  # the chain behind Kari Nordmann's 62 %
    flat = " ".join(text.split())
    assert "docs/" not in flat  # a document a bank files names no file of ours
    assert "Sources: the Brønnøysund registers as held by Vakt. Generated" in flat  # no credit model it does not hold


def test_an_ownership_report_leaves_out_a_role_that_starts_later(api, company, stopped_clock, django_capture_on_commit_callbacks):
    tomorrow = timezone.localdate() + timedelta(days=1)
    role_make(company=company, role_key="board_member", person=person_make(full_name="Siri Senere"), from_date=tomorrow)

    text = text_of(api, django_capture_on_commit_callbacks, company, "ownership_report", roles=())

    assert "Kari Nordmann" in text and "Siri Senere" not in text


def test_an_ownership_report_produced_as_midnight_passes_agrees_with_itself(api, company, monkeypatch):
    """Per Berg's 38 % ends at midnight: the roles, the chains and the owners all say the same."""
    before_midnight = date(2026, 11, 26)
    berg = company.roles.get(holder_person__full_name="Per Berg")
    berg.to_date = before_midnight + timedelta(days=1)
    berg.save()
    days = iter([before_midnight])
    monkeypatch.setattr(timezone, "localdate", lambda *args: next(days, before_midnight + timedelta(days=1)))

    content = report_content_gather(
        company=company, report_type_key="ownership_report", granted_roles=frozenset(), ordered_by="Test",
        ordered_at=timezone.now(), report_uuid=uuid.uuid4(),
    )

    assert "Per Berg" in [role["holder"] for role in content.roles]
    assert "Per Berg" in [link.holder_name for link in content.ownership]
    assert "Per Berg" in [owner.full_name for owner in content.beneficial_owners.owners]
