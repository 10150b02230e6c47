"""Payment remarks are a fact behind credit_check: absent from every answer without the role.

Not only the remarks themselves: the credit risk factors built on them, the payment_remarks
flag and its evidence, and every dataset. The score stays the one computed with them.
"""

from datetime import date

import pytest

from service.companies.analysis import analysis_refresh
from tests.conftest import make_caller
from tests.service.companies.datasets.responses import elements_of
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

REMARK_FACTORS = ["unsettled_payment_remarks_amount", "unsettled_payment_remarks_count"]


@pytest.fixture
def company(db):
    company = company_make(registration_date=date(2012, 5, 1))
    accounts_make(company=company, year=2024)
    payment_remark_make(company=company, amount="48250", registered=date(2025, 1, 10), creditor_name="Kreditor AS")
    analysis_refresh(company_uuids=[company.uuid])
    return company


def _risk(caller, company, roles=None) -> dict:
    response = caller.get(f"/analysis/v1/company/{company.uuid}/company-credit-risk-composite", roles=roles)
    assert response.status_code == 200
    return response.json()[0]["company_credit_risk"]


def test_it_leaves_the_remark_factors_out_without_the_role_and_keeps_the_score(api, company):
    full = _risk(api, company, roles=["credit_check"])
    without = _risk(api, company)

    assert full["factors"]["unsettled_payment_remarks_count"]["points"] > 0
    assert not set(REMARK_FACTORS) & set(without["factors"])
    assert set(full["factors"]) - set(without["factors"]) == set(REMARK_FACTORS)
    assert without["hidden_factors"] == REMARK_FACTORS
    assert "credit_check" not in without["hidden_factor_note"]  # it names factors, not a role to ask for
    assert "unsettled_payment_remarks_count" in without["hidden_factor_note"]
    assert (without["risk_score"], without["risk_class"]) == (full["risk_score"], full["risk_class"])
    assert full["hidden_factors"] == [] and full["hidden_factor_note"] is None


def test_a_role_requested_but_not_assigned_hides_them_too(company):
    caller = make_caller("Uten Kreditt AS", roles=["aml"])

    risk = _risk(caller, company, roles=["credit_check"])

    assert not set(REMARK_FACTORS) & set(risk["factors"])
    assert risk["hidden_factors"] == REMARK_FACTORS


def test_the_payment_remarks_flag_and_its_evidence_need_the_role(api, company):
    url = f"/analysis/v1/company/{company.uuid}/company-flag-composite"

    with_role = api.get(url, roles=["credit_check"])
    without = api.get(url)

    assert "payment_remarks" in with_role.content.decode()
    assert without.status_code == 200
    assert "payment_remarks" not in without.content.decode()
    assert "48250" not in without.content.decode()


def test_no_dataset_shows_a_remark_or_its_evidence_without_the_role(api, company):
    for name in ("company-composite", "company-credit-risk", "company-flag-composite", "company"):
        body = api.get(f"/datasets/v1/dataset/{name}")
        text = b"".join(body.streaming_content).decode()
        assert body.status_code == 200, name
        for leak in ("payment_remark", "unsettled", "48250", "Kreditor"):
            assert leak not in text, (name, leak)
    [element] = elements_of(api.get("/datasets/v1/dataset/company-composite"))
    assert element["company_credit_risk"]["risk_score"] is not None

    assert api.get("/datasets/v1/dataset/payment-remark").status_code == 403
    assert api.get("/datasets/v1/dataset/payment-remark", roles=["credit_check"]).status_code == 200
