"""The entities datasets are made of, as builders taking the ORM path that leads to them.

The same entity appears in several datasets reached by different paths (the
company is the root of `company` and `company__` from accounts), so each
builder takes `via`, the path prefix from the dataset's root model.
Field names follow spec §2: `uuid`, `<entity>_uuid` references, `<entity>_key`
for catalogue keys, `app_url` on every entity.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models

from service.companies import models as m
from service.companies.analysis.credit_risk import score_columns_for
from service.companies.datasets.fields import FieldType as T
from service.companies.datasets.schema import Entity, Field
from service.companies.references import company_app_url

PERSON_ID_ROLE = "person_national_identification"


@dataclass(frozen=True)
class CompanyPage:
    """app_url of records shown on their company's dashboard page (there is no page per record).

    A value object, so equal links of one row (five entities on the same company
    page) are recognised as one and built once.
    """

    section: str = ""

    def __call__(self, company_uuid: object) -> str | None:
        if company_uuid is None:
            return None
        return f"{company_app_url(company_uuid)}#{self.section}" if self.section else company_app_url(company_uuid)


def app_url_on_company_page(*, company_path: str, section: str = "") -> Field:
    return Field("app_url", company_path, T.STRING, derive=CompanyPage(section))


NO_PAGE = Field("app_url", None, T.STRING)  # catalogue rows have no dashboard page


def decimal_fields_of(model: type[models.Model], *, via: str) -> tuple[Field, ...]:
    # The statement figures are all Decimal columns; reading them off the model keeps
    # the datasets in step with the schema when a figure is added.
    return tuple(
        Field(field.name, f"{via}{field.name}", T.DECIMAL)
        for field in model._meta.get_fields()
        if isinstance(field, models.DecimalField)
    )


# --- companies -------------------------------------------------------------------------------


def company_reference(*, via: str) -> Entity:
    """The company reference object of spec §2.2, as embedded in composites."""
    return Entity(
        "company",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("name", f"{via}name", T.STRING),
            Field("org_nr", f"{via}org_nr", T.STRING),
            Field("org_nr_schema", f"{via}org_nr_schema", T.STRING),
            app_url_on_company_page(company_path=f"{via}uuid"),
        ),
    )


def company_record(*, via: str = "") -> Entity:
    """The full company record (the `company` dataset): reference fields, register facts, statuses."""
    return Entity(
        "company",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("name", f"{via}name", T.STRING),
            Field("org_nr", f"{via}org_nr", T.STRING),
            Field("org_nr_schema", f"{via}org_nr_schema", T.STRING),
            Field("organization_type_uuid", f"{via}organization_type_id", T.UUID),
            Field("nace_code_1_uuid", f"{via}nace_code_1_id", T.UUID),
            Field("nace_code_2_uuid", f"{via}nace_code_2_id", T.UUID),
            Field("nace_code_3_uuid", f"{via}nace_code_3_id", T.UUID),
            Field("business_address", f"{via}business_address", T.STRING),
            Field("business_geo_postal_code_uuid", f"{via}business_postal_code_id", T.UUID),
            Field("business_geo_municipality_uuid", f"{via}business_municipality_id", T.UUID),
            Field("business_geo_country_uuid", f"{via}business_country_id", T.UUID),
            Field("postal_address", f"{via}postal_address", T.STRING),
            Field("postal_geo_postal_code_uuid", f"{via}postal_postal_code_id", T.UUID),
            Field("postal_geo_municipality_uuid", f"{via}postal_municipality_id", T.UUID),
            Field("postal_geo_country_uuid", f"{via}postal_country_id", T.UUID),
            Field("website", f"{via}website", T.STRING),
            Field("employees", f"{via}employees", T.INT),
            Field("registration_date", f"{via}registration_date", T.DATE),
            Field("founded_date", f"{via}founded_date", T.DATE),
            Field("last_submitted_accounts_year", f"{via}last_submitted_accounts_year", T.INT),
            Field("parent_org_nr", f"{via}parent_org_nr", T.STRING),
            Field("is_bankrupt", f"{via}is_bankrupt", T.BOOL),
            Field("bankrupt_date", f"{via}bankrupt_date", T.DATE),
            Field("is_under_liquidation", f"{via}is_under_liquidation", T.BOOL),
            Field("under_liquidation_date", f"{via}under_liquidation_date", T.DATE),
            Field("is_under_forced_dissolution", f"{via}is_under_forced_dissolution", T.BOOL),
            Field("forced_dissolution_date", f"{via}forced_dissolution_date", T.DATE),
            Field("create_timestamp", f"{via}create_timestamp", T.DATETIME),
            Field("update_timestamp", f"{via}update_timestamp", T.DATETIME),
            app_url_on_company_page(company_path=f"{via}uuid"),
        ),
    )


def organization_type(*, via: str) -> Entity:
    return Entity(
        "organization_type",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("organization_type_key", f"{via}key", T.STRING),
            Field("code", f"{via}code", T.STRING),
            Field("name", f"{via}name", T.STRING),
            NO_PAGE,
        ),
        presence=f"{via}uuid",
    )


def nace_code(*, via: str) -> Entity:
    return Entity(
        "nace_code",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("nace_code_key", f"{via}key", T.STRING),
            Field("code", f"{via}code", T.STRING),
            Field("level", f"{via}level", T.INT),
            Field("name", f"{via}name", T.STRING),
            NO_PAGE,
        ),
        presence=f"{via}uuid",
    )


def geo_municipality(*, via: str) -> Entity:
    return Entity(
        "geo_municipality",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("geo_municipality_key", f"{via}key", T.STRING),
            Field("code", f"{via}code", T.STRING),
            Field("name", f"{via}name", T.STRING),
            Field("geo_subdivision_uuid", f"{via}subdivision_id", T.UUID),
            NO_PAGE,
        ),
        presence=f"{via}uuid",
    )


def geo_country(*, via: str) -> Entity:
    return Entity(
        "geo_country",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("geo_country_key", f"{via}key", T.STRING),
            Field("name", f"{via}name", T.STRING),
            NO_PAGE,
        ),
        presence=f"{via}uuid",
    )


# --- accounts ------------------------------------------------------------------------------------


def accounts(*, via: str = "") -> Entity:
    return Entity(
        "accounts",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("company_uuid", f"{via}company_id", T.UUID),
            Field("accounting_year", f"{via}accounting_year", T.INT),
            Field("accounting_announcement_date", f"{via}accounting_announcement_date", T.DATE),
            Field("accounting_schema", f"{via}accounting_schema", T.STRING),
            Field("accounting_from_date", f"{via}accounting_from_date", T.DATE),
            Field("accounting_to_date", f"{via}accounting_to_date", T.DATE),
            Field("corporate_group_accounts_flag", f"{via}corporate_group_accounts_flag", T.BOOL),
            Field("accounts_type_uuid", f"{via}accounts_type_id", T.UUID),
            Field("estimated_accounting_period_flag", f"{via}estimated_accounting_period_flag", T.BOOL),
            Field("currency_code", f"{via}currency_code", T.STRING),
            Field("audited_flag", f"{via}audited_flag", T.BOOL),
            Field("replaced_by_accounts_uuid", f"{via}replaced_by_id", T.UUID),
            Field("update_timestamp", f"{via}update_timestamp", T.DATETIME),
            app_url_on_company_page(company_path=f"{via}company_id", section="accounts"),
        ),
    )


def accounts_type(*, via: str) -> Entity:
    return Entity(
        "accounts_type",
        (Field("uuid", f"{via}uuid", T.UUID), Field("accounts_type_key", f"{via}key", T.STRING), NO_PAGE),
    )


def _accounts_references(*, accounts_via: str) -> tuple[Field, ...]:
    """Spec §2.4 repeats the accounts' own references on each statement; read once, from the accounts row."""
    return (
        Field("accounts_uuid", f"{accounts_via}uuid", T.UUID),
        Field("accounting_year", f"{accounts_via}accounting_year", T.INT),
        Field("company_uuid", f"{accounts_via}company_id", T.UUID),
        Field("accounts_type_uuid", f"{accounts_via}accounts_type_id", T.UUID),
    )


def _accounts_part(
    name: str, model: type[models.Model], *, relation: str, accounts_via: str, currency: bool
) -> Entity:
    own = f"{accounts_via}{relation}__"
    return Entity(
        name,
        (
            Field("uuid", f"{own}uuid", T.UUID),
            *_accounts_references(accounts_via=accounts_via),
            *((Field("currency_code", f"{own}currency_code", T.STRING),) if currency else ()),
            *decimal_fields_of(model, via=own),
            app_url_on_company_page(company_path=f"{accounts_via}company_id", section="accounts"),
        ),
        presence=f"{own}uuid",
    )


def accounts_income_statement(*, accounts_via: str = "") -> Entity:
    return _accounts_part(
        "accounts_income_statement",
        m.AccountsIncomeStatement,
        relation="income_statement",
        accounts_via=accounts_via,
        currency=True,
    )


def accounts_balance_sheet(*, accounts_via: str = "") -> Entity:
    return _accounts_part(
        "accounts_balance_sheet",
        m.AccountsBalanceSheet,
        relation="balance_sheet",
        accounts_via=accounts_via,
        currency=True,
    )


def accounts_highlights(*, accounts_via: str = "") -> Entity:
    return _accounts_part(
        "accounts_highlights", m.AccountsHighlights, relation="highlights", accounts_via=accounts_via, currency=False
    )


# --- flags, employment, measures ---------------------------------------------------------------------


def company_flag(*, via: str = "") -> Entity:
    return Entity(
        "company_flag",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("company_uuid", f"{via}company_id", T.UUID),
            Field("company_flag_type_uuid", f"{via}company_flag_type_id", T.UUID),
            Field("flag_date", f"{via}flag_date", T.DATETIME),
            Field("flag_context", f"{via}flag_context", T.JSON),
            Field("flag_url", f"{via}flag_url", T.STRING),
            Field("flag_end_date", f"{via}flag_end_date", T.DATETIME),
            Field("update_timestamp", f"{via}update_timestamp", T.DATETIME),
            app_url_on_company_page(company_path=f"{via}company_id", section="flags"),
        ),
    )


def company_flag_type(*, via: str) -> Entity:
    return Entity(
        "company_flag_type",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("company_flag_type_key", f"{via}key", T.STRING),
            Field("company_flag_type_description", f"{via}description", T.STRING),
            Field("app_hidden_flag", f"{via}app_hidden_flag", T.BOOL),
            Field("default_lookback_days", f"{via}default_lookback_days", T.INT),
            Field("flag_rank", f"{via}flag_rank", T.INT),
            Field("app_feature_uuid", None, T.UUID),
            Field("app_role_uuid", None, T.UUID),
            Field("required_role_key", f"{via}required_role_key", T.STRING),
            Field("persist_flag", f"{via}persist_flag", T.BOOL),
            Field("app_icon_uuid", None, T.UUID),
            Field("default_flag_end_days", f"{via}default_flag_end_days", T.INT),
            NO_PAGE,
        ),
    )


def company_employment(*, via: str = "") -> Entity:
    return Entity(
        "company_employment",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("company_uuid", f"{via}company_id", T.UUID),
            Field("employee_count", f"{via}employee_count", T.INT),
            Field("employee_date", f"{via}employee_date", T.DATETIME),
            Field("from_date", f"{via}from_date", T.DATETIME),
            Field("to_date", f"{via}to_date", T.DATETIME),
            Field("employee_count_from", f"{via}employee_count_from", T.INT),
            Field("employee_count_to", f"{via}employee_count_to", T.INT),
            app_url_on_company_page(company_path=f"{via}company_id", section="employment"),
        ),
    )


def company_measure_yearly(*, via: str = "") -> Entity:
    return Entity(
        "company_measure_yearly",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("company_uuid", f"{via}company_id", T.UUID),
            Field("company_measure_type_uuid", f"{via}company_measure_type_id", T.UUID),
            Field("measure_year", f"{via}measure_year", T.INT),
            Field("measure_value", f"{via}measure_value", T.DECIMAL),
            Field("update_timestamp", f"{via}update_timestamp", T.DATETIME),
            app_url_on_company_page(company_path=f"{via}company_id", section="measures"),
        ),
    )


def company_measure_type(*, via: str) -> Entity:
    return Entity(
        "company_measure_type",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("company_measure_type_key", f"{via}key", T.STRING),
            Field("company_measure_type_description", f"{via}description", T.STRING),
            Field("unit", f"{via}unit", T.STRING),
            NO_PAGE,
        ),
    )


# --- roles, persons, credit risk, payment remarks --------------------------------------------------------


def company_role(*, via: str = "") -> Entity:
    return Entity(
        "company_role",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("company_uuid", f"{via}company_id", T.UUID),
            Field("company_role_type_uuid", f"{via}company_role_type_id", T.UUID),
            Field("holder_person_uuid", f"{via}holder_person_id", T.UUID),
            Field("holder_company_uuid", f"{via}holder_company_id", T.UUID),
            Field("share_percentage", f"{via}share_percentage", T.DECIMAL),
            Field("from_date", f"{via}from_date", T.DATE),
            Field("to_date", f"{via}to_date", T.DATE),
            Field("update_timestamp", f"{via}update_timestamp", T.DATETIME),
            app_url_on_company_page(company_path=f"{via}company_id", section="roles"),
        ),
    )


def company_role_type(*, via: str) -> Entity:
    return Entity(
        "company_role_type",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("company_role_type_key", f"{via}key", T.STRING),
            Field("company_role_type_description", f"{via}description", T.STRING),
            NO_PAGE,
        ),
    )


def person(*, via: str) -> Entity:
    """A role holder. National identification numbers need the person_national_identification role."""
    return Entity(
        "person",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("full_name", f"{via}full_name", T.STRING),
            Field("first_name", f"{via}first_name", T.STRING),
            Field("last_name", f"{via}last_name", T.STRING),
            Field("birth_date", f"{via}birth_date", T.DATE),
            Field("nationality", f"{via}nationality", T.STRING),
            Field("gender", f"{via}gender", T.STRING),
            Field(
                "national_identification_number",
                f"{via}national_identification_number",
                T.STRING,
                role=PERSON_ID_ROLE,
            ),
            Field(
                "national_identification_schema",
                f"{via}national_identification_schema",
                T.STRING,
                role=PERSON_ID_ROLE,
            ),
            Field("update_timestamp", f"{via}update_timestamp", T.DATETIME),
            NO_PAGE,
        ),
        presence=f"{via}uuid",
    )


def holder_company_reference(*, via: str) -> Entity:
    reference = company_reference(via=via)
    return Entity("holder_company", reference.fields, presence=f"{via}uuid")


@dataclass(frozen=True)
class CreditRiskColumn:
    """The path of the score (0), class (1) or computed-at (2) column the caller's roles allow: the
    full score only with the roles of its role-bound factors (credit_risk.score_columns_for), so
    neither the values nor which companies a filter on them matches reveal payment remarks."""

    via: str
    index: int

    def __call__(self, granted_roles: frozenset[str]) -> str:
        return f"{self.via}{score_columns_for(granted_roles)[self.index]}"


def company_credit_risk(*, via: str = "", company_path: str = "company_id") -> Entity:
    # One row per company, keyed by the company: it has no uuid of its own (spec §2.5 neither).
    # The score and class are the public ones unless the caller's roles allow the full ones.
    return Entity(
        "company_credit_risk",
        (
            Field("company_uuid", company_path, T.UUID),
            Field(
                "risk_score", f"{via}public_risk_score", T.DECIMAL, path_for_roles=CreditRiskColumn(via, 0)
            ),
            Field(
                "risk_class", f"{via}public_risk_class", T.STRING, path_for_roles=CreditRiskColumn(via, 1)
            ),
            Field("model_version", f"{via}model_version", T.STRING),
            Field(
                "computed_at", f"{via}public_computed_at", T.DATETIME, path_for_roles=CreditRiskColumn(via, 2)
            ),
            app_url_on_company_page(company_path=company_path, section="risk"),
        ),
        presence=f"{via}public_risk_class",  # null exactly when the company has no score
    )


def payment_remark(*, via: str = "") -> Entity:
    return Entity(
        "payment_remark",
        (
            Field("uuid", f"{via}uuid", T.UUID),
            Field("company_uuid", f"{via}company_id", T.UUID),
            Field("collection_case_uuid", f"{via}collection_case_id", T.UUID),
            Field("remark_type", f"{via}remark_type", T.STRING),
            Field("registered_date", f"{via}registered_date", T.DATE),
            Field("amount", f"{via}amount", T.DECIMAL),
            Field("currency_code", f"{via}currency_code", T.STRING),
            Field("creditor_name", f"{via}creditor_name", T.STRING),
            Field("settled_date", f"{via}settled_date", T.DATE),
            app_url_on_company_page(company_path=f"{via}company_id", section="risk"),
        ),
    )
