"""Reads of what the analysis computed: credit risk, active flags and yearly measures.

Role-protected parts (payment remarks, factors built on them and the score computed with
those factors, flag types with a required role) are filtered here by the caller's granted
roles, so an API function cannot forget to. Credit risk and flags are one hand-written statement each (`service.companies.raw_reads`
says why); they give model instances, as the ORM reads do.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Set
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from service.auth.models import AppRole
from service.companies import models as m
from service.companies.analysis.credit_risk import factors_visible_to, score_columns_for
from service.companies.raw_reads import model_rows
from service.companies.register.selectors import company_by_identifier, company_not_found, company_where
from service.errors import bad_field

# --- credit risk ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CreditRiskShown:
    """The score and class the caller may see (the public ones without the factors' roles)."""

    risk_score: Decimal
    risk_class: str
    model_version: str
    computed_at: datetime


@dataclass(frozen=True)
class CreditRiskView:
    company: m.Company
    credit_risk: CreditRiskShown | None  # None until analysed
    risk_statuses: list[tuple[m.CompanyRiskStatus, m.CompanyRiskStatusType]]  # every period, newest first
    payment_remarks: list[m.PaymentRemark] | None  # None: the caller lacks credit_check
    factors: dict  # the factors the caller may see
    hidden_factors: list[str]  # factors left out for a role the caller lacks


_CREDIT_RISK_SQL = (
    "SELECT c.*, cr.*, rs.*, rst.* "
    "FROM service_companies_company c "
    "LEFT JOIN service_companies_companycreditrisk cr ON cr.company_id = c.uuid "
    "LEFT JOIN service_companies_companyriskstatus rs ON rs.company_id = c.uuid "
    "LEFT JOIN service_companies_companyriskstatustype rst ON rst.uuid = rs.company_risk_status_type_id "
    "{where} ORDER BY rs.from_date DESC, rs.uuid"
)
# With the payment remarks in the same query: the company row twice (part 0 and 1), the
# statuses joined to part 0 and the remarks to part 1, so the two lists never multiply.
_CREDIT_RISK_WITH_REMARKS_SQL = (
    "SELECT c.*, cr.*, rs.*, rst.*, pr.* "
    "FROM service_companies_company c "
    "LEFT JOIN service_companies_companycreditrisk cr ON cr.company_id = c.uuid "
    "CROSS JOIN (SELECT 0 AS n UNION ALL SELECT 1 AS n) part "
    "LEFT JOIN service_companies_companyriskstatus rs ON part.n = 0 AND rs.company_id = c.uuid "
    "LEFT JOIN service_companies_companyriskstatustype rst ON rst.uuid = rs.company_risk_status_type_id "
    "LEFT JOIN service_companies_paymentremark pr ON part.n = 1 AND pr.company_id = c.uuid "
    "{where} ORDER BY part.n, rs.from_date DESC, rs.uuid, pr.registered_date DESC, pr.uuid"
)
_CREDIT_RISK_MODELS = (m.Company, m.CompanyCreditRisk, m.CompanyRiskStatus, m.CompanyRiskStatusType)


def company_credit_risk_get(*, identifier: str, granted_roles: frozenset[str]) -> CreditRiskView:
    """The company, its score, its status history and (with credit_check) its payment remarks: one query.

    Factors whose input needs a role the caller lacks (the payment remarks' count and amount) are
    left out of `factors` and named in `hidden_factors`, and the score and class are then the
    public ones, computed without them (credit_risk.score_columns_for)."""
    can_see_payment_remarks = "credit_check" in granted_roles
    where, params = company_where(identifier)
    if can_see_payment_remarks:
        rows = model_rows(
            _CREDIT_RISK_WITH_REMARKS_SQL.format(where=where), params, (*_CREDIT_RISK_MODELS, m.PaymentRemark)
        )
    else:
        rows = model_rows(_CREDIT_RISK_SQL.format(where=where), params, _CREDIT_RISK_MODELS)
    if not rows:
        raise company_not_found(identifier)
    company, credit_risk = rows[0][0], rows[0][1]
    statuses = [(row[2], row[3]) for row in rows if row[2] is not None]
    remarks = [row[4] for row in rows if row[4] is not None] if can_see_payment_remarks else None
    factors, hidden = factors_visible_to(credit_risk.factors if credit_risk else {}, granted_roles)
    return CreditRiskView(company, _shown(credit_risk, granted_roles), statuses, remarks, factors, hidden)


def _shown(credit_risk: m.CompanyCreditRisk | None, granted_roles: frozenset[str]) -> CreditRiskShown | None:
    if credit_risk is None:
        return None
    score_column, class_column, computed_column = score_columns_for(granted_roles)
    return CreditRiskShown(
        risk_score=getattr(credit_risk, score_column),
        risk_class=getattr(credit_risk, class_column),
        model_version=credit_risk.model_version,
        computed_at=getattr(credit_risk, computed_column),
    )


# --- flags -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActiveFlag:
    flag: m.CompanyFlag
    flag_type: m.CompanyFlagType
    required_role: AppRole | None  # the role a flag type needs, if any


_FLAGS_SQL = (
    "SELECT c.*, f.*, ft.*, ro.* "
    "FROM service_companies_company c "
    "LEFT JOIN service_companies_companyflag f ON f.company_id = c.uuid "
    "AND (f.flag_end_date IS NULL OR f.flag_end_date > %s) "
    "LEFT JOIN service_companies_companyflagtype ft ON ft.uuid = f.company_flag_type_id "
    "LEFT JOIN service_auth_approle ro ON ro.key = ft.required_role_key AND ft.required_role_key <> '' "
    "{where} ORDER BY ft.flag_rank, f.flag_date DESC, f.uuid"
)
_FLAGS_MODELS = (m.Company, m.CompanyFlag, m.CompanyFlagType, AppRole)


def company_flags_active(*, identifier: str, granted_roles: Iterable[str]) -> tuple[m.Company, list[ActiveFlag]]:
    """The company and its active flags (end date empty or in the future), most severe first;
    flag types that need a role the caller was not granted are left out. One query."""
    where, params = company_where(identifier)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    rows = model_rows(_FLAGS_SQL.format(where=where), [now, *params], _FLAGS_MODELS)
    if not rows:
        raise company_not_found(identifier)
    granted = frozenset(granted_roles)
    flags = [
        ActiveFlag(flag, flag_type, role)
        for _, flag, flag_type, role in rows
        if flag is not None and flag_type_visible(flag_type.required_role_key, granted)
    ]
    return rows[0][0], flags


def flag_type_visible(required_role_key: str, granted_roles: Set[str]) -> bool:
    """The one rule for role-protected flag types: shown only to a caller granted the role."""
    return not required_role_key or required_role_key in granted_roles


def company_flag_type_keys_active(*, companies: QuerySet, granted_roles: Iterable[str]) -> dict[uuid.UUID, list[str]]:
    """The active flag type keys of each company in `companies` (a queryset of companies, so a
    caller's join stays inside this one query), most severe first, role-protected types only
    with the role. Active as in company_flags_active: no end date, or one in the future."""
    granted = frozenset(granted_roles)
    rows = (
        m.CompanyFlag.objects.filter(company__in=companies)
        .filter(Q(flag_end_date__isnull=True) | Q(flag_end_date__gt=timezone.now()))
        .order_by("company_flag_type__flag_rank", "company_flag_type__key")
        .values_list("company_id", "company_flag_type__key", "company_flag_type__required_role_key")
    )
    keys: dict[uuid.UUID, list[str]] = {}
    for company_uuid, key, required_role_key in rows:
        found = keys.setdefault(company_uuid, [])
        if flag_type_visible(required_role_key, granted) and key not in found:
            found.append(key)
    return keys


# --- measures -------------------------------------------------------------------------------------------


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
