"""GET .../suggestion-preview: how many persons each suggestion setting would suggest."""

from __future__ import annotations

import pytest

from service.screening import preview_selectors
from tests.service.companies.factories import company_make, person_make, role_make
from tests.service.screening.helpers import AML, config_make, config_url
from tests.service.screening.watchlists.helpers import attach, nordlys_owned_by_kari, watchlist_make


def _preview(caller, config_uuid, roles=AML):
    return caller.get(config_url(config_uuid, "/suggestion-preview"), roles=roles)


def _by_setting(body) -> dict:
    return {s["screening_config_system_suggestion_setting_key"]: s for s in body["settings"]}


@pytest.fixture
def config(api):
    """Nordlys (Kari owns 31% through Fjell; Ola chairs the board) and Tomt AS (no owner, a CEO)."""
    config = config_make(api)
    nordlys, _ = nordlys_owned_by_kari()
    empty = company_make(name="Tomt AS")
    role_make(company=empty, role_key="ceo", person=person_make(full_name="Per Leder"))
    attach(api, config["uuid"], watchlist_make(api, companies=[nordlys, empty]))
    return config


def test_it_counts_what_each_setting_would_suggest(api, config):
    response = _preview(api, config["uuid"])
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["company_count"], body["sampled_company_count"], body["estimated_flag"]) == (2, 2, False)
    settings = _by_setting(body)
    basic = settings["enin_calculated_beneficial_owners"]
    # Kari (beneficial owner of Nordlys) and Per (the CEO standing in for Tomt AS, which has no owner)
    assert (basic["person_count"], basic["beneficial_owner_count"], basic["alternative_beneficial_owner_count"]) == (2, 1, 1)
    extended = settings["enin_calculated_extended_beneficial_owners"]
    # the extended setting adds Nordlys' chair of the board
    assert (extended["person_count"], extended["beneficial_owner_count"], extended["alternative_beneficial_owner_count"]) == (3, 1, 2)
    assert basic["companies_without_person_count"] == 0


def test_it_scales_a_sample_of_a_large_watchlist(api, config):
    preview = preview_selectors.suggestion_preview(
        config=preview_selectors.ScreeningConfig.objects.get(uuid=config["uuid"]), sample_size=1
    )
    assert (preview.company_count, preview.sampled_company_count, preview.estimated_flag) == (2, 1, True)
    # one company counted, doubled
    assert all(s.person_count % 2 == 0 and s.person_count >= 2 for s in preview.settings)


def test_it_counts_nothing_without_an_attached_watchlist(api):
    config = config_make(api)
    body = _preview(api, config["uuid"]).json()
    assert body["company_count"] == 0
    assert {s["person_count"] for s in body["settings"]} == {0}


def test_it_needs_aml_and_hides_other_organisations_configs(api, other_api, config):
    assert _preview(api, config["uuid"], roles=["credit_check"]).status_code == 403
    assert _preview(other_api, config["uuid"]).status_code == 404
