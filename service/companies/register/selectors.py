"""Reads of the company register: basic info, employment, auditor notes, accounts,
collection cases and roles.

Company data is register data: public to every authenticated caller. Role-protected parts
(collection cases, national identification numbers) are gated by the API functions and
shapers named in their docs. Every selector runs a small fixed number of queries and gives
model instances; the hottest two (basic info, accounts) are one hand-written statement each
(`service.companies.raw_reads` says why), the others ORM querysets.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import connection
from django.db.models import Prefetch, QuerySet

from service.companies import models as m
from service.companies.identifiers import company_get, company_identifier_parse
from service.companies.raw_reads import Only, model_rows
from service.errors import NotFound, bad_field


def company_by_identifier(*, identifier: str, loc: list[str] | None = None, queryset: QuerySet | None = None):
    """The company an identifier names (400 malformed, 404 unknown)."""
    return company_get(identifier, loc=loc or ["path", "company_identifier"], queryset=queryset)


def company_where(identifier: str) -> tuple[str, list]:
    """The WHERE clause on company alias `c` for an identifier (400 when malformed)."""
    parsed = company_identifier_parse(identifier, loc=["path", "company_identifier"])
    if parsed.company_uuid:
        return " WHERE c.uuid = %s", [uuid_param(parsed.company_uuid)]
    return " WHERE c.org_nr_schema = %s AND c.org_nr = %s", [parsed.org_nr_schema, parsed.org_nr]


def uuid_param(value: uuid.UUID):
    return m.Company._meta.pk.get_db_prep_value(value, connection)  # SQLite keeps uuids as hex text


def company_not_found(identifier: str) -> NotFound:
    return NotFound(f"No company with identifier {identifier!r}.")


# --- basic info ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Address:
    kind: str  # business or postal
    address: str
    postal_code: m.GeoPostalCode | None
    municipality: m.GeoMunicipality | None
    subdivision: m.GeoSubdivision | None
    country: m.GeoCountry | None  # the company's own, else its municipality's


@dataclass(frozen=True)
class CompanyDetail:
    company: m.Company
    organization_type: m.OrganizationType | None
    nace_codes: list[m.NaceCode]  # main activity first
    addresses: list[Address]  # business, then postal; only those the company has
    active_statuses: list[tuple[m.CompanyRiskStatus, m.CompanyRiskStatusType]]


def _address_joins(kind: str, p: str) -> str:
    # The country is the company's own, else its municipality's (as the register gives it).
    return (
        f"LEFT JOIN service_companies_geopostalcode {p}pc ON {p}pc.uuid = c.{kind}_postal_code_id "
        f"LEFT JOIN service_companies_geomunicipality {p}mu ON {p}mu.uuid = c.{kind}_municipality_id "
        f"LEFT JOIN service_companies_geosubdivision {p}sd ON {p}sd.uuid = {p}mu.subdivision_id "
        f"LEFT JOIN service_companies_geocountry {p}co ON {p}co.uuid = COALESCE(c.{kind}_country_id, {p}sd.country_id) "
    )


_GEO = (m.GeoPostalCode, m.GeoMunicipality, m.GeoSubdivision, m.GeoCountry)
_COMPANY_DETAIL_MODELS = (
    m.Company, m.OrganizationType, m.NaceCode, m.NaceCode, m.NaceCode, *_GEO, *_GEO,
    m.CompanyRiskStatus, m.CompanyRiskStatusType,
)
_COMPANY_DETAIL_SQL = (
    "SELECT c.*, ot.*, n1.*, n2.*, n3.*, bpc.*, bmu.*, bsd.*, bco.*, ppc.*, pmu.*, psd.*, pco.*, rs.*, rst.* "
    "FROM service_companies_company c "
    "LEFT JOIN service_companies_organizationtype ot ON ot.uuid = c.organization_type_id "
    "LEFT JOIN service_companies_nacecode n1 ON n1.uuid = c.nace_code_1_id "
    "LEFT JOIN service_companies_nacecode n2 ON n2.uuid = c.nace_code_2_id "
    "LEFT JOIN service_companies_nacecode n3 ON n3.uuid = c.nace_code_3_id "
    + _address_joins("business", "b")
    + _address_joins("postal", "p")
    + "LEFT JOIN service_companies_companyriskstatus rs ON rs.company_id = c.uuid AND rs.to_date IS NULL "
    "LEFT JOIN service_companies_companyriskstatustype rst ON rst.uuid = rs.company_risk_status_type_id "
    "{where} ORDER BY rs.from_date DESC, rs.uuid"
)


def company_detail_get(*, identifier: str) -> CompanyDetail:
    """A company with its reference data, geo entities and active risk statuses: one query
    (one row per active status). 400 malformed, 404 unknown."""
    where, params = company_where(identifier)
    rows = model_rows(_COMPANY_DETAIL_SQL.format(where=where), params, _COMPANY_DETAIL_MODELS)
    if not rows:
        raise company_not_found(identifier)
    company, organization_type, n1, n2, n3, *geo = rows[0][:13]
    addresses = []
    for kind, parts in (("business", geo[0:4]), ("postal", geo[4:8])):
        address = getattr(company, f"{kind}_address")
        if address or getattr(company, f"{kind}_postal_code_id") or getattr(company, f"{kind}_municipality_id"):
            addresses.append(Address(kind, address, *parts))
    statuses = [(row[13], row[14]) for row in rows if row[13] is not None]
    return CompanyDetail(company, organization_type, [n for n in (n1, n2, n3) if n], addresses, statuses)


# --- accounts -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AccountsSet:
    """One filed set of accounts with its type and the parts that were filed (None: not filed)."""

    accounts: m.Accounts
    accounts_type: m.AccountsType
    highlights: m.AccountsHighlights | None
    income_statement: m.AccountsIncomeStatement | None
    balance_sheet: m.AccountsBalanceSheet | None


# Only what the answer shows: the company as its reference (spec §2.2), not the rest of its
# wide row on every accounts row, and no timestamps (Django's time-zone loader parses them in Python).
_ACCOUNTS_COMPANY = Only(m.Company, ("uuid", "name", "org_nr", "org_nr_schema"))
_ACCOUNTS = Only(
    m.Accounts, tuple(f.name for f in m.Accounts._meta.concrete_fields if f.name != "update_timestamp")
)
_ACCOUNTS_MODELS = (
    _ACCOUNTS_COMPANY, _ACCOUNTS, m.AccountsType, m.AccountsHighlights, m.AccountsIncomeStatement, m.AccountsBalanceSheet,
)
_ACCOUNTS_SQL = (
    f"SELECT {_ACCOUNTS_COMPANY.select('c')}, {_ACCOUNTS.select('a')}, t.*, h.*, i.*, b.* "
    "FROM service_companies_company c "
    "LEFT JOIN service_companies_accounts a ON a.company_id = c.uuid{on} "
    "LEFT JOIN service_companies_accountstype t ON t.uuid = a.accounts_type_id "
    "LEFT JOIN service_companies_accountshighlights h ON h.accounts_id = a.uuid "
    "LEFT JOIN service_companies_accountsincomestatement i ON i.accounts_id = a.uuid "
    "LEFT JOIN service_companies_accountsbalancesheet b ON b.accounts_id = a.uuid"
    "{where} ORDER BY a.accounting_year DESC, t.key, a.accounting_announcement_date DESC, a.uuid"
)


def company_accounts_list(
    *, identifier: str, accounting_years: list[int] | None, accounts_type: m.AccountsType | None
) -> tuple[m.Company, list[AccountsSet]]:
    """The company and its accounts with statements and highlights, newest year first
    (replaced sets included, each pointing at its successor). One query."""
    where, params = company_where(identifier)
    on, on_params = "", []
    if accounting_years:
        on += f" AND a.accounting_year IN ({', '.join(['%s'] * len(accounting_years))})"
        on_params += accounting_years
    if accounts_type is not None:
        on += " AND a.accounts_type_id = %s"
        on_params.append(uuid_param(accounts_type.uuid))
    rows = model_rows(_ACCOUNTS_SQL.format(on=on, where=where), [*on_params, *params], _ACCOUNTS_MODELS)
    if not rows:
        raise company_not_found(identifier)
    return rows[0][0], [AccountsSet(*row[1:]) for row in rows if row[1] is not None]


def accounting_years_parse(raw: str | None) -> list[int] | None:
    """`2023,2024` -> [2023, 2024]; a 400 naming accounting_years for anything else."""
    if raw is None or not raw.strip():
        return None
    years = []
    for part in raw.split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit() or not 1800 <= int(part) <= 2999:
            raise bad_field(["query", "accounting_years"], f"{part!r} is not a year; give a comma-separated list such as 2023,2024")
        years.append(int(part))
    return years or None


def accounts_type_resolve(*, identifier: str | None) -> m.AccountsType | None:
    """An accounts type by key or uuid; 400 naming accounts_type_identifier when unknown."""
    if identifier is None or not identifier.strip():
        return None
    identifier = identifier.strip()
    try:
        found = m.AccountsType.objects.filter(uuid=uuid.UUID(identifier)).first()
    except ValueError:
        found = m.AccountsType.objects.filter(key=identifier).first()
    if found is None:
        known = ", ".join(m.AccountsType.objects.order_by("key").values_list("key", flat=True))
        raise bad_field(["query", "accounts_type_identifier"], f"unknown accounts type {identifier!r}; known: {known}")
    return found


# --- the ORM reads ----------------------------------------------------------------------------------


def company_employment_list(*, identifier: str) -> tuple[m.Company, list[m.CompanyEmployment]]:
    company = company_by_identifier(identifier=identifier)
    return company, list(m.CompanyEmployment.objects.filter(company=company).order_by("from_date", "uuid"))


def company_auditor_notes_list(*, identifier: str) -> tuple[m.Company, list[m.AccountsAuditorNote]]:
    company = company_by_identifier(identifier=identifier)
    notes = list(
        m.AccountsAuditorNote.objects.filter(accounts__company=company)
        .select_related("accounts__accounts_type", "accounts_auditor_note_type")
        .order_by(
            "-accounts__accounting_year",
            "accounts__accounts_type__key",
            "-accounts__accounting_announcement_date",
            "accounts__uuid",
            "accounts_auditor_note_type__key",
            "uuid",
        )
    )
    return company, notes


def collection_cases_list(*, debtor_identifier: str) -> tuple[m.Company, list[m.CollectionCase]]:
    """Collection cases of a debtor with their payment remarks. Callers check credit_check first."""
    company = company_by_identifier(identifier=debtor_identifier, loc=["query", "debtor_company_identifier"])
    cases = list(
        m.CollectionCase.objects.filter(debtor_company=company)
        .prefetch_related(
            Prefetch("payment_remarks", queryset=m.PaymentRemark.objects.order_by("-registered_date", "uuid"))
        )
        .order_by("-opened_date", "uuid")
    )
    return company, cases


def company_roles_list(*, identifier: str) -> tuple[m.Company, list[m.CompanyRole]]:
    company = company_by_identifier(identifier=identifier, loc=["query", "company_identifier"])
    roles = list(
        m.CompanyRole.objects.filter(company=company)
        .select_related("company_role_type", "holder_person", "holder_company")
        .order_by("company_role_type__key", "from_date", "uuid")
    )
    return company, roles
