"""Annual accounts and their auditor notes (spec §4.2 `accounts-composite`, `accounts-auditor-note-composite`).

Amounts and ratios are Decimals in the database and JSON numbers on the wire.
"""

from __future__ import annotations

from datetime import date
from operator import attrgetter
from uuid import UUID

from django.db.models import DecimalField
from ninja import Field, Schema

from service.companies import models as m
from service.companies.references import CompanyRef, company_part_url, company_ref
from service.companies.register.selectors import AccountsSet


def _amounts(model) -> tuple[tuple[str, ...], attrgetter]:
    """A part's amount fields and one getter of them all (~40 numbers a set, taken in one call)."""
    names = tuple(field.name for field in model._meta.concrete_fields if isinstance(field, DecimalField))
    return names, attrgetter(*names)


INCOME = _amounts(m.AccountsIncomeStatement)
BALANCE = _amounts(m.AccountsBalanceSheet)
HIGHLIGHTS = _amounts(m.AccountsHighlights)


class AccountsTypeOut(Schema):
    uuid: UUID
    accounts_type_key: str = Field(description="annual_company_accounts or annual_corporate_group_accounts")
    app_url: str | None


class AccountsOut(Schema):
    uuid: UUID
    company_uuid: UUID
    accounting_year: int
    accounting_announcement_date: date | None
    accounting_schema: str
    accounting_from_date: date | None
    accounting_to_date: date | None
    corporate_group_accounts_flag: bool
    accounts_type_uuid: UUID
    estimated_accounting_period_flag: bool
    currency_code: str = Field(description="Currency as originally reported (extension)")
    audited_flag: bool = Field(description="False when filed without an auditor (extension)")
    replaced_by_accounts_uuid: UUID | None = Field(
        description="Set when these accounts were replaced by a later filing for the same year (extension)"
    )
    app_url: str | None


class _AccountsPart(Schema):
    uuid: UUID
    accounts_uuid: UUID
    company_uuid: UUID
    accounts_type_uuid: UUID
    accounting_year: int
    app_url: str | None


class AccountsIncomeStatementOut(_AccountsPart):
    """Amounts in full units of currency_code."""

    currency_code: str
    total_sales: float | None
    other_operating_income: float | None
    total_operating_income: float | None
    cost_of_goods_sold: float | None
    salary_costs: float | None
    depreciation: float | None
    other_operating_costs: float | None
    total_operating_costs: float | None
    operating_result: float | None
    financial_income: float | None
    financial_costs: float | None
    result_before_tax: float | None
    tax: float | None
    annual_result: float | None


class AccountsBalanceSheetOut(_AccountsPart):
    """Amounts in full units of currency_code."""

    currency_code: str
    intangible_assets: float | None
    tangible_fixed_assets: float | None
    financial_fixed_assets: float | None
    total_fixed_assets: float | None
    inventory: float | None
    receivables: float | None
    cash_and_bank: float | None
    total_current_assets: float | None
    total_assets: float | None
    share_capital: float | None
    retained_earnings: float | None
    total_equity: float | None
    long_term_liabilities: float | None
    short_term_liabilities: float | None
    total_liabilities: float | None
    total_equity_and_liabilities: float | None


class AccountsHighlightsOut(_AccountsPart):
    """Ratios computed by the service (docs/analysis.md); null when an input is missing."""

    return_on_assets: float | None = Field(description="(result_before_tax + financial_costs) / total_assets")
    return_on_equity: float | None = Field(description="annual_result / total_equity (null when equity <= 0)")
    equity_ratio: float | None = Field(description="total_equity / total_assets")
    operating_margin: float | None = Field(description="operating_result / total_operating_income")
    profit_margin: float | None = Field(description="annual_result / total_operating_income")
    current_ratio: float | None = Field(description="total_current_assets / short_term_liabilities")
    debt_ratio: float | None = Field(description="total_liabilities / total_assets")
    revenue_growth: float | None = Field(
        description="Change in total_operating_income from the previous year's current accounts of the same type"
    )


class AccountsComposite(Schema):
    accounts: AccountsOut
    accounts_highlights: AccountsHighlightsOut | None
    accounts_income_statement: AccountsIncomeStatementOut | None
    accounts_balance_sheet: AccountsBalanceSheetOut | None
    company: CompanyRef
    accounts_type: AccountsTypeOut



def accounts_type_out(accounts_type: m.AccountsType) -> dict:
    return {"uuid": accounts_type.uuid, "accounts_type_key": accounts_type.key, "app_url": None}


def accounts_out(accounts: m.Accounts) -> dict:
    company_uuid = accounts.company_id  # a foreign key's attname is a Python descriptor: read once
    return {
        "uuid": accounts.uuid,
        "company_uuid": company_uuid,
        "accounting_year": accounts.accounting_year,
        "accounting_announcement_date": accounts.accounting_announcement_date,
        "accounting_schema": accounts.accounting_schema,
        "accounting_from_date": accounts.accounting_from_date,
        "accounting_to_date": accounts.accounting_to_date,
        "corporate_group_accounts_flag": accounts.corporate_group_accounts_flag,
        "accounts_type_uuid": accounts.accounts_type_id,
        "estimated_accounting_period_flag": accounts.estimated_accounting_period_flag,
        "currency_code": accounts.currency_code,
        "audited_flag": accounts.audited_flag,
        "replaced_by_accounts_uuid": accounts.replaced_by_id,
        "app_url": company_part_url(company_uuid, f"accounts-{accounts.accounting_year}"),
    }


def _part_out(part, amounts: tuple[tuple[str, ...], attrgetter], *, currency: bool, common: dict) -> dict | None:
    if part is None:
        return None  # the part was not filed
    out = {"uuid": part.uuid, **common}
    if currency:
        out["currency_code"] = part.currency_code
    names, values = amounts
    out.update(zip(names, [None if value is None else float(value) for value in values(part)]))
    return out


def accounts_composite_out(accounts_set: AccountsSet, company: m.Company) -> dict:
    out = accounts_out(accounts_set.accounts)
    common = {
        "accounts_uuid": out["uuid"],
        "company_uuid": out["company_uuid"],
        "accounts_type_uuid": out["accounts_type_uuid"],
        "accounting_year": out["accounting_year"],
        "app_url": out["app_url"],
    }
    return {
        "accounts": out,
        "accounts_highlights": _part_out(accounts_set.highlights, HIGHLIGHTS, currency=False, common=common),
        "accounts_income_statement": _part_out(accounts_set.income_statement, INCOME, currency=True, common=common),
        "accounts_balance_sheet": _part_out(accounts_set.balance_sheet, BALANCE, currency=True, common=common),
        "company": company_ref(company),
        "accounts_type": accounts_type_out(accounts_set.accounts_type),
    }


class AccountsAuditorNoteOut(Schema):
    uuid: UUID
    accounts_uuid: UUID
    auditor_note: str
    accounts_auditor_note_type_uuid: UUID
    accounting_year: int
    app_url: str | None


class AccountsAuditorNoteTypeOut(Schema):
    uuid: UUID
    accounts_auditor_note_type_key: str = Field(
        description="unqualified_opinion, emphasis_of_matter, qualified_opinion, adverse_opinion, "
        "disclaimer_of_opinion or going_concern"
    )
    description: str
    app_url: str | None


class AccountsAuditorNoteComposite(Schema):
    accounts: AccountsOut
    accounts_type: AccountsTypeOut
    accounts_auditor_note: AccountsAuditorNoteOut
    accounts_auditor_note_type: AccountsAuditorNoteTypeOut


def auditor_note_composite_out(note: m.AccountsAuditorNote) -> dict:
    accounts = note.accounts
    note_type = note.accounts_auditor_note_type
    return {
        "accounts": accounts_out(accounts),
        "accounts_type": accounts_type_out(accounts.accounts_type),
        "accounts_auditor_note": {
            "uuid": note.uuid,
            "accounts_uuid": accounts.uuid,
            "auditor_note": note.auditor_note,
            "accounts_auditor_note_type_uuid": note.accounts_auditor_note_type_id,
            "accounting_year": accounts.accounting_year,
            "app_url": company_part_url(accounts.company_id, f"accounts-{accounts.accounting_year}"),
        },
        "accounts_auditor_note_type": {
            "uuid": note_type.uuid,
            "accounts_auditor_note_type_key": note_type.key,
            "description": note_type.description,
            "app_url": None,
        },
    }

