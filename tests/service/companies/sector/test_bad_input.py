"""Bad input is a 400 naming each field, in the one error shape (DESIGN: Conventions, errors)."""

from __future__ import annotations

import pytest

from .builders import URL, a_world, companies_with_values, params

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    world = a_world()
    companies_with_values(world, [1, 2, 3])
    return world


def _refused(api, query: dict) -> dict:
    response = api.get(URL, query)
    assert response.status_code == 400, response.content
    body = response.json()
    assert set(body) == {"detail", "code", "errors", "request_id"}
    assert body["detail"]
    return body


def _fields(body: dict) -> list[str]:
    return [error["loc"][-1] for error in body["errors"]]


@pytest.mark.parametrize("missing", ["measure_year", "company_measure_type_identifier", "nace_code_identifiers"])
def test_it_refuses_a_missing_required_parameter(api, world, missing):
    body = _refused(api, params(**{missing: None}))

    assert missing in _fields(body)
    assert all(error["loc"][0] == "query" for error in body["errors"])


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("measure_year", "last-year"),
        ("measure_year", "99999999999"),
        ("lower_percentile", "-0.1"),
        ("lower_percentile", "1.5"),
        ("upper_percentile", "nan"),
        ("upper_percentile", "2"),
        ("max_number_of_buckets", "0"),
        ("max_number_of_buckets", "-3"),
        ("max_number_of_buckets", "1001"),
        ("round_digits", "7"),
        ("round_digits", "-16"),
        ("round_digits", "1.5"),
        ("number_of_highest_measures_to_include", "-1"),
        ("number_of_lowest_measures_to_include", "101"),
        ("benchmark_nace_code_hierarchy_level", "0"),
        ("benchmark_nace_code_hierarchy_level", "6"),
        ("benchmark_geo_level_entity_key", "geo_country"),
    ],
)
def test_it_refuses_a_bad_number_or_choice(api, world, name, value):
    assert name in _fields(_refused(api, params(**{name: value})))


def test_it_refuses_a_lower_percentile_above_the_upper_naming_both(api, world):
    body = _refused(api, params(lower_percentile="0.8", upper_percentile="0.2"))

    assert set(_fields(body)) == {"lower_percentile", "upper_percentile"}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("company_measure_type_identifier", "no_such_measure"),
        ("company_measure_type_identifier", "6f1c56a1-3a57-4b43-9d52-3f6a2f3b9c11"),
        ("nace_code_identifiers", "NO-99.999"),
        ("nace_code_identifiers", "62.010"),  # without its country prefix
        ("nace_code_identifiers", "NO-62.010,NO-XX"),
        ("organization_type_identifiers", "NO-AS,NO-GMBH"),
        ("geo_country_identifiers", "DK"),
        ("geo_subdivision_identifiers", "NO-99"),
        ("geo_municipality_identifiers", "NO-9999"),
        ("geo_postal_code_identifiers", "NO-0000"),
        ("geo_postal_code_identifiers", "6f1c56a1-3a57-4b43-9d52-3f6a2f3b9c11"),
    ],
)
def test_it_refuses_an_unknown_identifier(api, world, name, value):
    body = _refused(api, params(**{name: value}))

    assert _fields(body) == [name]
    assert value.split(",")[-1] in body["errors"][0]["msg"]


def test_it_lists_every_unknown_identifier_at_once(api, world):
    query = params(
        company_measure_type_identifier="nope", nace_code_identifiers="NO-00", geo_municipality_identifiers="NO-0000"
    )

    body = _refused(api, query)

    assert _fields(body) == ["company_measure_type_identifier", "nace_code_identifiers", "geo_municipality_identifiers"]


def test_it_refuses_requests_without_credentials(db, client):
    response = client.get(URL, params())

    assert response.status_code == 401
