"""The lookup lists: suggestion settings, entity monitoring types, genders, location types, countries."""

from __future__ import annotations

import pytest

from tests.service.companies.factories import geo_make
from tests.service.screening.helpers import AML, V1


def _keys(api, path, name):
    response = api.get(f"{V1}/{path}", roles=AML)
    assert response.status_code == 200
    return [row[f"{name}_key"] for row in response.json()]


def test_it_lists_the_two_suggestion_settings(api):
    assert _keys(api, "screening-config-system-suggestion-setting", "screening_config_system_suggestion_setting") == [
        "enin_calculated_beneficial_owners",
        "enin_calculated_extended_beneficial_owners",
    ]


def test_it_lists_the_four_entity_monitoring_types(api):
    assert sorted(_keys(api, "entity-monitoring-type", "entity_monitoring_type")) == [
        "alternative_beneficial_owners",
        "beneficial_owners",
        "company",
        "other",
    ]


def test_it_lists_genders_location_types_and_the_register_countries(api):
    assert set(_keys(api, "gender", "gender")) == {"female", "male", "unknown"}
    assert "residence" in _keys(api, "person-location-type", "person_location_type")
    geo_make(country="NO")
    assert "NO" in _keys(api, "geo-country", "geo_country")


@pytest.mark.parametrize(
    "path",
    ["screening-config-system-suggestion-setting", "entity-monitoring-type", "gender", "person-location-type", "geo-country"],
)
def test_it_needs_the_aml_role(api, path):
    response = api.get(f"{V1}/{path}", roles=["credit_check"])
    assert response.status_code == 403
    assert "aml" in response.json()["detail"]
