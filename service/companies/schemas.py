"""Output shapes of the company endpoints (spec §2.2-2.5, §4.2, §4.3) and the functions that fill them.

Money, ratios and measures are Decimals in the database and JSON numbers on the wire.
Fields beyond those the spec names are marked "extension" in their description.
`app_url` links to the company's page in the dashboard (with a fragment for the part).
"""

from __future__ import annotations

from uuid import UUID
from datetime import date, datetime
from typing import Any

from ninja import Field, Schema

from service.companies import models as m
from service.companies.analysis.credit_risk import HIDDEN_FACTOR_NOTE
from service.companies.references import app_url, company_app_url, company_ref, company_ref_of_row

# --- helpers -------------------------------------------------------------------------


def number(value) -> float | None:
    return None if value is None else float(value)


def _part_url(company_uuid, part: str) -> str:
    return f"{company_app_url(company_uuid)}#{part}"


# --- company reference and basic info ---------------------------------------------------------


class CompanyRef(Schema):
    """The company reference object (spec §2.2)."""

    uuid: UUID
    name: str
    org_nr: str
    org_nr_schema: str = Field(description="Country schema of org_nr, e.g. NO")
    app_url: str | None


class OrganizationTypeOut(Schema):
    uuid: UUID
    organization_type_key: str = Field(description="Country-prefixed key, e.g. NO-AS")
    code: str = Field(description="The register's code, e.g. AS")
    name: str


class NaceCodeOut(Schema):
    uuid: UUID
    nace_code_key: str = Field(description="Country-prefixed key, e.g. NO-62.010")
    code: str = Field(description="SN2007/NACE code, e.g. 62.010")
    name: str
    level: int = Field(description="1 section .. 5 subclass")
    rank: int = Field(description="1 for the company's main activity, then 2 and 3")


class GeoCountryOut(Schema):
    uuid: UUID
    geo_country_key: str = Field(description="ISO 3166-1 alpha-2, e.g. NO")
    name: str


class GeoSubdivisionOut(Schema):
    uuid: UUID
    geo_subdivision_key: str = Field(description="e.g. NO-11")
    code: str
    name: str


class GeoMunicipalityOut(Schema):
    uuid: UUID
    geo_municipality_key: str = Field(description="e.g. NO-1101")
    code: str
    name: str


class GeoPostalCodeOut(Schema):
    uuid: UUID
    geo_postal_code_key: str = Field(description="e.g. NO-1425")
    code: str
    place_name: str


class AddressOut(Schema):
    address_type_key: str = Field(description="business or postal")
    address: str = Field(description="Street address as registered")
    geo_postal_code: GeoPostalCodeOut | None
    geo_municipality: GeoMunicipalityOut | None
    geo_subdivision: GeoSubdivisionOut | None
    geo_country: GeoCountryOut | None


class CompanyRiskStatusOut(Schema):
    """A register status period; active while to_date is null."""

    uuid: UUID
    company_uuid: UUID
    company_risk_status_type_uuid: UUID
    company_risk_status_type_key: str = Field(
        description="bankrupt, under_liquidation, forced_dissolution, liquidated or deleted"
    )
    company_risk_status_type_description: str
    from_date: date
    to_date: date | None
    active_flag: bool


class CompanyOut(Schema):
    """Basic company info: the reference fields plus register data."""

    uuid: UUID
    name: str
    org_nr: str
    org_nr_schema: str
    app_url: str | None
    organization_type: OrganizationTypeOut | None
    nace_codes: list[NaceCodeOut] = Field(description="The company's NACE codes, main activity first")
    addresses: list[AddressOut] = Field(description="Business and postal address with their geo entities")
    website: str
    employees: int | None = Field(description="Employees as last reported to the register")
    registration_date: date | None
    founded_date: date | None
    last_submitted_accounts_year: int | None
    parent_org_nr: str = Field(description="Org nr of the parent unit (for sub-units), or empty")
    is_bankrupt: bool
    bankrupt_date: date | None
    is_under_liquidation: bool
    under_liquidation_date: date | None
    is_under_forced_dissolution: bool
    forced_dissolution_date: date | None
    has_company_risk_status: bool = Field(description="True when a risk status is active")
    company_risk_statuses: list[CompanyRiskStatusOut] = Field(description="The active risk statuses")
    update_timestamp: datetime


def _nace_out(row: dict, rank: int) -> dict | None:
    p = f"n{rank}_"
    if row[p + "uuid"] is None:
        return None
    return {
        "uuid": row[p + "uuid"],
        "nace_code_key": row[p + "key"],
        "code": row[p + "code"],
        "name": row[p + "name"],
        "level": row[p + "level"],
        "rank": rank,
    }


def _address_out(row: dict, kind: str) -> dict | None:
    """`kind`: business or postal; None when the company has no such address."""
    if not (row[f"{kind}_address"] or row[f"{kind}_postal_code"] or row[f"{kind}_municipality"]):
        return None
    p = kind[0]
    return {
        "address_type_key": kind,
        "address": row[f"{kind}_address"],
        "geo_postal_code": _geo_out(row, f"{p}pc", "geo_postal_code_key", "place_name"),
        "geo_municipality": _geo_out(row, f"{p}mu", "geo_municipality_key", "name"),
        "geo_subdivision": _geo_out(row, f"{p}sd", "geo_subdivision_key", "name"),
        "geo_country": _geo_out(row, f"{p}co", "geo_country_key", "name", with_code=False),
    }


def _geo_out(row: dict, prefix: str, key_field: str, name_field: str, *, with_code: bool = True) -> dict | None:
    """A geo reference read from the row's `<prefix>_*` columns, fields in the schema's order."""
    if row[f"{prefix}_uuid"] is None:
        return None
    out = {"uuid": row[f"{prefix}_uuid"], key_field: row[f"{prefix}_key"]}
    if with_code:
        out["code"] = row[f"{prefix}_code"]
    out[name_field] = row[f"{prefix}_{name_field}"]
    return out


def risk_status_out(row: dict, company_uuid) -> dict:
    """A risk status from a row with the rs_ and rst_ columns."""
    return {
        "uuid": row["rs_uuid"],
        "company_uuid": company_uuid,
        "company_risk_status_type_uuid": row["rs_company_risk_status_type"],
        "company_risk_status_type_key": row["rst_key"],
        "company_risk_status_type_description": row["rst_description"],
        "from_date": row["rs_from_date"],
        "to_date": row["rs_to_date"],
        "active_flag": row["rs_to_date"] is None,
    }


def company_out(rows: list[dict]) -> dict:
    """`rows`: selectors.company_detail_get (the company's columns, one row per active risk status)."""
    row = rows[0]
    statuses = [risk_status_out(r, row["uuid"]) for r in rows if r["rs_uuid"] is not None]
    return {
        **company_ref_of_row(row),
        "organization_type": None
        if row["ot_uuid"] is None
        else {
            "uuid": row["ot_uuid"],
            "organization_type_key": row["ot_key"],
            "code": row["ot_code"],
            "name": row["ot_name"],
        },
        "nace_codes": [nace for nace in (_nace_out(row, 1), _nace_out(row, 2), _nace_out(row, 3)) if nace],
        "addresses": [a for a in (_address_out(row, "business"), _address_out(row, "postal")) if a],
        "website": row["website"],
        "employees": row["employees"],
        "registration_date": row["registration_date"],
        "founded_date": row["founded_date"],
        "last_submitted_accounts_year": row["last_submitted_accounts_year"],
        "parent_org_nr": row["parent_org_nr"],
        "is_bankrupt": row["is_bankrupt"],
        "bankrupt_date": row["bankrupt_date"],
        "is_under_liquidation": row["is_under_liquidation"],
        "under_liquidation_date": row["under_liquidation_date"],
        "is_under_forced_dissolution": row["is_under_forced_dissolution"],
        "forced_dissolution_date": row["forced_dissolution_date"],
        "has_company_risk_status": bool(statuses),
        "company_risk_statuses": statuses,
        "update_timestamp": row["update_timestamp"],
    }


# --- credit risk ---------------------------------------------------------------------------------


class PaymentRemarkOut(Schema):
    """A payment remark (needs the credit_check role)."""

    uuid: UUID
    company_uuid: UUID
    collection_case_uuid: UUID | None
    remark_type: str = Field(description="debt_collection, legal_collection or distraint")
    registered_date: date
    amount: float
    currency_code: str
    creditor_name: str
    settled_date: date | None
    settled_flag: bool


class CreditRiskFactorOut(Schema):
    value: Any = Field(description="The input the factor scored (number, boolean, key, list or null when missing)")
    points: int = Field(description="Points added to the linear predictor (positive is riskier)")
    band: str | None = Field(description="The band of the input that gave the points")


class CompanyCreditRiskOut(Schema):
    company_uuid: UUID
    risk_score: float | None = Field(
        description="0-100, higher is riskier: 100 / (1 + exp(-sum(points) / 10)); null until analysed"
    )
    risk_class: str | None = Field(description="very_low (<20), low (<40), medium (<60), high (<80), very_high")
    has_company_risk_status: bool
    company_risk_statuses: list[CompanyRiskStatusOut] = Field(description="Active risk statuses")
    company_risk_status_history: list[CompanyRiskStatusOut] = Field(description="Every status period, newest first")
    factors: dict[str, CreditRiskFactorOut] = Field(
        description=(
            "Each factor's input value and points (extension). Factors whose input needs a role the caller "
            "did not send (the payment remarks' count and amount: credit_check) are left out; see hidden_factors"
        )
    )
    hidden_factors: list[str] = Field(
        description="Keys of the factors left out for a missing role; the score still includes them (extension)"
    )
    hidden_factor_note: str | None = Field(
        description="Why factors are missing, when some are; null when every factor is shown (extension)"
    )
    model_version: str | None = Field(description="Version of the scoring model (extension)")
    computed_timestamp: datetime | None = Field(description="When the score was computed (extension)")


class CompanyCreditRiskComposite(Schema):
    company_credit_risk: CompanyCreditRiskOut
    company_payment_remarks: list[PaymentRemarkOut] = Field(
        description="All payment remarks, newest first; empty unless the caller holds credit_check"
    )
    company: CompanyRef


def payment_remark_out(remark) -> dict:
    """A payment remark from a model instance or a row of selectors.company_credit_risk_get."""
    if isinstance(remark, dict):  # a row of the credit risk read: the remark's columns are pr_*
        return {
            "uuid": remark["pr_uuid"],
            "company_uuid": remark["uuid"],
            "collection_case_uuid": remark["pr_collection_case"],
            "remark_type": remark["pr_remark_type"],
            "registered_date": remark["pr_registered_date"],
            "amount": number(remark["pr_amount"]),
            "currency_code": remark["pr_currency_code"],
            "creditor_name": remark["pr_creditor_name"],
            "settled_date": remark["pr_settled_date"],
            "settled_flag": remark["pr_settled_date"] is not None,
        }
    return {
        "uuid": remark.uuid,
        "company_uuid": remark.company_id,
        "collection_case_uuid": remark.collection_case_id,
        "remark_type": remark.remark_type,
        "registered_date": remark.registered_date,
        "amount": number(remark.amount),
        "currency_code": remark.currency_code,
        "creditor_name": remark.creditor_name,
        "settled_date": remark.settled_date,
        "settled_flag": remark.settled_date is not None,
    }


def credit_risk_composite_out(view) -> dict:
    """`view`: selectors.CreditRiskView."""
    company_uuid = view.company["uuid"]
    history = [risk_status_out(row, company_uuid) for row in view.risk_statuses]
    active = [s for s in history if s["active_flag"]]
    risk = view.credit_risk
    return {
        "company_credit_risk": {
            "company_uuid": company_uuid,
            "risk_score": number(risk["cr_risk_score"]) if risk else None,
            "risk_class": risk["cr_risk_class"] if risk else None,
            "has_company_risk_status": bool(active),
            "company_risk_statuses": active,
            "company_risk_status_history": history,
            "factors": view.factors,
            "hidden_factors": view.hidden_factors,
            "hidden_factor_note": (
                HIDDEN_FACTOR_NOTE.format(factors=", ".join(view.hidden_factors)) if view.hidden_factors else None
            ),
            "model_version": risk["cr_model_version"] if risk else None,
            "computed_timestamp": risk["cr_computed_at"] if risk else None,
        },
        "company_payment_remarks": [payment_remark_out(r) for r in view.payment_remarks or ()],
        "company": company_ref_of_row(view.company),
    }


# --- flags -------------------------------------------------------------------------------------------


class CompanyFlagOut(Schema):
    uuid: UUID
    company_uuid: UUID
    company_flag_type_uuid: UUID
    flag_date: datetime = Field(description="When the condition began (the evidence's date)")
    flag_context: dict[str, Any] = Field(description="The evidence, e.g. {accounting_year, total_equity}")
    flag_url: str = Field(description="Where the evidence is shown in the dashboard")
    flag_end_date: datetime | None = Field(description="When the flag ends or ended; null while open-ended")
    app_url: str | None


class CompanyFlagTypeOut(Schema):
    uuid: UUID
    company_flag_type_key: str
    company_flag_type_description: str
    app_hidden_flag: bool
    default_lookback_days: int | None
    flag_rank: int = Field(description="1 is the most severe")
    app_feature_uuid: UUID | None
    app_role_uuid: UUID | None = Field(description="The role needed to see flags of this type, if any")
    persist_flag: bool = Field(description="Flags of this type stay once raised")
    app_icon_uuid: UUID | None
    default_flag_end_days: int | None
    app_url: str | None


class CompanyFlagComposite(Schema):
    uuid: UUID = Field(description="The flag's uuid")
    company: CompanyRef
    company_flag: CompanyFlagOut
    company_flag_type: CompanyFlagTypeOut
    app_url: str | None


def flag_composite_out(row: dict, company: dict) -> dict:
    """`row`: a flag of selectors.company_flags_active; `company`: its company reference columns."""
    url = _part_url(company["uuid"], "flags")
    return {
        "uuid": row["f_uuid"],
        "company": company_ref_of_row(company),
        "company_flag": {
            "uuid": row["f_uuid"],
            "company_uuid": company["uuid"],
            "company_flag_type_uuid": row["f_company_flag_type"],
            "flag_date": row["f_flag_date"],
            "flag_context": row["f_flag_context"],
            "flag_url": app_url(row["f_flag_url"]) if row["f_flag_url"] else url,
            "flag_end_date": row["f_flag_end_date"],
            "app_url": url,
        },
        "company_flag_type": {
            "uuid": row["f_company_flag_type"],
            "company_flag_type_key": row["ft_key"],
            "company_flag_type_description": row["ft_description"],
            "app_hidden_flag": row["ft_app_hidden_flag"],
            "default_lookback_days": row["ft_default_lookback_days"],
            "flag_rank": row["ft_flag_rank"],
            "app_feature_uuid": None,
            "app_role_uuid": row["role_uuid"],
            "persist_flag": row["ft_persist_flag"],
            "app_icon_uuid": None,
            "default_flag_end_days": row["ft_default_flag_end_days"],
            "app_url": None,
        },
        "app_url": url,
    }


# --- employment ---------------------------------------------------------------------------------------


class CompanyEmploymentOut(Schema):
    """One period with a head count; consecutive elements describe the changes over time."""

    uuid: UUID
    company_uuid: UUID
    employee_count: int
    employee_date: datetime | None = Field(description="When the head count was reported")
    from_date: datetime = Field(description="Start of the period")
    to_date: datetime | None = Field(description="End of the period; null for the current one")
    employee_count_from: int | None = Field(description="Head count of the period before (null for the first)")
    employee_count_to: int | None = Field(description="Head count of the period after (null for the current)")


def employment_out(row: m.CompanyEmployment) -> dict:
    return {
        "uuid": row.uuid,
        "company_uuid": row.company_id,
        "employee_count": row.employee_count,
        "employee_date": row.employee_date,
        "from_date": row.from_date,
        "to_date": row.to_date,
        "employee_count_from": row.employee_count_from,
        "employee_count_to": row.employee_count_to,
    }


# --- accounts -----------------------------------------------------------------------------------------

INCOME_FIELDS = (
    "total_sales",
    "other_operating_income",
    "total_operating_income",
    "cost_of_goods_sold",
    "salary_costs",
    "depreciation",
    "other_operating_costs",
    "total_operating_costs",
    "operating_result",
    "financial_income",
    "financial_costs",
    "result_before_tax",
    "tax",
    "annual_result",
)
BALANCE_FIELDS = (
    "intangible_assets",
    "tangible_fixed_assets",
    "financial_fixed_assets",
    "total_fixed_assets",
    "inventory",
    "receivables",
    "cash_and_bank",
    "total_current_assets",
    "total_assets",
    "share_capital",
    "retained_earnings",
    "total_equity",
    "long_term_liabilities",
    "short_term_liabilities",
    "total_liabilities",
    "total_equity_and_liabilities",
)
HIGHLIGHT_FIELDS = (
    "return_on_assets",
    "return_on_equity",
    "equity_ratio",
    "operating_margin",
    "profit_margin",
    "current_ratio",
    "debt_ratio",
    "revenue_growth",
)


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
    return {
        "uuid": accounts.uuid,
        "company_uuid": accounts.company_id,
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
        "app_url": _part_url(accounts.company_id, f"accounts-{accounts.accounting_year}"),
    }


def _part_keys(prefix: str, fields: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(output name, row key) of a statement's numbers in selectors.company_accounts_list's rows."""
    return tuple((name, prefix + name) for name in fields)


_HIGHLIGHT_KEYS = _part_keys("h_", HIGHLIGHT_FIELDS)
_INCOME_KEYS = _part_keys("i_", INCOME_FIELDS)
_BALANCE_KEYS = _part_keys("b_", BALANCE_FIELDS)


def _part_out(row: dict, prefix: str, keys: tuple[tuple[str, str], ...], *, currency: bool, common: dict) -> dict | None:
    if row[prefix + "uuid"] is None:
        return None  # the part was not filed
    out = {"uuid": row[prefix + "uuid"], **common}
    if currency:
        out["currency_code"] = row[prefix + "currency_code"]
    for name, key in keys:  # ~40 numbers a set: a plain loop, no calls
        value = row[key]
        out[name] = None if value is None else float(value)
    return out


def accounts_composite_out(row: dict, company: dict) -> dict:
    """`row`: one accounts set of selectors.company_accounts_list; `company`: the company reference columns."""
    company_uuid, year, accounts_type_uuid = company["uuid"], row["a_accounting_year"], row["a_accounts_type"]
    url = _part_url(company_uuid, f"accounts-{year}")
    common = {
        "accounts_uuid": row["a_uuid"],
        "company_uuid": company_uuid,
        "accounts_type_uuid": accounts_type_uuid,
        "accounting_year": year,
        "app_url": url,
    }
    return {
        "accounts": {
            "uuid": row["a_uuid"],
            "company_uuid": company_uuid,
            "accounting_year": year,
            "accounting_announcement_date": row["a_accounting_announcement_date"],
            "accounting_schema": row["a_accounting_schema"],
            "accounting_from_date": row["a_accounting_from_date"],
            "accounting_to_date": row["a_accounting_to_date"],
            "corporate_group_accounts_flag": row["a_corporate_group_accounts_flag"],
            "accounts_type_uuid": accounts_type_uuid,
            "estimated_accounting_period_flag": row["a_estimated_accounting_period_flag"],
            "currency_code": row["a_currency_code"],
            "audited_flag": row["a_audited_flag"],
            "replaced_by_accounts_uuid": row["a_replaced_by"],
            "app_url": url,
        },
        "accounts_highlights": _part_out(row, "h_", _HIGHLIGHT_KEYS, currency=False, common=common),
        "accounts_income_statement": _part_out(row, "i_", _INCOME_KEYS, currency=True, common=common),
        "accounts_balance_sheet": _part_out(row, "b_", _BALANCE_KEYS, currency=True, common=common),
        "company": company_ref_of_row(company),
        "accounts_type": {"uuid": accounts_type_uuid, "accounts_type_key": row["t_key"], "app_url": None},
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
            "app_url": _part_url(accounts.company_id, f"accounts-{accounts.accounting_year}"),
        },
        "accounts_auditor_note_type": {
            "uuid": note_type.uuid,
            "accounts_auditor_note_type_key": note_type.key,
            "description": note_type.description,
            "app_url": None,
        },
    }


# --- collection cases ------------------------------------------------------------------------------------


class CollectionCaseOut(Schema):
    uuid: UUID
    debtor_company_uuid: UUID
    creditor_name: str
    case_reference: str
    amount: float
    currency_code: str
    opened_date: date
    closed_date: date | None
    collection_case_status_key: str = Field(description="open, settled, legal_collection or written_off")
    app_url: str | None


class CollectionCaseComposite(Schema):
    collection_case: CollectionCaseOut
    company_payment_remarks: list[PaymentRemarkOut] = Field(description="Payment remarks that came from the case")
    debtor_company: CompanyRef


def collection_case_composite_out(case: m.CollectionCase, company: m.Company) -> dict:
    return {
        "collection_case": {
            "uuid": case.uuid,
            "debtor_company_uuid": case.debtor_company_id,
            "creditor_name": case.creditor_name,
            "case_reference": case.case_reference,
            "amount": number(case.amount),
            "currency_code": case.currency_code,
            "opened_date": case.opened_date,
            "closed_date": case.closed_date,
            "collection_case_status_key": case.status,
            "app_url": _part_url(company.uuid, "credit-risk"),
        },
        "company_payment_remarks": [payment_remark_out(r) for r in case.payment_remarks.all()],
        "debtor_company": company_ref(company),
    }


# --- company roles ----------------------------------------------------------------------------------------


class CompanyRoleOut(Schema):
    uuid: UUID
    company_uuid: UUID
    company_role_type_uuid: UUID
    holder_person_uuid: UUID | None
    holder_company_uuid: UUID | None
    share_percentage: float | None = Field(description="Ownership share in percent, for shareholders")
    from_date: date | None
    to_date: date | None
    active_flag: bool = Field(description="True while to_date is null or in the future")
    app_url: str | None


class CompanyRoleTypeOut(Schema):
    uuid: UUID
    company_role_type_key: str = Field(
        description="board_chair, board_member, deputy_board_member, ceo, signature_right, procuration, "
        "shareholder or auditor"
    )
    description: str


class PersonOut(Schema):
    uuid: UUID
    full_name: str
    first_name: str
    last_name: str
    birth_date: date | None
    nationality: str = Field(description="ISO 3166-1 alpha-2, lower case, or empty")
    gender: str
    national_identification_number: str | None = Field(
        description="Only with the person_national_identification role; null otherwise"
    )
    national_identification_schema: str | None = Field(
        description="Only with the person_national_identification role; null otherwise"
    )
    app_url: str | None


class CompanyRoleComposite(Schema):
    uuid: UUID = Field(description="The role's uuid")
    company_role: CompanyRoleOut
    company_role_type: CompanyRoleTypeOut
    person: PersonOut | None = Field(description="The holder when a person holds the role")
    holder_company: CompanyRef | None = Field(description="The holder when a company holds the role")
    company: CompanyRef


def company_role_composite_out(role: m.CompanyRole, company: m.Company, *, with_national_id: bool, today: date) -> dict:
    person = role.holder_person
    holder = role.holder_company
    return {
        "uuid": role.uuid,
        "company_role": {
            "uuid": role.uuid,
            "company_uuid": role.company_id,
            "company_role_type_uuid": role.company_role_type_id,
            "holder_person_uuid": role.holder_person_id,
            "holder_company_uuid": role.holder_company_id,
            "share_percentage": number(role.share_percentage),
            "from_date": role.from_date,
            "to_date": role.to_date,
            "active_flag": role.to_date is None or role.to_date > today,
            "app_url": _part_url(company.uuid, "roles"),
        },
        "company_role_type": {
            "uuid": role.company_role_type.uuid,
            "company_role_type_key": role.company_role_type.key,
            "description": role.company_role_type.description,
        },
        "person": None
        if person is None
        else {
            "uuid": person.uuid,
            "full_name": person.full_name,
            "first_name": person.first_name,
            "last_name": person.last_name,
            "birth_date": person.birth_date,
            "nationality": person.nationality,
            "gender": person.gender,
            "national_identification_number": (person.national_identification_number or None)
            if with_national_id
            else None,
            "national_identification_schema": (person.national_identification_schema or None)
            if with_national_id
            else None,
            "app_url": None,
        },
        "holder_company": company_ref(holder) if holder is not None else None,
        "company": company_ref(company),
    }


# --- measures -------------------------------------------------------------------------------------------------


class CompanyMeasureTypeOut(Schema):
    uuid: UUID
    company_measure_type_key: str = Field(description="Identifier of the measure, e.g. return_on_assets")
    company_measure_type_description: str | None
    unit: str = Field(description="NOK, ratio or count (extension)")
    app_url: str | None


class CompanyMeasureYearlyOut(Schema):
    uuid: UUID
    company_uuid: UUID
    company_measure_type_uuid: UUID
    measure_year: int
    measure_value: float | None = Field(description="Null when the company's accounts lack an input")
    app_url: str | None


class CompanyMeasureYearlyComposite(Schema):
    uuid: UUID = Field(description="The yearly measure's uuid")
    company_measure_yearly: CompanyMeasureYearlyOut
    company_measure_type: CompanyMeasureTypeOut


def measure_type_out(measure_type: m.CompanyMeasureType) -> dict:
    return {
        "uuid": measure_type.uuid,
        "company_measure_type_key": measure_type.key,
        "company_measure_type_description": measure_type.description or None,
        "unit": measure_type.unit,
        "app_url": None,
    }


def measure_composite_out(measure: m.CompanyMeasureYearly) -> dict:
    return {
        "uuid": measure.uuid,
        "company_measure_yearly": {
            "uuid": measure.uuid,
            "company_uuid": measure.company_id,
            "company_measure_type_uuid": measure.company_measure_type_id,
            "measure_year": measure.measure_year,
            "measure_value": number(measure.measure_value),
            "app_url": _part_url(measure.company_id, f"measures-{measure.measure_year}"),
        },
        "company_measure_type": measure_type_out(measure.company_measure_type),
    }

