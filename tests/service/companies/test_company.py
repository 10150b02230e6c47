"""GET /analysis/v1/company/{company_identifier}: basic company info."""

from datetime import date

import pytest

from service.companies import services
from tests.service.companies.factories import company_make, geo_make, nace_code_make

AUTH_QUERIES = 2  # api user + its roles


def url(identifier) -> str:
    return f"/analysis/v1/company/{identifier}"


@pytest.fixture
def company(db):
    postal = geo_make(postal_code="5003", municipality_code="4601", subdivision_code="46")
    company = company_make(
        name="Fjordkraft Demo AS",
        nace_codes=("62.010", "62.020"),
        employees=42,
        founded_date=date(2009, 12, 1),
        registration_date=date(2010, 1, 5),
        website="www.example.no",
        postal_address="Postboks 1",
        postal_postal_code=postal,
        postal_municipality=postal.municipality,
        postal_country=postal.country,
    )
    return company


def test_it_returns_the_reference_fields_and_register_data(api, company):
    response = api.get(url(company.uuid))

    assert response.status_code == 200
    body = response.json()
    assert body["uuid"] == str(company.uuid)
    assert body["name"] == "Fjordkraft Demo AS"
    assert body["org_nr"] == company.org_nr and body["org_nr_schema"] == "NO"
    assert body["app_url"].endswith(f"/companies/{company.uuid}/")
    assert body["organization_type"]["organization_type_key"] == "NO-AS"
    assert [(n["nace_code_key"], n["code"], n["level"], n["rank"]) for n in body["nace_codes"]] == [
        ("NO-62.010", "62.010", 5, 1),
        ("NO-62.020", "62.020", 5, 2),
    ]
    assert body["employees"] == 42
    assert body["founded_date"] == "2009-12-01" and body["registration_date"] == "2010-01-05"
    assert body["is_bankrupt"] is False and body["has_company_risk_status"] is False


def test_it_returns_addresses_with_their_geo_entities(api, company):
    addresses = {a["address_type_key"]: a for a in api.get(url(company.uuid)).json()["addresses"]}

    business = addresses["business"]
    assert business["address"] == "Storgata 1"
    assert business["geo_postal_code"]["geo_postal_code_key"] == "NO-0150"
    assert business["geo_municipality"]["geo_municipality_key"] == "NO-0301"
    assert business["geo_subdivision"]["geo_subdivision_key"] == "NO-03"
    assert business["geo_country"]["geo_country_key"] == "NO"
    assert addresses["postal"]["geo_municipality"]["code"] == "4601"
    assert addresses["postal"]["geo_subdivision"]["code"] == "46"


def test_it_finds_the_company_by_schema_prefixed_org_nr(api, company):
    response = api.get(url(f"NO{company.org_nr}"))

    assert response.status_code == 200
    assert response.json()["uuid"] == str(company.uuid)


def test_it_shows_active_risk_statuses(api, company):
    services.company_risk_status_set(company=company, status_key="bankrupt", on_date=date(2025, 3, 1))

    body = api.get(url(company.uuid)).json()

    assert body["is_bankrupt"] is True and body["bankrupt_date"] == "2025-03-01"
    assert body["has_company_risk_status"] is True
    assert [s["company_risk_status_type_key"] for s in body["company_risk_statuses"]] == ["bankrupt"]


def test_only_active_risk_statuses_are_listed_newest_first(api, company):
    services.company_risk_status_set(company=company, status_key="under_liquidation", on_date=date(2024, 5, 1))
    services.company_risk_status_set(company=company, status_key="forced_dissolution", on_date=date(2024, 9, 1))
    services.company_risk_status_set(company=company, status_key="forced_dissolution", active=False,
                                     on_date=date(2024, 10, 1))
    services.company_risk_status_set(company=company, status_key="bankrupt", on_date=date(2025, 3, 1))

    body = api.get(url(company.uuid)).json()

    statuses = body["company_risk_statuses"]
    assert [(s["company_risk_status_type_key"], s["from_date"]) for s in statuses] == [
        ("bankrupt", "2025-03-01"),
        ("under_liquidation", "2024-05-01"),
    ]
    assert all(s["active_flag"] and s["to_date"] is None and s["company_uuid"] == str(company.uuid) for s in statuses)
    assert body["is_under_forced_dissolution"] is False


def test_an_address_without_a_country_takes_the_country_of_its_municipality(api, db):
    postal = geo_make(postal_code="9008", municipality_code="5501", subdivision_code="55")
    company = company_make(with_address=False, postal_address="Postboks 9", postal_municipality=postal.municipality)

    [address] = api.get(url(company.uuid)).json()["addresses"]

    assert address["address_type_key"] == "postal" and address["geo_postal_code"] is None
    assert address["geo_municipality"]["geo_municipality_key"] == "NO-5501"
    assert address["geo_subdivision"]["geo_subdivision_key"] == "NO-55"
    assert address["geo_country"]["geo_country_key"] == "NO"


def test_a_company_without_address_codes_or_organisation_type(api, db):
    company = company_make(with_address=False, nace_codes=(), organization_type=None)

    body = api.get(url(company.uuid)).json()

    assert body["addresses"] == [] and body["nace_codes"] == [] and body["organization_type"] is None
    assert body["company_risk_statuses"] == [] and body["has_company_risk_status"] is False


def test_nace_codes_come_in_rank_order(api, db):
    company = company_make(nace_codes=("62.020", "01.110", "62.010"))

    nace_codes = api.get(url(company.uuid)).json()["nace_codes"]

    assert [(n["code"], n["rank"]) for n in nace_codes] == [("62.020", 1), ("01.110", 2), ("62.010", 3)]


def test_unknown_company_is_404(api, db):
    response = api.get(url("NO923609016"))

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("identifier", ["NO123456789", "not-a-company", "XX123"])
def test_malformed_identifier_is_400_naming_the_parameter(api, db, identifier):
    response = api.get(url(identifier))

    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["path", "company_identifier"]


def test_it_needs_authentication(client, company):
    assert client.get(url(company.uuid)).status_code == 401


def test_it_runs_one_query(api, company, django_assert_max_num_queries):
    nace_code_make("62.090")
    services.company_risk_status_set(company=company, status_key="bankrupt", on_date=date(2025, 3, 1))
    services.company_risk_status_set(company=company, status_key="under_liquidation", on_date=date(2025, 2, 1))
    with django_assert_max_num_queries(AUTH_QUERIES + 1):
        assert api.get(url(company.uuid)).status_code == 200
