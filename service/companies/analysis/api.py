"""Endpoints of what the analysis computed (spec §4.2 credit risk and flags, §4.3 company
measures). Thin, as register/api.py: parse, call a selector, shape, write with `json_response`.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from service.auth.principal import principal_of
from service.companies.analysis import selectors
from service.companies.analysis.schemas import (
    CompanyCreditRiskComposite,
    CompanyFlagComposite,
    CompanyMeasureTypeOut,
    CompanyMeasureYearlyComposite,
    credit_risk_composite_out,
    flag_composite_out,
    measure_composite_out,
    measure_type_out,
)
from service.companies.identifiers import IDENTIFIER_DOC
from service.json_response import json_response

router = Router(tags=["Companies"])


@router.get(
    "/company/{company_identifier}/company-credit-risk-composite",
    response=list[CompanyCreditRiskComposite],
    summary="Credit risk score, class, risk statuses and payment remarks",
    description=(
        "The computed credit risk (see the factors for why), the register's risk statuses and, only when the "
        "caller holds the `credit_check` role (header `Nk-Role-Keys`), the payment remarks. Without the role "
        "`company_payment_remarks` is empty and the factors built on payment remarks are left out "
        "(named in `hidden_factors`, explained by `hidden_factor_note`), and the score and class are computed "
        "without them, so they tell nothing of payment remarks. It is not an error."
    ),
)
def company_credit_risk(request: HttpRequest, company_identifier: str):
    view = selectors.company_credit_risk_get(
        identifier=company_identifier, granted_roles=principal_of(request).granted_roles
    )
    return json_response([credit_risk_composite_out(view)])


@router.get(
    "/company/{company_identifier}/company-flag-composite",
    response=list[CompanyFlagComposite],
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
    return json_response([flag_composite_out(flag, company) for flag in flags])


class MeasureQuery(Schema):
    company_identifier: str = Field(..., description=IDENTIFIER_DOC)
    measure_year: int | None = Field(None, description="Only this year (default: every year)")
    company_measure_type_identifiers: str | None = Field(
        None, description="Comma-separated measure type uuids or keys (default: every type)"
    )


@router.get(
    "/company-measure-yearly-composite",
    response=list[CompanyMeasureYearlyComposite],
    summary="Yearly measures of a company",
    description="Newest year first. Measures are computed from the company's current annual company accounts.",
    tags=["Sector benchmarking"],
)
def company_measures(request: HttpRequest, query: Query[MeasureQuery]):
    types = selectors.measure_types_resolve(identifiers=query.company_measure_type_identifiers)
    _, measures = selectors.company_measures_list(
        identifier=query.company_identifier, measure_year=query.measure_year, measure_types=types
    )
    return json_response([measure_composite_out(measure) for measure in measures])


@router.get(
    "/company-measure-type",
    response=list[CompanyMeasureTypeOut],
    summary="All company measure types",
    tags=["Sector benchmarking"],
)
def company_measure_types(request: HttpRequest):
    return json_response([measure_type_out(t) for t in selectors.measure_types_list()])
