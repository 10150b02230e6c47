"""GET /analysis/v1/company/{id}/company-credit-risk-composite."""

from datetime import date

import pytest

from service.companies import services
from service.companies.analysis import analysis_refresh
from tests.conftest import make_caller
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

AUTH_QUERIES = 2


def url(identifier) -> str:
    return f"/analysis/v1/company/{identifier}/company-credit-risk-composite"


@pytest.fixture
def company(db):
    company = company_make(registration_date=date(2010, 3, 1))
    accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024)
    payment_remark_make(company=company, amount="12500", registered=date(2025, 1, 10), creditor_name="Kreditor AS")
    payment_remark_make(company=company, amount="900", registered=date(2024, 1, 10), settled_date=date(2024, 3, 1))
    services.company_risk_status_set(company=company, status_key="under_liquidation", on_date=date(2024, 6, 1))
    services.company_risk_status_set(company=company, status_key="under_liquidation", active=False, on_date=date(2024, 9, 1))
    services.company_risk_status_set(company=company, status_key="bankrupt", on_date=date(2025, 2, 1))
    analysis_refresh(company_uuids=[company.uuid])
    return company


def test_it_returns_the_score_class_factors_and_statuses(api, company):
    response = api.get(url(company.uuid), roles=["credit_check"])

    assert response.status_code == 200
    [element] = response.json()
    assert set(element) == {"company_credit_risk", "company_payment_remarks", "company"}
    risk = element["company_credit_risk"]
    assert risk["company_uuid"] == str(company.uuid)
    assert risk["risk_score"] == 100.0 and risk["risk_class"] == "very_high"  # bankrupt overrides
    assert risk["has_company_risk_status"] is True
    assert [s["company_risk_status_type_key"] for s in risk["company_risk_statuses"]] == ["bankrupt"]
    assert [(s["company_risk_status_type_key"], s["from_date"], s["to_date"]) for s in risk["company_risk_status_history"]] == [
        ("bankrupt", "2025-02-01", None),
        ("under_liquidation", "2024-06-01", "2024-09-01"),
    ]
    assert risk["factors"]["unsettled_payment_remarks_count"]["value"] == 1
    assert risk["hidden_factors"] == [] and risk["hidden_factor_note"] is None
    assert risk["model_version"]
    assert element["company"]["uuid"] == str(company.uuid)


def test_payment_remarks_are_shown_with_the_credit_check_role(api, company):
    [element] = api.get(url(company.uuid), roles=["credit_check"]).json()

    remarks = element["company_payment_remarks"]
    assert [(r["amount"], r["registered_date"], r["settled_flag"]) for r in remarks] == [
        (12500.0, "2025-01-10", False),
        (900.0, "2024-01-10", True),
    ]
    assert remarks[0]["creditor_name"] == "Kreditor AS"


def test_statuses_and_remarks_are_each_listed_once_whatever_their_numbers(api, company):
    payment_remark_make(company=company, amount="300", registered=date(2023, 5, 2))
    [element] = api.get(url(company.uuid), roles=["credit_check"]).json()

    history = element["company_credit_risk"]["company_risk_status_history"]
    assert len(history) == len({s["uuid"] for s in history}) == 2
    remarks = element["company_payment_remarks"]
    assert [r["registered_date"] for r in remarks] == ["2025-01-10", "2024-01-10", "2023-05-02"]
    assert all(r["company_uuid"] == str(company.uuid) for r in remarks)


def test_payment_remarks_are_empty_without_the_role_header(api, company):
    response = api.get(url(company.uuid))

    assert response.status_code == 200
    assert response.json()[0]["company_payment_remarks"] == []


def test_payment_remarks_are_empty_when_the_role_is_requested_but_not_assigned(company):
    caller = make_caller("No Credit AS", roles=["aml"])

    response = caller.get(url(company.uuid), roles=["credit_check"])

    assert response.status_code == 200
    assert response.json()[0]["company_payment_remarks"] == []
    assert b"Kreditor" not in response.content


def test_a_company_not_yet_analysed_has_a_null_score(api, db):
    company = company_make()

    risk = api.get(url(company.uuid)).json()[0]["company_credit_risk"]

    assert risk["risk_score"] is None and risk["risk_class"] is None and risk["factors"] == {}


def test_unknown_and_malformed_identifiers(api, db):
    assert api.get(url("NO923609016")).status_code == 404
    assert api.get(url("NO12")).status_code == 400


def test_it_runs_a_fixed_number_of_queries(api, company, django_assert_max_num_queries):
    with django_assert_max_num_queries(AUTH_QUERIES + 1):  # score, statuses and remarks in one query
        assert api.get(url(company.uuid), roles=["credit_check"]).status_code == 200
    with django_assert_max_num_queries(AUTH_QUERIES + 1):
        assert api.get(url(company.uuid)).status_code == 200
