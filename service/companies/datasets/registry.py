"""Every dataset of `/datasets/v1/dataset/{name}`: its root model and its entities.

Element keys follow spec §2: accounts-composite is
`{accounts, accounts_highlights, accounts_income_statement, accounts_balance_sheet, company, accounts_type}`,
company-flag-composite carries `uuid` and `app_url` beside its entities, plain
datasets (`accounts`, `company`, `company-employment`, `company-flag` ...) are their one entity, flat.
All entities of a dataset come from one SQL query: forward foreign keys and
reverse one-to-ones only, never a one-to-many (which would multiply rows).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from service.companies import models as m
from service.companies.datasets import entities as e
from service.companies.datasets.fields import FieldType
from service.companies.datasets.schema import Dataset, Field


def _flags_visible_to(queryset: QuerySet, granted_roles: frozenset[str]) -> QuerySet:
    # A flag type may need a role (required_role_key); its flags are left out for callers without it.
    return queryset.filter(
        Q(company_flag_type__required_role_key="") | Q(company_flag_type__required_role_key__in=granted_roles)
    )


_DATASETS = (
    Dataset(
        name="accounts",
        model=m.Accounts,
        composite=False,
        description="Filed annual accounts, one row per set (replaced sets stay, with replaced_by_accounts_uuid).",
        entities=(e.accounts(),),
    ),
    Dataset(
        name="accounts-composite",
        model=m.Accounts,
        composite=True,
        description="Accounts with their highlights, income statement, balance sheet, company and accounts type.",
        entities=(
            e.accounts(),
            e.accounts_highlights(),
            e.accounts_income_statement(),
            e.accounts_balance_sheet(),
            e.company_reference(via="company__"),
            e.accounts_type(via="accounts_type__"),
        ),
    ),
    Dataset(
        name="company",
        model=m.Company,
        composite=False,
        description="Companies of the register with their register facts and statuses.",
        entities=(e.company_record(),),
    ),
    Dataset(
        name="company-composite",
        model=m.Company,
        composite=True,
        description=(
            "Companies with organisation type, primary NACE code, business municipality and country, credit risk "
            "(without credit_check computed without the payment-remark factors)."
        ),
        entities=(
            e.company_record(),
            e.organization_type(via="organization_type__"),
            e.nace_code(via="nace_code_1__"),
            e.geo_municipality(via="business_municipality__"),
            e.geo_country(via="business_country__"),
            e.company_credit_risk(via="credit_risk__", company_path="uuid"),
        ),
    ),
    Dataset(
        name="company-employment",
        model=m.CompanyEmployment,
        composite=False,
        description="Head count periods per company; consecutive rows describe changes over time.",
        entities=(e.company_employment(),),
    ),
    Dataset(
        name="company-flag",
        model=m.CompanyFlag,
        composite=False,
        description=(
            "Company flags, history included (the upstream service's name): active ones have no "
            "flag_end_date or one in the future."
        ),
        entities=(e.company_flag(),),
        scope=_flags_visible_to,
    ),
    Dataset(
        name="company-flag-composite",
        model=m.CompanyFlag,
        composite=True,
        description=(
            "Company flags with their type and company, history included: active ones have no "
            "flag_end_date or one in the future."
        ),
        headline=(
            Field("uuid", "uuid", FieldType.UUID),
            e.app_url_on_company_page(company_path="company_id", section="flags"),
        ),
        entities=(
            e.company_flag(),
            e.company_flag_type(via="company_flag_type__"),
            e.company_reference(via="company__"),
        ),
        scope=_flags_visible_to,
    ),
    Dataset(
        name="company-measure-yearly",
        model=m.CompanyMeasureYearly,
        composite=False,
        description="Yearly measures per company (one value per company, measure type and year).",
        entities=(e.company_measure_yearly(),),
    ),
    Dataset(
        name="company-measure-yearly-composite",
        model=m.CompanyMeasureYearly,
        composite=True,
        description="Yearly measures with their measure type.",
        headline=(Field("uuid", "uuid", FieldType.UUID),),
        entities=(e.company_measure_yearly(), e.company_measure_type(via="company_measure_type__")),
    ),
    Dataset(
        name="company-role",
        model=m.CompanyRole,
        composite=False,
        description="Roles in companies (board, CEO, shareholders with their share), held by a person or a company.",
        entities=(e.company_role(),),
    ),
    Dataset(
        name="company-role-composite",
        model=m.CompanyRole,
        composite=True,
        description=(
            "Roles with their type, company and holder (person or company). National identification "
            "numbers need the person_national_identification role."
        ),
        entities=(
            e.company_role(),
            e.company_role_type(via="company_role_type__"),
            e.company_reference(via="company__"),
            e.person(via="holder_person__"),
            e.holder_company_reference(via="holder_company__"),
        ),
    ),
    Dataset(
        name="company-credit-risk",
        model=m.CompanyCreditRisk,
        composite=False,
        description=(
            "The computed risk score (0-100, higher is riskier) and risk class per company; without "
            "credit_check computed without the payment-remark factors."
        ),
        entities=(e.company_credit_risk(),),
    ),
    Dataset(
        name="payment-remark",
        model=m.PaymentRemark,
        composite=False,
        description="Payment remarks per company. Needs the credit_check role.",
        entities=(e.payment_remark(),),
        role="credit_check",
    ),
)

DATASETS: dict[str, Dataset] = {dataset.name: dataset for dataset in _DATASETS}


def dataset_named(name: str) -> Dataset | None:
    return DATASETS.get(name)
