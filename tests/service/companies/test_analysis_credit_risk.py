"""The credit risk points model: scores recomputed here from the documented weights."""

import importlib
import math
from datetime import date
from decimal import Decimal

import pytest
from django.apps import apps

from service.companies import models as m
from service.companies import services
from service.companies.analysis import MODEL_VERSION, analysis_refresh
from service.companies.analysis.credit_risk import risk_class_of
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

pytestmark = pytest.mark.django_db
TODAY = date(2025, 9, 1)


def expected_score(points: int) -> Decimal:
    return Decimal(str(round(100 / (1 + math.exp(-points / 10)), 1)))


def risk_of(company) -> m.CompanyCreditRisk:
    analysis_refresh(company_uuids=[company.uuid], today=TODAY)
    return m.CompanyCreditRisk.objects.get(company=company)


def test_a_healthy_company_scores_very_low_and_every_factor_is_explained():
    company = company_make(registration_date=date(2010, 3, 1))
    accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024)

    risk = risk_of(company)

    # intercept -30; equity ratio 0.40 -> -5; ROA 0.1275 -> -4; current ratio 2.0 -> -3;
    # operating margin 0.10 -> 0; total assets 8 M -> +2; employees unknown -> +1; age 15.5 y -> 0
    points = -30 - 5 - 4 - 3 + 0 + 2 + 1 + 0
    assert risk.risk_score == expected_score(points) == Decimal("2.0")
    assert risk.risk_class == "very_low"
    assert risk.model_version == MODEL_VERSION
    assert risk.factors["equity_ratio"] == {"value": 0.4, "points": -5, "band": ">= 0.4"}
    assert risk.factors["employees"] == {"value": None, "points": 1, "band": "missing"}
    assert risk.factors["company_age_years"]["value"] == 15.5
    assert sum(f["points"] for f in risk.factors.values()) == points


def test_a_weak_company_with_remarks_and_a_going_concern_note_scores_very_high():
    company = company_make(registration_date=date(2024, 1, 1), employees=3)
    accounts_make(
        company=company,
        year=2024,
        income={"result_before_tax": Decimal("-500000"), "operating_result": Decimal("-300000")},
        balance={"total_equity": Decimal("-800000")},
        notes=[("going_concern", "Material uncertainty.")],
    )
    payment_remark_make(company=company, amount="30000", registered=date(2025, 2, 1))
    payment_remark_make(company=company, amount="40000", registered=date(2025, 3, 1))

    risk = risk_of(company)

    # equity ratio -0.1 -> +12; negative equity +10; ROA -0.05 -> +6; current ratio 2 -> -3;
    # operating margin -0.03 -> +3; assets 8 M -> +2; 3 employees -> +1; age 1.7 y -> +8;
    # 2 unsettled remarks -> +18; 70 000 NOK -> +6; going concern -> +12
    points = -30 + 12 + 10 + 6 - 3 + 3 + 2 + 1 + 8 + 18 + 6 + 12
    assert risk.risk_score == expected_score(points)
    assert risk.risk_class == "very_high"
    assert risk.factors["unsettled_payment_remarks_amount"]["value"] == 70000
    assert risk.factors["auditor_note"] == {"value": "going_concern", "points": 12, "band": None}
    # the public score leaves the two remark factors out: P - 18 - 6
    assert risk.public_risk_score == expected_score(points - 18 - 6) == Decimal("89.1")
    assert risk.public_risk_class == "very_high"


def test_a_company_without_accounts_gets_the_missing_points_and_the_missing_accounts_penalty():
    company = company_make(registration_date=date(2020, 1, 1))

    risk = risk_of(company)

    # every financial input missing: 5 + 3 + 2 + 1 + 3 (assets) + 1 (employees); age 5.7 y -> +1; missing accounts +15
    points = -30 + 5 + 3 + 2 + 1 + 3 + 1 + 1 + 15
    assert risk.risk_score == expected_score(points)
    assert risk.factors["missing_accounts"] == {"value": 2024, "points": 15, "band": None}


def test_bankruptcy_overrides_the_score():
    company = company_make(registration_date=date(2010, 3, 1))
    accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024)
    services.company_risk_status_set(company=company, status_key="bankrupt", on_date=date(2025, 6, 1))

    risk = risk_of(company)

    assert risk.risk_score == Decimal("100.0")
    assert risk.risk_class == "very_high"
    assert risk.factors["risk_status"]["value"] == ["bankrupt"]
    assert (risk.public_risk_score, risk.public_risk_class) == (Decimal("100.0"), "very_high")  # a public fact


def test_under_liquidation_adds_points():
    company = company_make(registration_date=date(2010, 3, 1))
    accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024)
    services.company_risk_status_set(company=company, status_key="under_liquidation", on_date=date(2025, 6, 1))

    risk = risk_of(company)

    assert risk.risk_score == expected_score(-39 + 20)
    assert risk.factors["risk_status"]["points"] == 20


@pytest.mark.parametrize(
    ("score", "risk_class"),
    [(0, "very_low"), (19.9, "very_low"), (20, "low"), (39.9, "low"), (40, "medium"), (59.9, "medium"),
     (60, "high"), (79.9, "high"), (80, "very_high"), (100, "very_high")],
)
def test_classes_have_the_documented_bounds(score, risk_class):
    assert risk_class_of(score) == risk_class


def test_the_score_follows_new_data():
    company = company_make(registration_date=date(2010, 3, 1))
    accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024)
    before = risk_of(company).risk_score

    payment_remark_make(company=company, amount="600000", registered=date(2025, 5, 1))

    after = risk_of(company)
    assert after.risk_score == expected_score(-39 + 12 + 10)
    assert after.risk_score > before


def test_a_company_without_remarks_has_the_same_public_and_full_score():
    company = company_make(registration_date=date(2010, 3, 1))
    accounts_make(company=company, year=2024)

    risk = risk_of(company)

    assert (risk.public_risk_score, risk.public_risk_class) == (risk.risk_score, risk.risk_class)


def test_the_migration_fills_the_public_score_from_the_stored_factors():
    with_remarks = company_make(registration_date=date(2010, 3, 1))
    accounts_make(company=with_remarks, year=2023)
    accounts_make(company=with_remarks, year=2024)
    payment_remark_make(company=with_remarks, amount="600000", registered=date(2025, 5, 1))
    bankrupt = company_make(registration_date=date(2010, 3, 1))
    payment_remark_make(company=bankrupt, amount="100", registered=date(2025, 5, 1))
    services.company_risk_status_set(company=bankrupt, status_key="bankrupt", on_date=date(2025, 6, 1))
    analysis_refresh(company_uuids=[with_remarks.uuid, bankrupt.uuid], today=TODAY)
    refreshed = dict(m.CompanyCreditRisk.objects.values_list("pk", "public_risk_score"))
    m.CompanyCreditRisk.objects.update(public_risk_score=Decimal("0.0"), public_risk_class="unset")

    migration = importlib.import_module("service.companies.migrations.0004_credit_risk_public_score")
    migration.public_scores_fill(apps, None)

    filled = {r.pk: r for r in m.CompanyCreditRisk.objects.all()}
    assert {pk: r.public_risk_score for pk, r in filled.items()} == refreshed
    assert filled[with_remarks.pk].risk_score == expected_score(-39 + 12 + 10)
    assert filled[with_remarks.pk].public_risk_score == expected_score(-39)  # as the healthy company above
    assert filled[bankrupt.pk].public_risk_class == "very_high"
