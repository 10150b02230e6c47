"""Payment remarks are a fact behind credit_check: absent from every answer without the role.

Not only the remarks themselves: the credit risk factors built on them, the score and class
(computed without those factors for a caller without the role, so a company with remarks
scores as its twin without), the payment_remarks flag and its evidence, and every dataset.
"""

import math
from datetime import date

import pytest

from service.companies import services
from service.companies.analysis import analysis_refresh
from tests.conftest import make_caller
from tests.service.companies.datasets.responses import elements_of
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

REMARK_FACTORS = ["unsettled_payment_remarks_amount", "unsettled_payment_remarks_count"]


def documented_score(factors: dict) -> tuple[float, str]:
    """docs/analysis.md: P is the sum of the points, score 100 / (1 + exp(-P / 10)) to 0.1, classes by 20s."""
    points = sum(factor["points"] for factor in factors.values())
    score = round(100 / (1 + math.exp(-points / 10)), 1)
    return score, ["very_low", "low", "medium", "high", "very_high"][min(int(score // 20), 4)]


def twin_make(*, remarks: bool):
    company = company_make(registration_date=date(2012, 5, 1))
    accounts_make(company=company, year=2024)
    if remarks:
        payment_remark_make(
            company=company, amount="48250", registered=date(2025, 1, 10), creditor_name="Kreditor AS"
        )
    analysis_refresh(company_uuids=[company.uuid])
    return company


@pytest.fixture
def company(db):
    return twin_make(remarks=True)


@pytest.fixture
def twin(db):
    """The same company without payment remarks."""
    return twin_make(remarks=False)


def _risk(caller, company, roles=None) -> dict:
    response = caller.get(f"/analysis/v1/company/{company.uuid}/company-credit-risk-composite", roles=roles)
    assert response.status_code == 200
    return response.json()[0]["company_credit_risk"]


def test_it_leaves_the_remark_factors_out_of_the_factors_and_the_score_without_the_role(api, company):
    full = _risk(api, company, roles=["credit_check"])
    without = _risk(api, company)

    assert full["factors"]["unsettled_payment_remarks_count"]["points"] > 0
    assert not set(REMARK_FACTORS) & set(without["factors"])
    assert set(full["factors"]) - set(without["factors"]) == set(REMARK_FACTORS)
    assert without["hidden_factors"] == REMARK_FACTORS
    assert "credit_check" not in without["hidden_factor_note"]  # it names factors, not a role to ask for
    assert "unsettled_payment_remarks_count" in without["hidden_factor_note"]
    assert "computed without them" in without["hidden_factor_note"]
    # The shown points sum to the P of the score shown: nothing is left over to reveal the remarks.
    assert (without["risk_score"], without["risk_class"]) == documented_score(without["factors"])
    assert (full["risk_score"], full["risk_class"]) == documented_score(full["factors"])
    assert full["risk_score"] > without["risk_score"]
    assert full["hidden_factors"] == [] and full["hidden_factor_note"] is None


def test_without_the_role_a_company_with_remarks_scores_as_one_without(api, company, twin):
    with_remarks, without_remarks = _risk(api, company), _risk(api, twin)

    assert (with_remarks["risk_score"], with_remarks["risk_class"]) == (
        without_remarks["risk_score"],
        without_remarks["risk_class"],
    )
    assert with_remarks["factors"] == without_remarks["factors"]
    assert _risk(api, company, roles=["credit_check"])["risk_score"] != _risk(api, twin, roles=["credit_check"])[
        "risk_score"
    ]


def test_a_bankruptcy_overrides_the_score_for_every_caller(api, company):
    services.company_risk_status_set(company=company, status_key="bankrupt", on_date=date(2025, 6, 1))
    analysis_refresh(company_uuids=[company.uuid])

    for roles in (None, ["credit_check"]):
        risk = _risk(api, company, roles=roles)
        assert (risk["risk_score"], risk["risk_class"]) == (100.0, "very_high")


def test_a_role_requested_but_not_assigned_hides_them_too(company):
    caller = make_caller("Uten Kreditt AS", roles=["aml"])

    risk = _risk(caller, company, roles=["credit_check"])

    assert not set(REMARK_FACTORS) & set(risk["factors"])
    assert risk["hidden_factors"] == REMARK_FACTORS
    assert risk["risk_score"] == documented_score(risk["factors"])[0]


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


@pytest.mark.parametrize(
    ("dataset", "entity"), [("company-credit-risk", None), ("company-composite", "company_credit_risk")]
)
def test_a_dataset_filter_on_the_score_cannot_tell_remarks_apart_without_the_role(api, company, twin, dataset, entity):
    full = _risk(api, company, roles=["credit_check"])
    public = _risk(api, twin)
    both, with_remarks = {str(company.uuid), str(twin.uuid)}, {str(company.uuid)}

    def matched(field: str, value: str, roles=None) -> set[str]:
        name = f"{entity}.{field}" if entity else field
        elements = elements_of(api.get(f"/datasets/v1/dataset/{dataset}", {name: value}, roles=roles))
        risks = [element[entity] if entity else element for element in elements]
        for risk in risks:
            shown = full if roles and risk["company_uuid"] == str(company.uuid) else public
            assert (float(risk["risk_score"]), risk["risk_class"]) == (shown["risk_score"], shown["risk_class"])
        return {risk["company_uuid"] for risk in risks}

    assert full["risk_class"] != public["risk_class"]
    assert matched("risk_score", f"EQ:{public['risk_score']}") == both
    assert matched("risk_score", f"GT:{public['risk_score']}") == set()
    assert matched("risk_score", f"GTE:{full['risk_score']}") == set()
    assert matched("risk_class", public["risk_class"]) == both
    assert matched("risk_class", full["risk_class"]) == set()
    # With the role, the full score, and the filter on it.
    assert matched("risk_score", f"GT:{public['risk_score']}", roles=["credit_check"]) == with_remarks
    assert matched("risk_class", full["risk_class"], roles=["credit_check"]) == with_remarks


def test_the_score_time_without_the_role_moves_only_with_what_that_caller_sees(api, company):
    def times(roles=None) -> tuple[str, str]:
        risk = _risk(api, company, roles=roles)
        [element] = [
            e for e in elements_of(api.get("/datasets/v1/dataset/company-credit-risk", roles=roles))
            if e["company_uuid"] == str(company.uuid)
        ]
        return risk["computed_timestamp"], element["computed_at"]

    public_before, full_before = times(), times(["credit_check"])
    payment_remark_make(company=company, amount="9000", registered=date(2025, 6, 2), creditor_name="Inkasso AS")
    analysis_refresh(company_uuids=[company.uuid])

    assert times() == public_before  # a new remark changes nothing this caller sees, its time included
    assert times(["credit_check"]) != full_before
    accounts_make(company=company, year=2025)  # a public fact
    analysis_refresh(company_uuids=[company.uuid])
    assert times() != public_before
