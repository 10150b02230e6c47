"""GET /analysis/v1/company-measure-yearly-composite and /analysis/v1/company-measure-type."""

from decimal import Decimal

import pytest

from service.companies import models as m
from service.companies.analysis import analysis_refresh
from service.companies.catalog import MEASURE_TYPES
from tests.service.companies.factories import accounts_make, company_make

URL = "/analysis/v1/company-measure-yearly-composite"
TYPES_URL = "/analysis/v1/company-measure-type"
AUTH_QUERIES = 2


@pytest.fixture
def company(db):
    company = company_make()
    accounts_make(company=company, year=2023, income={"total_operating_income": Decimal("8000000")})
    accounts_make(company=company, year=2024)
    analysis_refresh(company_uuids=[company.uuid])
    return company


def test_it_returns_the_measures_of_a_year_by_type_key(api, company):
    response = api.get(
        URL,
        {"company_identifier": str(company.uuid), "measure_year": 2024,
         "company_measure_type_identifiers": "return_on_assets,total_operating_income"},
    )

    assert response.status_code == 200
    elements = response.json()
    values = {e["company_measure_type"]["company_measure_type_key"]: e for e in elements}
    assert set(values) == {"return_on_assets", "total_operating_income"}
    roa = values["return_on_assets"]
    assert set(roa) == {"uuid", "company_measure_yearly", "company_measure_type"}
    yearly = roa["company_measure_yearly"]
    assert roa["uuid"] == yearly["uuid"]
    assert yearly["measure_year"] == 2024 and yearly["company_uuid"] == str(company.uuid)
    assert yearly["measure_value"] == pytest.approx((920000 + 100000) / 8000000)
    assert yearly["company_measure_type_uuid"] == roa["company_measure_type"]["uuid"]
    assert values["total_operating_income"]["company_measure_yearly"]["measure_value"] == 10000000.0


def test_type_uuids_and_keys_can_be_mixed_and_year_omitted(api, company):
    growth = m.CompanyMeasureType.objects.get(key="revenue_growth")

    response = api.get(URL, {"company_identifier": f"NO{company.org_nr}", "company_measure_type_identifiers": f"{growth.uuid}, equity_ratio"})

    rows = [(e["company_measure_type"]["company_measure_type_key"], e["company_measure_yearly"]["measure_year"],
             e["company_measure_yearly"]["measure_value"]) for e in response.json()]
    assert sorted(rows, key=lambda r: (r[1], r[0])) == [
        ("equity_ratio", 2023, 0.4), ("revenue_growth", 2023, None), ("equity_ratio", 2024, 0.4), ("revenue_growth", 2024, 0.25),
    ]


def test_without_types_it_returns_every_measure(api, company):
    response = api.get(URL, {"company_identifier": str(company.uuid), "measure_year": 2024})

    assert len(response.json()) == len(MEASURE_TYPES)


def test_unknown_types_are_400_naming_the_parameter(api, company):
    response = api.get(URL, {"company_identifier": str(company.uuid), "company_measure_type_identifiers": "return_on_assets,profit"})

    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["loc"] == ["query", "company_measure_type_identifiers"]
    assert "profit" in error["msg"]


def test_bad_year_unknown_malformed_and_missing_company(api, company):
    assert api.get(URL, {"company_identifier": str(company.uuid), "measure_year": "last"}).status_code == 400
    assert api.get(URL, {"company_identifier": "NO923609016"}).status_code == 404
    assert api.get(URL, {"company_identifier": "NO9236"}).status_code == 400
    assert api.get(URL).status_code == 400


def test_it_runs_a_fixed_number_of_queries(api, company, django_assert_max_num_queries):
    with django_assert_max_num_queries(AUTH_QUERIES + 3):
        response = api.get(URL, {"company_identifier": str(company.uuid), "company_measure_type_identifiers": "equity_ratio"})
    assert response.status_code == 200


def test_measure_types_lists_the_catalogue(api, db, django_assert_max_num_queries):
    with django_assert_max_num_queries(AUTH_QUERIES + 1):
        response = api.get(TYPES_URL)

    assert response.status_code == 200
    types = response.json()
    assert [t["company_measure_type_key"] for t in types] == sorted(MEASURE_TYPES)
    roa = next(t for t in types if t["company_measure_type_key"] == "return_on_assets")
    assert set(roa) == {"uuid", "company_measure_type_key", "company_measure_type_description", "unit", "app_url"}
    assert roa["company_measure_type_description"].startswith("Return on assets")
