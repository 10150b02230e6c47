"""Company data endpoints of the analysis API (spec §4.2, and §4.3's company measures).

Thin functions: parse the parameters, call a selector, shape the output. A company
identifier is a uuid or a schema-prefixed org nr: malformed is 400, unknown is 404.

The shaping functions in schemas.py build JSON-ready dicts in exactly the declared
response schemas (which document the endpoints in the OpenAPI), so the answers are
written with `_json` instead of being validated again by pydantic: that second pass
cost ~3 ms per request. tests/service/companies/test_response_schemas.py holds every
endpoint's real answer against its declared schema.

`_json` writes with orjson: an accounts answer (13 kB, mostly numbers) took the
standard library ~0.5 ms, orjson ~0.02 ms. Dates and times are written as ninja
would (DjangoJSONEncoder: `2025-03-01T12:00:00.123Z`); the only differences to
the standard library are in spelling, not value (no spaces after separators,
UTF-8 text instead of ASCII escapes, `1e16` instead of `1e+16`).
"""

from __future__ import annotations

import orjson
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import Query, Router, Schema
from ninja import Field as NinjaField

from service.auth.principal import principal_of, require_roles
from service.companies import schemas as s
from service.companies import selectors

router = Router(tags=["Companies"])

_DJANGO_JSON = DjangoJSONEncoder()


def _json(data) -> HttpResponse:
    """The body with the values ninja would render (DjangoJSONEncoder's dates and times, uuids as strings)."""
    body = orjson.dumps(data, default=_DJANGO_JSON.default, option=orjson.OPT_PASSTHROUGH_DATETIME)
    return HttpResponse(body, content_type="application/json; charset=utf-8")


IDENTIFIER_DOC = "A company uuid, or the organisation number prefixed by its country schema (e.g. NO913748174)."


@router.get(
    "/company/{company_identifier}",
    response=s.CompanyOut,
    summary="Basic company info",
    description=f"Register data of one company. {IDENTIFIER_DOC}",
)
def company_detail(request: HttpRequest, company_identifier: str):
    return _json(s.company_out(selectors.company_detail_get(identifier=company_identifier)))


@router.get(
    "/company/{company_identifier}/company-credit-risk-composite",
    response=list[s.CompanyCreditRiskComposite],
    summary="Credit risk score, class, risk statuses and payment remarks",
    description=(
        "The computed credit risk (see the factors for why), the register's risk statuses and, only when the "
        "caller holds the `credit_check` role (header `Nk-Role-Keys`), the payment remarks. Without the role "
        "`company_payment_remarks` is empty and the factors built on payment remarks are left out "
        "(named in `hidden_factors`, explained by `hidden_factor_note`); the score is the same. It is not an error."
    ),
)
def company_credit_risk(request: HttpRequest, company_identifier: str):
    view = selectors.company_credit_risk_get(
        identifier=company_identifier, granted_roles=principal_of(request).granted_roles
    )
    return _json([s.credit_risk_composite_out(view)])


@router.get(
    "/company/{company_identifier}/company-flag-composite",
    response=list[s.CompanyFlagComposite],
    summary="Active company flags",
    description=(
        "Flags whose end date is empty or in the future, most severe first. Flag types that need a role "
        "(payment_remarks: `credit_check`) are listed only when the role is granted."
    ),
)
def company_flags(request: HttpRequest, company_identifier: str):
    company, flags = selectors.company_flags_active(
        identifier=company_identifier, granted_roles=principal_of(request).granted_roles
    )
    return _json([s.flag_composite_out(flag, company) for flag in flags])


@router.get(
    "/company/{company_identifier}/company-employment",
    response=list[s.CompanyEmploymentOut],
    summary="Employment over time",
    description="Periods with their head count, ordered by from_date.",
)
def company_employment(request: HttpRequest, company_identifier: str):
    _, rows = selectors.company_employment_list(identifier=company_identifier)
    return _json([s.employment_out(row) for row in rows])


@router.get(
    "/company/{company_identifier}/accounts-auditor-note-composite",
    response=list[s.AccountsAuditorNoteComposite],
    summary="Auditor notes of the company's accounts",
    description="Newest accounting year first.",
)
def company_auditor_notes(request: HttpRequest, company_identifier: str):
    _, notes = selectors.company_auditor_notes_list(identifier=company_identifier)
    return _json([s.auditor_note_composite_out(note) for note in notes])


class AccountsQuery(Schema):
    accounting_years: str | None = NinjaField(
        None, description="Comma-separated years, e.g. 2023,2024 (default: every year)"
    )
    accounts_type_identifier: str | None = NinjaField(
        None, description="Accounts type key (annual_company_accounts, annual_corporate_group_accounts) or uuid"
    )


@router.get(
    "/company/{company_identifier}/accounts-composite",
    response=list[s.AccountsComposite],
    summary="Annual accounts with income statement, balance sheet and highlights",
    description=(
        "Newest year first. Replaced accounts are included and carry `replaced_by_accounts_uuid`; "
        "the current set of a year has it null."
    ),
)
def company_accounts(request: HttpRequest, company_identifier: str, query: Query[AccountsQuery]):
    years = selectors.accounting_years_parse(query.accounting_years)
    accounts_type = selectors.accounts_type_resolve(identifier=query.accounts_type_identifier)
    company, accounts = selectors.company_accounts_list(
        identifier=company_identifier, accounting_years=years, accounts_type=accounts_type
    )
    return _json([s.accounts_composite_out(row, company) for row in accounts])


@router.get(
    "/collection-case-composite",
    response=list[s.CollectionCaseComposite],
    summary="Collection cases of a debtor company (needs credit_check)",
    description=f"Needs the `credit_check` role; 403 otherwise. `debtor_company_identifier`: {IDENTIFIER_DOC}",
)
def collection_cases(request: HttpRequest, debtor_company_identifier: str):
    require_roles(request, "credit_check")
    company, cases = selectors.collection_cases_list(debtor_identifier=debtor_company_identifier)
    return _json([s.collection_case_composite_out(case, company) for case in cases])


@router.get(
    "/company-role",
    response=list[s.CompanyRoleComposite],
    summary="Roles in a company: board, management, signatories, shareholders, auditor",
    description=(
        f"`company_identifier`: {IDENTIFIER_DOC} National identification numbers of persons are shown only "
        "with the `person_national_identification` role; without it they are null."
    ),
)
def company_roles(request: HttpRequest, company_identifier: str):
    with_national_id = principal_of(request).has_role("person_national_identification")
    company, roles = selectors.company_roles_list(identifier=company_identifier)
    today = timezone.localdate()
    return _json([s.company_role_composite_out(role, company, with_national_id=with_national_id, today=today) for role in roles])


class MeasureQuery(Schema):
    company_identifier: str = NinjaField(..., description=IDENTIFIER_DOC)
    measure_year: int | None = NinjaField(None, description="Only this year (default: every year)")
    company_measure_type_identifiers: str | None = NinjaField(
        None, description="Comma-separated measure type uuids or keys (default: every type)"
    )


@router.get(
    "/company-measure-yearly-composite",
    response=list[s.CompanyMeasureYearlyComposite],
    summary="Yearly measures of a company",
    description="Newest year first. Measures are computed from the company's current annual company accounts.",
    tags=["Sector benchmarking"],
)
def company_measures(request: HttpRequest, query: Query[MeasureQuery]):
    types = selectors.measure_types_resolve(identifiers=query.company_measure_type_identifiers)
    _, measures = selectors.company_measures_list(
        identifier=query.company_identifier, measure_year=query.measure_year, measure_types=types
    )
    return _json([s.measure_composite_out(measure) for measure in measures])


@router.get(
    "/company-measure-type",
    response=list[s.CompanyMeasureTypeOut],
    summary="All company measure types",
    tags=["Sector benchmarking"],
)
def company_measure_types(request: HttpRequest):
    return _json([s.measure_type_out(t) for t in selectors.measure_types_list()])
