"""The four hand-written company reads answer the same for a uuid and for a schema-prefixed org nr."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from service.companies import services
from service.companies.analysis import analysis_refresh
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

PATHS = [
    "/analysis/v1/company/{id}",
    "/analysis/v1/company/{id}/company-credit-risk-composite",
    "/analysis/v1/company/{id}/company-flag-composite",
    "/analysis/v1/company/{id}/accounts-composite",
]


@pytest.fixture
def company(db):
    today = timezone.localdate()
    company = company_make(employees=7)
    for year in (today.year - 2, today.year - 1):
        accounts_make(company=company, year=year, balance={"total_equity": Decimal("-1")})
    payment_remark_make(company=company, amount="700", registered=today - timedelta(days=20))
    services.company_risk_status_set(company=company, status_key="under_liquidation", on_date=date(2024, 6, 1))
    analysis_refresh(company_uuids=[company.uuid])
    return company


@pytest.mark.parametrize("path", PATHS)
def test_the_org_nr_gives_the_same_answer_as_the_uuid(api, company, path):
    by_uuid = api.get(path.format(id=company.uuid), roles=["credit_check"])
    by_org_nr = api.get(path.format(id=f"NO{company.org_nr}"), roles=["credit_check"])

    assert by_uuid.status_code == by_org_nr.status_code == 200
    assert by_uuid.json() == by_org_nr.json()
    assert by_uuid.json(), "the fixture should give every endpoint something to show"


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(("identifier", "status"), [("NO923609016", 404), ("NO12345678X", 400), ("nope", 400)])
def test_unknown_is_404_and_malformed_400_naming_the_path(api, db, path, identifier, status):
    response = api.get(path.format(id=identifier))

    assert response.status_code == status
    if status == 400:
        assert response.json()["errors"][0]["loc"] == ["path", "company_identifier"]
    else:
        assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("identifier", ["not-a-uuid", "nope", "NOT-A-NUMBER", "no"])
def test_a_malformed_identifier_is_told_which_forms_are_accepted(api, db, identifier):
    body = api.get(f"/analysis/v1/company/{identifier}").json()

    message = body["errors"][0]["msg"]
    assert body["errors"][0]["loc"] == ["path", "company_identifier"]
    assert "company_identifier" in body["detail"]
    assert repr(identifier) in message  # the whole value, not "t-a-uuid"
    assert "organisation number" in message and "uuid" in message and "NO912345678" in message


def test_a_bare_organisation_number_is_told_to_add_its_schema(api, db):
    body = api.get("/analysis/v1/company/923609016").json()

    assert "NO923609016" in body["errors"][0]["msg"]


@pytest.mark.parametrize(
    ("identifier", "why"),
    [
        ("NO91374817", "'91374817' is not a valid NO organisation number: it has 8 digits, a Norwegian organisation number has 9"),
        ("NO923609017", "'923609017' is not a valid NO organisation number: its check digit does not match"),
        ("SE12345", "'12345' is not a valid SE organisation number: it has 5 digits, a Swedish organisation number has 10"),
    ],
)
def test_a_wrong_organisation_number_is_told_what_to_fix(api, db, identifier, why):
    body = api.get(f"/analysis/v1/company/{identifier}").json()

    assert why in body["errors"][0]["msg"]
