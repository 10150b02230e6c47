"""Reads of the company register for the analysis API.

Company data is register data: public to every authenticated caller. Role-protected
parts (payment remarks, collection cases, national identification numbers, flag
types with a required role) are filtered here by the caller's granted roles, so an
API function can never forget to. Every selector runs a small fixed number of queries.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from service.auth.models import AppRole
from service.companies import models as m
from service.companies.identifiers import company_get, company_identifier_parse
from service.errors import bad_field

# Few joins on purpose: a query joining the company to all fifteen of its reference rows
# takes PostgreSQL longer to plan (~17 ms) than two small queries take to run.
COMPANY_DETAIL_RELATED = ("organization_type", "nace_code_1", "nace_code_2", "nace_code_3")


def company_by_identifier(*, identifier: str, loc: list[str] | None = None, queryset: QuerySet | None = None):
    """The company an identifier names (400 malformed, 404 unknown)."""
    return company_get(identifier, loc=loc or ["path", "company_identifier"], queryset=queryset)


@dataclass(frozen=True)
class CompanyDetail:
    company: m.Company
    postal_codes: dict[uuid.UUID, m.GeoPostalCode]
    municipalities: dict[uuid.UUID, m.GeoMunicipality]  # with subdivision and its country
    countries: dict[uuid.UUID, m.GeoCountry]


def company_detail_get(*, identifier: str) -> CompanyDetail:
    """A company with its reference data, geo entities and risk statuses: three queries (up to five)."""
    queryset = m.Company.objects.select_related(*COMPANY_DETAIL_RELATED).prefetch_related(
        Prefetch(
            "risk_statuses",
            queryset=m.CompanyRiskStatus.objects.select_related("company_risk_status_type").order_by(
                "-from_date", "uuid"
            ),
        )
    )
    company = company_by_identifier(identifier=identifier, queryset=queryset)
    postal_ids = {company.business_postal_code_id, company.postal_postal_code_id} - {None}
    municipality_ids = {company.business_municipality_id, company.postal_municipality_id} - {None}
    country_ids = {company.business_country_id, company.postal_country_id} - {None}
    # one query for the usual case: the municipalities and countries come with the postal codes
    postal_codes = (
        {
            p.uuid: p
            for p in m.GeoPostalCode.objects.filter(uuid__in=postal_ids).select_related(
                "country", "municipality__subdivision__country"
            )
        }
        if postal_ids
        else {}
    )
    municipalities = {p.municipality_id: p.municipality for p in postal_codes.values() if p.municipality_id}
    countries = {p.country_id: p.country for p in postal_codes.values()}
    countries.update({x.subdivision.country_id: x.subdivision.country for x in municipalities.values()})
    missing_municipalities = municipality_ids - set(municipalities)
    if missing_municipalities:
        for x in m.GeoMunicipality.objects.filter(uuid__in=missing_municipalities).select_related("subdivision__country"):
            municipalities[x.uuid] = x
            countries[x.subdivision.country_id] = x.subdivision.country
    missing_countries = country_ids - set(countries)
    if missing_countries:
        countries.update({c.uuid: c for c in m.GeoCountry.objects.filter(uuid__in=missing_countries)})
    return CompanyDetail(company, postal_codes, municipalities, countries)


@dataclass(frozen=True)
class CreditRiskView:
    company: m.Company
    credit_risk: m.CompanyCreditRisk | None
    risk_statuses: list[m.CompanyRiskStatus]
    payment_remarks: list[m.PaymentRemark] | None  # None: the caller lacks credit_check


def company_credit_risk_get(*, identifier: str, can_see_payment_remarks: bool) -> CreditRiskView:
    company = company_by_identifier(
        identifier=identifier, queryset=m.Company.objects.select_related("credit_risk")
    )
    statuses = list(
        m.CompanyRiskStatus.objects.filter(company=company)
        .select_related("company_risk_status_type")
        .order_by("-from_date", "uuid")
    )
    remarks = None
    if can_see_payment_remarks:
        remarks = list(m.PaymentRemark.objects.filter(company=company).order_by("-registered_date", "uuid"))
    try:
        credit_risk = company.credit_risk
    except m.CompanyCreditRisk.DoesNotExist:
        credit_risk = None
    return CreditRiskView(company, credit_risk, statuses, remarks)


def company_flags_active(*, identifier: str, granted_roles: Iterable[str]) -> tuple[m.Company, list[m.CompanyFlag], dict]:
    """Active flags (end date empty or in the future), most severe first; flag types that
    need a role the caller was not granted are left out. Also returns role key -> AppRole uuid."""
    company = company_by_identifier(identifier=identifier)
    granted = set(granted_roles)
    now = timezone.now()
    flags = [
        flag
        for flag in m.CompanyFlag.objects.filter(company=company)
        .filter(Q(flag_end_date__isnull=True) | Q(flag_end_date__gt=now))
        .select_related("company_flag_type")
        .order_by("company_flag_type__flag_rank", "-flag_date", "uuid")
        if not flag.company_flag_type.required_role_key or flag.company_flag_type.required_role_key in granted
    ]
    role_keys = {flag.company_flag_type.required_role_key for flag in flags} - {""}
    roles = dict(AppRole.objects.filter(key__in=role_keys).values_list("key", "uuid")) if role_keys else {}
    return company, flags, roles


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


def company_accounts_list(
    *, identifier: str, accounting_years: list[int] | None, accounts_type: m.AccountsType | None
) -> tuple[m.Company, list[m.Accounts]]:
    """Accounts with statements and highlights, newest year first (replaced sets included,
    each pointing at its successor). One query when the company has accounts."""
    parsed = company_identifier_parse(identifier, loc=["path", "company_identifier"])
    if parsed.company_uuid:
        accounts = m.Accounts.objects.filter(company_id=parsed.company_uuid)
    else:
        accounts = m.Accounts.objects.filter(company__org_nr_schema=parsed.org_nr_schema, company__org_nr=parsed.org_nr)
    accounts = accounts.select_related("company", "accounts_type", "income_statement", "balance_sheet", "highlights")
    if accounting_years:
        accounts = accounts.filter(accounting_year__in=accounting_years)
    if accounts_type is not None:
        accounts = accounts.filter(accounts_type=accounts_type)
    rows = list(accounts.order_by("-accounting_year", "accounts_type__key", "-accounting_announcement_date", "uuid"))
    company = rows[0].company if rows else company_by_identifier(identifier=identifier)  # 404 when unknown
    return company, rows


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


def measure_types_list() -> list[m.CompanyMeasureType]:
    return list(m.CompanyMeasureType.objects.order_by("key"))


def measure_types_resolve(*, identifiers: str | None) -> list[m.CompanyMeasureType] | None:
    """Measure types by comma-separated uuids or keys; a 400 listing the unknown ones."""
    if identifiers is None or not identifiers.strip():
        return None
    wanted = [part.strip() for part in identifiers.split(",") if part.strip()]
    uuids, keys = set(), set()
    for part in wanted:
        try:
            uuids.add(uuid.UUID(part))
        except ValueError:
            keys.add(part)
    found = list(m.CompanyMeasureType.objects.filter(Q(uuid__in=uuids) | Q(key__in=keys)))
    known = {str(t.uuid) for t in found} | {t.key for t in found}
    unknown = [part for part in wanted if part not in known and str(_uuid_or_none(part)) not in known]
    if unknown:
        raise bad_field(
            ["query", "company_measure_type_identifiers"],
            f"unknown measure type(s): {', '.join(unknown)}; see GET /analysis/v1/company-measure-type",
        )
    return found


def _uuid_or_none(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


def company_measures_list(
    *, identifier: str, measure_year: int | None, measure_types: list[m.CompanyMeasureType] | None
) -> tuple[m.Company, list[m.CompanyMeasureYearly]]:
    company = company_by_identifier(identifier=identifier, loc=["query", "company_identifier"])
    measures = m.CompanyMeasureYearly.objects.filter(company=company).select_related("company_measure_type")
    if measure_year is not None:
        measures = measures.filter(measure_year=measure_year)
    if measure_types is not None:
        measures = measures.filter(company_measure_type__in=measure_types)
    return company, list(measures.order_by("-measure_year", "company_measure_type__key"))
