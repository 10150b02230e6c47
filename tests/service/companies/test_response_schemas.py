"""Every company endpoint's real answer has exactly the shape its OpenAPI schema declares.

The endpoints write their JSON directly (api.py), so this is the check that what they
send and what they document never drift apart: each body must validate against the
declared schema and carry exactly the declared keys, no more and no fewer.
"""

from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from service.companies.analysis import schemas as analysis
from service.companies.register.schemas import accounts, collection_cases, company as company_schemas, employment, roles
from service.companies import services
from service.companies.analysis import analysis_refresh
from tests.service.declared import assert_declared
from tests.service.companies.factories import (
    accounts_make,
    collection_case_make,
    company_make,
    person_make,
    role_make,
)


@pytest.fixture
def company(db):
    today = timezone.localdate()
    company = company_make(employees=4)
    owner = company_make(name="Eier AS")
    for year in (today.year - 2, today.year - 1):
        accounts_make(company=company, year=year, balance={"total_equity": Decimal("-1")},
                      notes=[("going_concern", "Doubt.")])
    accounts_make(company=company, year=today.year - 1, type_key="annual_corporate_group_accounts", balance=None)
    case = collection_case_make(company=company)
    services.payment_remark_create(company=company, amount=Decimal(10), registered_date=today - timedelta(days=9),
                                   collection_case=case)
    services.company_risk_status_set(company=company, status_key="under_liquidation", on_date=today - timedelta(days=3))
    services.company_employment_add(company=company, employee_count=4,
                                     from_date=timezone.make_aware(datetime(today.year - 1, 1, 1)))
    role_make(company=company, role_key="ceo", person=person_make(national_id="01017012345", birth_date=date(1970, 1, 1)))
    role_make(company=company, role_key="shareholder", holder_company=owner, share_percentage=Decimal("100"))
    analysis_refresh(company_uuids=[company.uuid])
    return company


@pytest.mark.parametrize(
    ("path", "params", "schema_type", "roles"),
    [
        ("/analysis/v1/company/{id}", {}, company_schemas.CompanyOut, []),
        ("/analysis/v1/company/{id}/company-credit-risk-composite", {}, list[analysis.CompanyCreditRiskComposite], ["credit_check"]),
        ("/analysis/v1/company/{id}/company-flag-composite", {}, list[analysis.CompanyFlagComposite], ["credit_check"]),
        ("/analysis/v1/company/{id}/company-employment", {}, list[employment.CompanyEmploymentOut], []),
        ("/analysis/v1/company/{id}/accounts-auditor-note-composite", {}, list[accounts.AccountsAuditorNoteComposite], []),
        ("/analysis/v1/company/{id}/accounts-composite", {}, list[accounts.AccountsComposite], []),
        ("/analysis/v1/collection-case-composite", {"debtor_company_identifier": "{id}"}, list[collection_cases.CollectionCaseComposite],
         ["credit_check"]),
        ("/analysis/v1/company-role", {"company_identifier": "{id}"}, list[roles.CompanyRoleComposite],
         ["person_national_identification"]),
        ("/analysis/v1/company-measure-yearly-composite", {"company_identifier": "{id}"},
         list[analysis.CompanyMeasureYearlyComposite], []),
        ("/analysis/v1/company-measure-type", {}, list[analysis.CompanyMeasureTypeOut], []),
    ],
)
def test_the_answer_has_the_declared_shape(api, company, path, params, schema_type, roles):
    response = api.get(
        path.replace("{id}", str(company.uuid)),
        {key: value.replace("{id}", str(company.uuid)) for key, value in params.items()},
        roles=roles,
    )

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    body = response.json()
    assert body, "the fixture should give every endpoint something to show"
    assert_declared(schema_type, body)
