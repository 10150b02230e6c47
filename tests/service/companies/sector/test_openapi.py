"""The interactive reference documents the operation, every parameter and the definitions (spec §4.3)."""

from __future__ import annotations

import pytest

from .builders import URL

PARAMETERS = {
    "measure_year": (True, None),
    "company_measure_type_identifier": (True, None),
    "nace_code_identifiers": (False, None),
    "benchmark_company_identifier": (False, None),
    "benchmark_nace_code_hierarchy_level": (False, 5),
    "benchmark_geo_level_entity_key": (False, "geo_subdivision"),
    "organization_type_identifiers": (False, None),
    "geo_country_identifiers": (False, None),
    "geo_subdivision_identifiers": (False, None),
    "geo_municipality_identifiers": (False, None),
    "geo_postal_code_identifiers": (False, None),
    "lower_percentile": (False, 0.1),
    "upper_percentile": (False, 0.9),
    "round_digits": (False, 0),
    "number_of_highest_measures_to_include": (False, 3),
    "number_of_lowest_measures_to_include": (False, 3),
    "max_number_of_buckets": (False, 10),
}


@pytest.fixture
def operation(api):
    response = api.client.get("/analysis/openapi.json", **api.headers())
    assert response.status_code == 200
    return response.json()["paths"][URL]["get"]


def test_it_documents_every_parameter_with_its_default(operation):
    documented = {parameter["name"]: parameter for parameter in operation["parameters"]}

    assert set(documented) == set(PARAMETERS)
    for name, (required, default) in PARAMETERS.items():
        parameter = documented[name]
        assert parameter.get("required", False) is required, name
        assert parameter["description"], name
        assert parameter["schema"].get("default") == default, name


def test_it_states_the_definitions_in_the_description(operation):
    text = operation["description"]

    assert operation["summary"]
    phrases = ["percentile_cont", "population", "ddof 0", "round_digits", "1, 2, 2.5 and 5", "max_number_of_buckets"]
    phrases += ["company uuid ascending", "primary", "identical data points", "zero-imputed"]
    for phrase in phrases:
        assert phrase.lower() in text.lower(), phrase


def test_it_documents_the_response_shape(operation):
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]

    assert schema["type"] == "array"
    assert schema["items"]["$ref"].endswith("/SectorMeasureYearlyAggregateComposite")
