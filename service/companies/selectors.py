"""Reads of the company register for the analysis API.

Company data is register data: public to every authenticated caller. Role-protected
parts (payment remarks, collection cases, national identification numbers, flag
types with a required role) are filtered here by the caller's granted roles, so an
API function can never forget to. Every selector runs a small fixed number of queries.

The four most used reads (company, credit risk, flags, accounts) are hand-written
SQL, one query each: compiling the equivalent querysets cost Django ~3 ms a
request, more than the database's work, and every further round trip costs the
web process ~0.5 ms under load.
Their rows come back as dicts of the same Python values the ORM would give (Django's
own converters), so the SQL can stay the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass

import psycopg
from django.db import connection
from django.db.models import Field, Prefetch, Q, QuerySet
from django.utils import timezone

from service.auth.models import AppRole
from service.companies import models as m
from service.companies.analysis.credit_risk import factors_visible_to
from service.companies.identifiers import company_get, company_identifier_parse
from service.companies.schemas import BALANCE_FIELDS, HIGHLIGHT_FIELDS, INCOME_FIELDS
from service.errors import NotFound, bad_field


def company_by_identifier(*, identifier: str, loc: list[str] | None = None, queryset: QuerySet | None = None):
    """The company an identifier names (400 malformed, 404 unknown)."""
    return company_get(identifier, loc=loc or ["path", "company_identifier"], queryset=queryset)


# --- hand-written reads ----------------------------------------------------------------------


class _PreparedCursor(psycopg.Cursor):
    """Server-side binding, every statement prepared: PostgreSQL plans a query once per
    connection instead of on every request (planning the company query's fifteen joins
    takes ~11 ms, running it ~0.3 ms). Only these reads use it; the ORM keeps Django's
    client-side binding. Needs a direct connection (no transaction-pooling pgbouncer)."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        return super().execute(query, params, prepare=True, binary=binary)


def _cursor():
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:
        # Django turns preparing off (None); a threshold no query reaches leaves the ORM's
        # queries unprepared (client-side binding never prepares anyway) and lets ours ask.
        raw.prepare_threshold = 2**31
    cursor = _PreparedCursor(raw)
    # Django's wrapper: query logging in tests, execute_wrappers, database error translation
    return connection.make_debug_cursor(cursor) if connection.queries_logged else connection.make_cursor(cursor)


def _cols(alias: str, model, *names: str, prefix: str = "") -> list[tuple[str, str, Field]]:
    """Columns of one table alias as (key in the row dict, SQL, model field); `names` are field names."""
    fields = [model._meta.get_field(name) for name in names]
    return [(f"{prefix}{name}", f"{alias}.{field.column}", field) for name, field in zip(names, fields)]


class _Select:
    """A hand-written SELECT whose rows are dicts with the values the ORM would give."""

    def __init__(self, columns: Sequence[tuple[str, str, Field]], body: str) -> None:
        self.keys = [key for key, _, _ in columns]
        self.sql_head = "SELECT " + ", ".join(sql for _, sql, _ in columns) + " " + body
        self._fields = [(field, sql.split(".")[0]) for _, sql, field in columns]
        self._converters: dict[str, list] = {}

    def _converters_for_vendor(self) -> list:
        found = self._converters.get(connection.vendor)
        if found is None:
            found = []
            for index, (field, alias) in enumerate(self._fields):
                expression = field.get_col(alias)
                functions = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
                if functions:
                    found.append((index, functions, expression))
            self._converters[connection.vendor] = found
        return found

    def rows(self, tail: str, params: Sequence) -> list[dict]:
        with _cursor() as cursor:
            cursor.execute(self.sql_head + tail, params)
            rows = cursor.fetchall()
        converters = self._converters_for_vendor()
        keys = self.keys
        out = []
        for row in rows:
            if converters:
                row = list(row)
                for index, functions, expression in converters:
                    value = row[index]
                    for function in functions:
                        value = function(value, expression, connection)
                    row[index] = value
            out.append(dict(zip(keys, row)))
        return out


def _company_where(identifier: str) -> tuple[str, list]:
    """The WHERE clause on company alias `c` for an identifier (400 when malformed)."""
    parsed = company_identifier_parse(identifier, loc=["path", "company_identifier"])
    if parsed.company_uuid:
        return " WHERE c.uuid = %s", [_uuid_param(parsed.company_uuid)]
    return " WHERE c.org_nr_schema = %s AND c.org_nr = %s", [parsed.org_nr_schema, parsed.org_nr]


def _uuid_param(value: uuid.UUID):
    return m.Company._meta.pk.get_db_prep_value(value, connection)  # SQLite keeps uuids as hex text


def _not_found(identifier: str) -> NotFound:
    return NotFound(f"No company with identifier {identifier!r}.")


_COMPANY_REF = _cols("c", m.Company, "uuid", "name", "org_nr", "org_nr_schema")
_RISK_STATUS = [
    *_cols("rs", m.CompanyRiskStatus, "uuid", "company_risk_status_type", "from_date", "to_date", prefix="rs_"),
    *_cols("rst", m.CompanyRiskStatusType, "key", "description", prefix="rst_"),
]
_RISK_STATUS_JOIN = (
    "LEFT JOIN service_companies_companyriskstatustype rst ON rst.uuid = rs.company_risk_status_type_id "
)


def _address_columns(kind: str) -> list:
    p = kind[0]  # b(usiness) or p(ostal)
    return [
        *_cols("c", m.Company, f"{kind}_address", f"{kind}_postal_code", f"{kind}_municipality"),
        *_cols(f"{p}pc", m.GeoPostalCode, "uuid", "key", "code", "place_name", prefix=f"{p}pc_"),
        *_cols(f"{p}mu", m.GeoMunicipality, "uuid", "key", "code", "name", prefix=f"{p}mu_"),
        *_cols(f"{p}sd", m.GeoSubdivision, "uuid", "key", "code", "name", prefix=f"{p}sd_"),
        *_cols(f"{p}co", m.GeoCountry, "uuid", "key", "name", prefix=f"{p}co_"),
    ]


def _address_joins(kind: str) -> str:
    # The country is the company's own, else its municipality's (as the register gives it).
    p = kind[0]
    return (
        f"LEFT JOIN service_companies_geopostalcode {p}pc ON {p}pc.uuid = c.{kind}_postal_code_id "
        f"LEFT JOIN service_companies_geomunicipality {p}mu ON {p}mu.uuid = c.{kind}_municipality_id "
        f"LEFT JOIN service_companies_geosubdivision {p}sd ON {p}sd.uuid = {p}mu.subdivision_id "
        f"LEFT JOIN service_companies_geocountry {p}co ON {p}co.uuid = COALESCE(c.{kind}_country_id, {p}sd.country_id) "
    )


def _nace_columns(rank: int) -> list:
    return _cols(f"n{rank}", m.NaceCode, "uuid", "key", "code", "name", "level", prefix=f"n{rank}_")


_COMPANY_DETAIL = _Select(
    [
        *_COMPANY_REF,
        *_cols("ot", m.OrganizationType, "uuid", "key", "code", "name", prefix="ot_"),
        *_nace_columns(1),
        *_nace_columns(2),
        *_nace_columns(3),
        *_address_columns("business"),
        *_address_columns("postal"),
        *_cols(
            "c", m.Company, "website", "employees", "registration_date", "founded_date",
            "last_submitted_accounts_year", "parent_org_nr", "is_bankrupt", "bankrupt_date", "is_under_liquidation",
            "under_liquidation_date", "is_under_forced_dissolution", "forced_dissolution_date", "update_timestamp",
        ),
        *_RISK_STATUS,
    ],
    "FROM service_companies_company c "
    "LEFT JOIN service_companies_organizationtype ot ON ot.uuid = c.organization_type_id "
    "LEFT JOIN service_companies_nacecode n1 ON n1.uuid = c.nace_code_1_id "
    "LEFT JOIN service_companies_nacecode n2 ON n2.uuid = c.nace_code_2_id "
    "LEFT JOIN service_companies_nacecode n3 ON n3.uuid = c.nace_code_3_id "
    + _address_joins("business")
    + _address_joins("postal")
    + "LEFT JOIN service_companies_companyriskstatus rs ON rs.company_id = c.uuid AND rs.to_date IS NULL "
    + _RISK_STATUS_JOIN,
)
_BY_STATUS = " ORDER BY rs.from_date DESC, rs.uuid"


def company_detail_get(*, identifier: str) -> list[dict]:
    """A company with its reference data, geo entities and active risk statuses: one query,
    one row per active status (at least one row). 400 malformed, 404 unknown."""
    where, params = _company_where(identifier)
    rows = _COMPANY_DETAIL.rows(where + _BY_STATUS, params)
    if not rows:
        raise _not_found(identifier)
    return rows


@dataclass(frozen=True)
class CreditRiskView:
    company: dict  # the company reference columns
    credit_risk: dict | None
    risk_statuses: list[dict]  # every status period, newest first
    payment_remarks: list[dict] | None  # None: the caller lacks credit_check
    factors: dict  # the factors the caller may see
    hidden_factors: list[str]  # factors left out for a role the caller lacks


_CREDIT_RISK_COLUMNS = [
    *_COMPANY_REF,
    *_cols("cr", m.CompanyCreditRisk, "company", "risk_score", "risk_class", "model_version", "factors",
           "computed_at", prefix="cr_"),
    *_RISK_STATUS,
]
_CREDIT_RISK_FROM = (
    "FROM service_companies_company c "
    "LEFT JOIN service_companies_companycreditrisk cr ON cr.company_id = c.uuid "
)
_CREDIT_RISK = _Select(
    _CREDIT_RISK_COLUMNS,
    _CREDIT_RISK_FROM
    + "LEFT JOIN service_companies_companyriskstatus rs ON rs.company_id = c.uuid "
    + _RISK_STATUS_JOIN,
)
# With the payment remarks in the same query: the company row twice (part 0 and 1), the
# statuses joined to part 0 and the remarks to part 1, so the two lists never multiply.
_CREDIT_RISK_WITH_REMARKS = _Select(
    [
        *_CREDIT_RISK_COLUMNS,
        *_cols("pr", m.PaymentRemark, "uuid", "collection_case", "remark_type", "registered_date", "amount",
               "currency_code", "creditor_name", "settled_date", prefix="pr_"),
    ],
    _CREDIT_RISK_FROM
    + "CROSS JOIN (SELECT 0 AS n UNION ALL SELECT 1 AS n) part "
    + "LEFT JOIN service_companies_companyriskstatus rs ON part.n = 0 AND rs.company_id = c.uuid "
    + _RISK_STATUS_JOIN
    + "LEFT JOIN service_companies_paymentremark pr ON part.n = 1 AND pr.company_id = c.uuid ",
)
_BY_STATUS_AND_REMARK = (
    " ORDER BY part.n, rs.from_date DESC, rs.uuid, pr.registered_date DESC, pr.uuid"
)


def company_credit_risk_get(*, identifier: str, granted_roles: frozenset[str]) -> CreditRiskView:
    """The company, its score, its status history and (with credit_check) its payment remarks: one query.

    Factors whose input needs a role the caller lacks (the payment remarks' count and amount) are
    left out of `factors` and named in `hidden_factors`; the score stays the one computed with them."""
    can_see_payment_remarks = "credit_check" in granted_roles
    where, params = _company_where(identifier)
    if can_see_payment_remarks:
        rows = _CREDIT_RISK_WITH_REMARKS.rows(where + _BY_STATUS_AND_REMARK, params)
    else:
        rows = _CREDIT_RISK.rows(where + _BY_STATUS, params)
    if not rows:
        raise _not_found(identifier)
    first = rows[0]
    company = {key: first[key] for key in ("uuid", "name", "org_nr", "org_nr_schema")}
    credit_risk = first if first["cr_company"] is not None else None
    statuses = [row for row in rows if row["rs_uuid"] is not None]
    remarks = [row for row in rows if row["pr_uuid"] is not None] if can_see_payment_remarks else None
    factors, hidden = factors_visible_to(credit_risk["cr_factors"] if credit_risk else {}, granted_roles)
    return CreditRiskView(company, credit_risk, statuses, remarks, factors, hidden)


_FLAGS = _Select(
    [
        *_COMPANY_REF,
        *_cols("f", m.CompanyFlag, "uuid", "company_flag_type", "flag_date", "flag_end_date", "flag_context",
               "flag_url", prefix="f_"),
        *_cols("ft", m.CompanyFlagType, "key", "description", "app_hidden_flag", "default_lookback_days", "flag_rank",
               "persist_flag", "default_flag_end_days", "required_role_key", prefix="ft_"),
        *_cols("ro", AppRole, "uuid", prefix="role_"),
    ],
    "FROM service_companies_company c "
    "LEFT JOIN service_companies_companyflag f ON f.company_id = c.uuid "
    "AND (f.flag_end_date IS NULL OR f.flag_end_date > %s) "
    "LEFT JOIN service_companies_companyflagtype ft ON ft.uuid = f.company_flag_type_id "
    "LEFT JOIN service_auth_approle ro ON ro.key = ft.required_role_key AND ft.required_role_key <> '' ",
)
_FLAG_ORDER = " ORDER BY ft.flag_rank, f.flag_date DESC, f.uuid"


def company_flags_active(*, identifier: str, granted_roles: Iterable[str]) -> tuple[dict, list[dict]]:
    """The company reference and its active flags (end date empty or in the future), most
    severe first, with flag type and the uuid of the role a type needs (`role_uuid`); flag
    types that need a role the caller was not granted are left out. One query."""
    where, params = _company_where(identifier)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    rows = _FLAGS.rows(where + _FLAG_ORDER, [now, *params])
    if not rows:
        raise _not_found(identifier)
    granted = frozenset(granted_roles)
    first = rows[0]
    company = {key: first[key] for key in ("uuid", "name", "org_nr", "org_nr_schema")}
    flags = [
        row
        for row in rows
        if row["f_uuid"] is not None and flag_type_visible(row["ft_required_role_key"], granted)
    ]
    return company, flags


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


_ACCOUNTS = _Select(
    [
        *_COMPANY_REF,
        *_cols("a", m.Accounts, "uuid", "accounting_year", "accounting_announcement_date", "accounting_schema",
               "accounting_from_date", "accounting_to_date", "corporate_group_accounts_flag", "accounts_type",
               "estimated_accounting_period_flag", "currency_code", "audited_flag", "replaced_by", prefix="a_"),
        *_cols("t", m.AccountsType, "key", prefix="t_"),
        *_cols("h", m.AccountsHighlights, "uuid", *HIGHLIGHT_FIELDS, prefix="h_"),
        *_cols("i", m.AccountsIncomeStatement, "uuid", "currency_code", *INCOME_FIELDS, prefix="i_"),
        *_cols("b", m.AccountsBalanceSheet, "uuid", "currency_code", *BALANCE_FIELDS, prefix="b_"),
    ],
    "FROM service_companies_company c LEFT JOIN service_companies_accounts a ON a.company_id = c.uuid",
)
_ACCOUNTS_PARTS = (
    " LEFT JOIN service_companies_accountstype t ON t.uuid = a.accounts_type_id"
    " LEFT JOIN service_companies_accountshighlights h ON h.accounts_id = a.uuid"
    " LEFT JOIN service_companies_accountsincomestatement i ON i.accounts_id = a.uuid"
    " LEFT JOIN service_companies_accountsbalancesheet b ON b.accounts_id = a.uuid"
)
_ACCOUNTS_ORDER = " ORDER BY a.accounting_year DESC, t.key, a.accounting_announcement_date DESC, a.uuid"


def company_accounts_list(
    *, identifier: str, accounting_years: list[int] | None, accounts_type: m.AccountsType | None
) -> tuple[dict, list[dict]]:
    """The company reference and its accounts with statements and highlights, newest year
    first (replaced sets included, each pointing at its successor). One query."""
    where, params = _company_where(identifier)
    on, on_params = "", []
    if accounting_years:
        on += f" AND a.accounting_year IN ({', '.join(['%s'] * len(accounting_years))})"
        on_params += accounting_years
    if accounts_type is not None:
        on += " AND a.accounts_type_id = %s"
        on_params.append(_uuid_param(accounts_type.uuid))
    rows = _ACCOUNTS.rows(on + _ACCOUNTS_PARTS + where + _ACCOUNTS_ORDER, [*on_params, *params])
    if not rows:
        raise _not_found(identifier)
    first = rows[0]
    company = {key: first[key] for key in ("uuid", "name", "org_nr", "org_nr_schema")}
    return company, [row for row in rows if row["a_uuid"] is not None]


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
