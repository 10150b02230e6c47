"""Register endpoints of the analysis API (spec §4.2): basic info, employment, auditor notes,
accounts, collection cases and roles. What the analysis computed (credit risk, flags,
measures) is served by `service.companies.analysis.api`.

Thin functions: parse the parameters, call a selector, shape the output. A company
identifier is a uuid or a schema-prefixed org nr: malformed is 400, unknown is 404.
The shaping functions build exactly the declared response schemas, so the answers are
written with `json_response` instead of being validated again by pydantic.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import timezone
from ninja import Field, Query, Router, Schema

from service.auth.principal import principal_of, require_roles
from service.companies.identifiers import IDENTIFIER_DOC
from service.companies.register import selectors
from service.companies.register.schemas.accounts import (
    AccountsAuditorNoteComposite,
    AccountsComposite,
    accounts_composite_out,
    auditor_note_composite_out,
)
from service.companies.register.schemas.collection_cases import CollectionCaseComposite, collection_case_composite_out
from service.companies.register.schemas.company import CompanyOut, company_out
from service.companies.register.schemas.employment import CompanyEmploymentOut, employment_out
from service.companies.register.schemas.roles import CompanyRoleComposite, company_role_composite_out
from service.json_response import json_response

router = Router(tags=["Companies"])


@router.get(
    "/company/{company_identifier}",
    response=CompanyOut,
    summary="Basic company info",
    description=f"Register data of one company. {IDENTIFIER_DOC}",
)
def company_detail(request: HttpRequest, company_identifier: str):
    return json_response(company_out(selectors.company_detail_get(identifier=company_identifier)))


@router.get(
    "/company/{company_identifier}/company-employment",
    response=list[CompanyEmploymentOut],
    summary="Employment over time",
    description="Periods with their head count, ordered by from_date.",
)
def company_employment(request: HttpRequest, company_identifier: str):
    _, rows = selectors.company_employment_list(identifier=company_identifier)
    return json_response([employment_out(row) for row in rows])


@router.get(
    "/company/{company_identifier}/accounts-auditor-note-composite",
    response=list[AccountsAuditorNoteComposite],
    summary="Auditor notes of the company's accounts",
    description="Newest accounting year first.",
)
def company_auditor_notes(request: HttpRequest, company_identifier: str):
    _, notes = selectors.company_auditor_notes_list(identifier=company_identifier)
    return json_response([auditor_note_composite_out(note) for note in notes])


class AccountsQuery(Schema):
    accounting_years: str | None = Field(None, description="Comma-separated years, e.g. 2023,2024 (default: every year)")
    accounts_type_identifier: str | None = Field(
        None, description="Accounts type key (annual_company_accounts, annual_corporate_group_accounts) or uuid"
    )


@router.get(
    "/company/{company_identifier}/accounts-composite",
    response=list[AccountsComposite],
    summary="Annual accounts with income statement, balance sheet and highlights",
    description=(
        "Newest year first. Replaced accounts are included and carry `replaced_by_accounts_uuid`; "
        "the current set of a year has it null."
    ),
)
def company_accounts(request: HttpRequest, company_identifier: str, query: Query[AccountsQuery]):
    years = selectors.accounting_years_parse(query.accounting_years)
    accounts_type = selectors.accounts_type_resolve(identifier=query.accounts_type_identifier)
    company, sets = selectors.company_accounts_list(
        identifier=company_identifier, accounting_years=years, accounts_type=accounts_type
    )
    return json_response([accounts_composite_out(accounts_set, company) for accounts_set in sets])


@router.get(
    "/collection-case-composite",
    response=list[CollectionCaseComposite],
    summary="Collection cases of a debtor company (needs credit_check)",
    description=f"Needs the `credit_check` role; 403 otherwise. `debtor_company_identifier`: {IDENTIFIER_DOC}",
)
def collection_cases(request: HttpRequest, debtor_company_identifier: str):
    require_roles(request, "credit_check")
    company, cases = selectors.collection_cases_list(debtor_identifier=debtor_company_identifier)
    return json_response([collection_case_composite_out(case, company) for case in cases])


@router.get(
    "/company-role",
    response=list[CompanyRoleComposite],
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
    return json_response(
        [company_role_composite_out(role, company, with_national_id=with_national_id, today=today) for role in roles]
    )
