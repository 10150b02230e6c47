"""GET /analysis/v1/collection-case-composite?debtor_company_identifier=... (needs credit_check)."""

from datetime import date

import pytest

from tests.conftest import make_caller
from tests.service.companies.factories import collection_case_make, company_make, payment_remark_make

URL = "/analysis/v1/collection-case-composite"
AUTH_QUERIES = 2
SPEC_WORDING = (
    "Missing role(s): credit_check. Do you have access to the role, "
    "and have you added it to the Nk-Role-Keys header?"
)


@pytest.fixture
def company(db):
    company = company_make()
    case = collection_case_make(company=company, amount="40000", opened=date(2025, 1, 5), case_reference="K-1")
    payment_remark_make(company=company, amount="40000", registered=date(2025, 3, 1), collection_case=case)
    collection_case_make(company=company, amount="700", opened=date(2023, 4, 1), status="settled", closed_date=date(2023, 5, 1))
    return company


def test_it_returns_the_cases_with_their_payment_remarks(api, company):
    response = api.get(URL, {"debtor_company_identifier": f"NO{company.org_nr}"}, roles=["credit_check"])

    assert response.status_code == 200
    elements = response.json()
    assert [e["collection_case"]["opened_date"] for e in elements] == ["2025-01-05", "2023-04-01"]
    first = elements[0]
    assert set(first) == {"collection_case", "company_payment_remarks", "debtor_company"}
    case = first["collection_case"]
    assert case["debtor_company_uuid"] == str(company.uuid)
    assert case["amount"] == 40000.0 and case["case_reference"] == "K-1"
    assert case["collection_case_status_key"] == "open" and case["creditor_name"] == "Inkasso Norge AS"
    assert [(r["amount"], r["collection_case_uuid"]) for r in first["company_payment_remarks"]] == [(40000.0, case["uuid"])]
    assert elements[1]["company_payment_remarks"] == []
    assert elements[1]["collection_case"]["collection_case_status_key"] == "settled"
    assert first["debtor_company"]["uuid"] == str(company.uuid)


def test_without_the_role_header_it_is_403_with_the_spec_message(api, company):
    response = api.get(URL, {"debtor_company_identifier": str(company.uuid)})

    assert response.status_code == 403
    body = response.json()
    assert body["detail"] == SPEC_WORDING
    assert body["code"] == "role_missing"
    assert b"Inkasso" not in response.content


def test_a_requested_but_unassigned_role_is_403(company):
    caller = make_caller("Aml Only AS", roles=["aml"])

    response = caller.get(URL, {"debtor_company_identifier": str(company.uuid)}, roles=["credit_check"])

    assert response.status_code == 403
    assert response.json()["detail"] == SPEC_WORDING


def test_the_role_is_checked_before_the_identifier(api, db):
    assert api.get(URL, {"debtor_company_identifier": "NO923609016"}).status_code == 403


def test_unknown_malformed_and_missing_identifiers(api, db):
    assert api.get(URL, {"debtor_company_identifier": "NO923609016"}, roles=["credit_check"]).status_code == 404
    malformed = api.get(URL, {"debtor_company_identifier": "NO1"}, roles=["credit_check"])
    assert malformed.status_code == 400
    assert malformed.json()["errors"][0]["loc"] == ["query", "debtor_company_identifier"]
    missing = api.get(URL, roles=["credit_check"])
    assert missing.status_code == 400
    assert "debtor_company_identifier" in missing.json()["detail"]


def test_it_runs_a_fixed_number_of_queries(api, company, django_assert_max_num_queries):
    with django_assert_max_num_queries(AUTH_QUERIES + 3):
        response = api.get(URL, {"debtor_company_identifier": str(company.uuid)}, roles=["credit_check"])
    assert response.status_code == 200
