"""Writes to the company register that change what the analysis computes.

Each write enqueues the analysis refresh of the company on commit (the Celery task in
tasks.py), so highlights, measures, flags and the credit risk follow the data; bulk
importers write directly and enqueue it once at the end for every company they touched.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from service.companies import models as m
from service.companies.catalog import AUDITOR_NOTE_TYPES, RISK_STATUS_TYPES
from service.companies.analysis.facts import BOOLEAN_STATUSES
from service.companies.tasks import analysis_refresh_on_commit
from service.errors import bad_field

INCOME_FIELDS = frozenset(
    f.name for f in m.AccountsIncomeStatement._meta.concrete_fields if f.name not in ("uuid", "accounts")
)
BALANCE_FIELDS = frozenset(
    f.name for f in m.AccountsBalanceSheet._meta.concrete_fields if f.name not in ("uuid", "accounts")
)


def _check_fields(values: Mapping[str, object] | None, allowed: frozenset[str], loc: str) -> dict:
    values = dict(values or {})
    unknown = sorted(set(values) - allowed)
    if unknown:
        raise bad_field([loc], f"unknown field(s): {', '.join(unknown)}")
    return values


@transaction.atomic
def accounts_create(
    *,
    company: m.Company,
    accounting_year: int,
    accounts_type_key: str = "annual_company_accounts",
    income_statement: Mapping[str, object] | None = None,
    balance_sheet: Mapping[str, object] | None = None,
    auditor_notes: Iterable[tuple[str, str]] = (),
    replaces: m.Accounts | None = None,
    audited: bool = True,
    announcement_date: date | None = None,
    from_date: date | None = None,
    to_date: date | None = None,
    currency_code: str = "NOK",
    accounting_schema: str = "NO-GAAP",
) -> m.Accounts:
    """File one set of accounts (statements and auditor notes) for a company.

    `replaces`: the set these accounts correct; it stays, pointing at the new set.
    `auditor_notes`: (note type key, text) pairs.
    """
    income = _check_fields(income_statement, INCOME_FIELDS, "income_statement")
    balance = _check_fields(balance_sheet, BALANCE_FIELDS, "balance_sheet")
    try:
        accounts_type = m.AccountsType.objects.get(key=accounts_type_key)
    except m.AccountsType.DoesNotExist:
        raise bad_field(["accounts_type_key"], f"unknown accounts type {accounts_type_key!r}") from None
    notes = list(auditor_notes)
    note_types = {t.key: t for t in m.AccountsAuditorNoteType.objects.filter(key__in=[k for k, _ in notes])}
    unknown = sorted({key for key, _ in notes} - set(note_types))
    if unknown:
        raise bad_field(["auditor_notes"], f"unknown note type(s): {', '.join(unknown)}; known: {', '.join(AUDITOR_NOTE_TYPES)}")
    if replaces is not None and replaces.company_id != company.uuid:
        raise bad_field(["replaces"], "the replaced accounts belong to another company")

    accounts = m.Accounts.objects.create(
        company=company,
        accounts_type=accounts_type,
        accounting_year=accounting_year,
        accounting_announcement_date=announcement_date,
        accounting_schema=accounting_schema,
        accounting_from_date=from_date or date(accounting_year, 1, 1),
        accounting_to_date=to_date or date(accounting_year, 12, 31),
        corporate_group_accounts_flag=accounts_type_key == "annual_corporate_group_accounts",
        currency_code=currency_code,
        audited_flag=audited,
    )
    if income_statement is not None:
        m.AccountsIncomeStatement.objects.create(accounts=accounts, currency_code=currency_code, **income)
    if balance_sheet is not None:
        m.AccountsBalanceSheet.objects.create(accounts=accounts, currency_code=currency_code, **balance)
    for key, text in notes:
        m.AccountsAuditorNote.objects.create(accounts=accounts, accounts_auditor_note_type=note_types[key], auditor_note=text)
    if replaces is not None:
        replaces.replaced_by = accounts
        replaces.save(update_fields=["replaced_by", "update_timestamp"])
    if company.last_submitted_accounts_year is None or accounting_year > company.last_submitted_accounts_year:
        company.last_submitted_accounts_year = accounting_year
        company.save(update_fields=["last_submitted_accounts_year", "update_timestamp"])
    analysis_refresh_on_commit(company_uuids=[company.uuid])
    return accounts


@transaction.atomic
def collection_case_create(
    *,
    debtor_company: m.Company,
    creditor_name: str,
    amount: Decimal,
    opened_date: date,
    case_reference: str = "",
    currency_code: str = "NOK",
    status: str = "open",
    closed_date: date | None = None,
) -> m.CollectionCase:
    return m.CollectionCase.objects.create(
        debtor_company=debtor_company,
        creditor_name=creditor_name,
        case_reference=case_reference,
        amount=amount,
        currency_code=currency_code,
        opened_date=opened_date,
        closed_date=closed_date,
        status=status,
    )


@transaction.atomic
def payment_remark_create(
    *,
    company: m.Company,
    amount: Decimal,
    registered_date: date,
    remark_type: str = "debt_collection",
    creditor_name: str = "",
    currency_code: str = "NOK",
    collection_case: m.CollectionCase | None = None,
    settled_date: date | None = None,
) -> m.PaymentRemark:
    if collection_case is not None and collection_case.debtor_company_id != company.uuid:
        raise bad_field(["collection_case"], "the collection case belongs to another debtor")
    remark = m.PaymentRemark.objects.create(
        company=company,
        collection_case=collection_case,
        remark_type=remark_type,
        registered_date=registered_date,
        amount=amount,
        currency_code=currency_code,
        creditor_name=creditor_name,
        settled_date=settled_date,
    )
    analysis_refresh_on_commit(company_uuids=[company.uuid])
    return remark


@transaction.atomic
def payment_remark_settle(*, payment_remark: m.PaymentRemark, settled_date: date) -> m.PaymentRemark:
    payment_remark.settled_date = settled_date
    payment_remark.save(update_fields=["settled_date"])
    analysis_refresh_on_commit(company_uuids=[payment_remark.company_id])
    return payment_remark


@transaction.atomic
def company_risk_status_set(
    *, company: m.Company, status_key: str, active: bool = True, on_date: date | None = None
) -> m.CompanyRiskStatus | None:
    """Start (active=True) or end (active=False) a register status on `on_date` (default today).

    For bankrupt, under_liquidation and forced_dissolution the matching booleans on
    Company are kept in step. Starting an already active status changes nothing.
    Returns the started or the last ended status row.
    """
    if status_key not in RISK_STATUS_TYPES:
        raise bad_field(["status_key"], f"unknown risk status {status_key!r}; known: {', '.join(RISK_STATUS_TYPES)}")
    on_date = on_date or timezone.localdate()
    status_type = m.CompanyRiskStatusType.objects.get(key=status_key)
    open_rows = list(
        m.CompanyRiskStatus.objects.select_for_update().filter(
            company=company, company_risk_status_type=status_type, to_date__isnull=True
        )
    )
    row = None
    if active and not open_rows:
        row = m.CompanyRiskStatus.objects.create(company=company, company_risk_status_type=status_type, from_date=on_date)
    elif active:
        row = open_rows[0]
    else:
        for row in open_rows:
            row.to_date = max(on_date, row.from_date)
            row.save(update_fields=["to_date"])
    if status_key in BOOLEAN_STATUSES:
        flag_field, date_field = BOOLEAN_STATUSES[status_key]
        setattr(company, flag_field, active)
        setattr(company, date_field, (row.from_date if row is not None else on_date) if active else None)
        company.save(update_fields=[flag_field, date_field, "update_timestamp"])
    analysis_refresh_on_commit(company_uuids=[company.uuid])
    return row


@transaction.atomic
def company_employment_add(
    *,
    company: m.Company,
    employee_count: int,
    from_date: datetime,
    employee_date: datetime | None = None,
) -> m.CompanyEmployment:
    """Record a new head count from `from_date`: the open period before it is closed there."""
    previous = (
        m.CompanyEmployment.objects.select_for_update()
        .filter(company=company, from_date__lt=from_date, to_date__isnull=True)
        .order_by("-from_date")
        .first()
    )
    if previous is not None:
        previous.to_date = from_date
        previous.employee_count_to = employee_count
        previous.save(update_fields=["to_date", "employee_count_to"])
    row = m.CompanyEmployment.objects.create(
        company=company,
        employee_count=employee_count,
        employee_date=employee_date or from_date,
        from_date=from_date,
        employee_count_from=previous.employee_count if previous is not None else None,
    )
    company.employees = employee_count
    company.save(update_fields=["employees", "update_timestamp"])
    analysis_refresh_on_commit(company_uuids=[company.uuid])
    return row
