"""Small builders of register rows for the datasets tests (keyword-only, sensible defaults)."""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal

from django.utils import timezone

from service.companies import models as m

_org_nrs = itertools.count(910000001)

DATASETS = "/datasets/v1/dataset"


def a_company(*, name: str = "Fjordkraft AS", org_nr: str | None = None, **fields) -> m.Company:
    return m.Company.objects.create(name=name, org_nr=org_nr or str(next(_org_nrs)), **fields)


def accounts_type(key: str = "annual_company_accounts") -> m.AccountsType:
    return m.AccountsType.objects.get_or_create(key=key)[0]


def an_accounts(
    *,
    company: m.Company,
    year: int = 2022,
    type_key: str = "annual_company_accounts",
    total_sales: str | None = "1000000.00",
    total_assets: str | None = "5000000.00",
    return_on_assets: str | None = "0.125000",
    statements: bool = True,
    **fields,
) -> m.Accounts:
    """Accounts for `year` with an income statement, balance sheet and highlights (unless statements=False)."""
    accounts = m.Accounts.objects.create(
        company=company,
        accounts_type=accounts_type(type_key),
        accounting_year=year,
        accounting_announcement_date=dt.date(year + 1, 5, 31),
        accounting_from_date=dt.date(year, 1, 1),
        accounting_to_date=dt.date(year, 12, 31),
        corporate_group_accounts_flag=type_key == "annual_corporate_group_accounts",
        **fields,
    )
    if statements:
        m.AccountsIncomeStatement.objects.create(
            accounts=accounts,
            total_sales=_decimal(total_sales),
            total_operating_income=_decimal(total_sales),
            annual_result=Decimal("12345.67"),
        )
        m.AccountsBalanceSheet.objects.create(
            accounts=accounts, total_assets=_decimal(total_assets), total_equity=Decimal("-250.50")
        )
        m.AccountsHighlights.objects.create(accounts=accounts, return_on_assets=_decimal(return_on_assets))
    return accounts


def a_flag(*, company: m.Company, key: str = "negative_total_equity", ended: bool = False) -> m.CompanyFlag:
    now = timezone.now()
    return m.CompanyFlag.objects.create(
        company=company,
        company_flag_type=m.CompanyFlagType.objects.get(key=key),
        flag_date=now - dt.timedelta(days=30),
        flag_end_date=now - dt.timedelta(days=1) if ended else None,
        flag_context={"total_equity": -250.5, "year": 2022},
        flag_url="https://w2.brreg.no/",
    )


def an_employment(*, company: m.Company, count: int = 12, year: int = 2022) -> m.CompanyEmployment:
    return m.CompanyEmployment.objects.create(
        company=company,
        employee_count=count,
        from_date=timezone.make_aware(dt.datetime(year, 1, 1)),
        to_date=timezone.make_aware(dt.datetime(year, 12, 31)),
    )


def a_measure(
    *, company: m.Company, key: str = "employees", year: int = 2022, value: str = "12"
) -> m.CompanyMeasureYearly:
    return m.CompanyMeasureYearly.objects.create(
        company=company,
        company_measure_type=m.CompanyMeasureType.objects.get(key=key),
        measure_year=year,
        measure_value=Decimal(value),
    )


def a_person(*, full_name: str = "Kari Nordmann", **fields) -> m.Person:
    return m.Person.objects.create(full_name=full_name, **fields)


def a_role(
    *,
    company: m.Company,
    type_key: str = "ceo",
    person: m.Person | None = None,
    holder: m.Company | None = None,
    **fields,
) -> m.CompanyRole:
    return m.CompanyRole.objects.create(
        company=company,
        company_role_type=m.CompanyRoleType.objects.get(key=type_key),
        holder_person=person,
        holder_company=holder,
        **fields,
    )


def _decimal(value: str | None) -> Decimal | None:
    return None if value is None else Decimal(value)
