"""Writes in service/companies/services.py: validation, register booleans, refresh on commit."""

from datetime import date
from decimal import Decimal

import pytest

from service.companies import models as m
from service.companies import services
from service.errors import BadRequest
from tests.service.companies.factories import accounts_make, collection_case_make, company_make

pytestmark = pytest.mark.django_db


def test_accounts_create_files_statements_notes_and_the_replacement():
    company = company_make()
    old = accounts_make(company=company, year=2024)

    new = services.accounts_create(
        company=company,
        accounting_year=2024,
        income_statement={"total_operating_income": Decimal("5")},
        balance_sheet=None,
        auditor_notes=[("qualified_opinion", "Inventory not verified.")],
        replaces=old,
        audited=False,
    )

    old.refresh_from_db()
    assert old.replaced_by_id == new.uuid
    assert new.income_statement.total_operating_income == Decimal("5")
    assert not m.AccountsBalanceSheet.objects.filter(accounts=new).exists()
    assert new.auditor_notes.get().accounts_auditor_note_type.key == "qualified_opinion"
    company.refresh_from_db()
    assert company.last_submitted_accounts_year == 2024


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"income_statement": {"turnover": 1}}, "income_statement"),
        ({"balance_sheet": {"assets": 1}}, "balance_sheet"),
        ({"auditor_notes": [("clean", "x")]}, "auditor_notes"),
        ({"accounts_type_key": "monthly"}, "accounts_type_key"),
    ],
)
def test_accounts_create_rejects_unknown_fields_and_keys(kwargs, field):
    company = company_make()

    with pytest.raises(BadRequest) as caught:
        services.accounts_create(company=company, accounting_year=2024, **kwargs)

    assert caught.value.errors[0]["loc"] == [field]
    assert not m.Accounts.objects.filter(company=company).exists()


def test_accounts_of_another_company_cannot_be_replaced():
    other = accounts_make(company=company_make(), year=2024)

    with pytest.raises(BadRequest):
        services.accounts_create(company=company_make(), accounting_year=2024, replaces=other)


def test_risk_status_set_keeps_the_register_boolean_in_step():
    company = company_make()

    first = services.company_risk_status_set(company=company, status_key="forced_dissolution", on_date=date(2025, 1, 2))
    again = services.company_risk_status_set(company=company, status_key="forced_dissolution", on_date=date(2025, 3, 1))

    assert again.uuid == first.uuid
    company.refresh_from_db()
    assert company.is_under_forced_dissolution and company.forced_dissolution_date == date(2025, 1, 2)

    services.company_risk_status_set(company=company, status_key="forced_dissolution", active=False, on_date=date(2025, 6, 1))
    company.refresh_from_db()
    first.refresh_from_db()
    assert not company.is_under_forced_dissolution and first.to_date == date(2025, 6, 1)

    with pytest.raises(BadRequest):
        services.company_risk_status_set(company=company, status_key="sleeping")


def test_a_payment_remark_must_belong_to_the_debtor_of_its_case():
    case = collection_case_make(company=company_make())

    with pytest.raises(BadRequest):
        services.payment_remark_create(
            company=company_make(), amount=Decimal(1), registered_date=date(2025, 1, 1), collection_case=case
        )


def test_writes_refresh_the_analysis_only_after_commit(django_capture_on_commit_callbacks):
    company = company_make()

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        accounts_make(company=company, year=2024)
    assert not m.CompanyCreditRisk.objects.filter(company=company).exists()

    for callback in callbacks:
        callback()
    assert m.CompanyCreditRisk.objects.filter(company=company).exists()
    assert m.CompanyMeasureYearly.objects.filter(company=company, measure_year=2024).exists()
