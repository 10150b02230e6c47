"""GET .../suggested-person: who the config's setting names for companies, with the chain behind it."""

from __future__ import annotations

import uuid

from tests.service.screening.helpers import AML, config_make, config_url, field_locs
from tests.service.screening.watchlists.helpers import nordlys_owned_by_kari


def _suggested(caller, config_uuid, companies: str):
    return caller.get(config_url(config_uuid, "/suggested-person"), {"related_company_uuid": companies}, roles=AML)


def test_it_names_the_owner_with_share_and_chain(api):
    config = config_make(api)
    nordlys, kari = nordlys_owned_by_kari()
    response = _suggested(api, config["uuid"], str(nordlys.uuid))
    assert response.status_code == 200, response.json()
    [company] = response.json()
    assert company["related_company"]["name"] == "Nordlys AS"
    [person] = company["suggested_persons"]
    assert (person["full_name"], person["entity_monitoring_type_key"]) == ("Kari Nordmann", "beneficial_owners")
    assert abs(person["effective_share"] - 0.31) < 1e-9
    [chain] = person["chains"]
    assert [(link["holder_name"], link["company_name"], link["share"]) for link in chain] == [
        ("Kari Nordmann", "Fjell Holding AS", 0.62),
        ("Fjell Holding AS", "Nordlys AS", 0.5),
    ]
    assert "through Fjell Holding AS" in person["reason"]


def test_the_extended_setting_adds_the_board_with_its_role(api):
    settings = api.get("/analysis/v1/screening-config-system-suggestion-setting", roles=AML).json()
    extended = next(s["uuid"] for s in settings if "extended" in s["screening_config_system_suggestion_setting_key"])
    config = config_make(api, screening_config_system_suggestion_setting_uuid=extended)
    nordlys, _ = nordlys_owned_by_kari()
    [company] = _suggested(api, config["uuid"], str(nordlys.uuid)).json()
    chair = next(p for p in company["suggested_persons"] if p["full_name"] == "Ola Styre")
    assert chair["company_role_type_keys"] == ["board_chair"]
    assert (chair["entity_monitoring_type_key"], chair["effective_share"], chair["chains"]) == (
        "alternative_beneficial_owners",
        None,
        [],
    )


def test_bad_company_uuids_name_the_parameter(api, other_api):
    config = config_make(api)
    unknown = _suggested(api, config["uuid"], str(uuid.uuid4()))
    assert unknown.status_code == 404
    assert field_locs(unknown) == [["query", "related_company_uuid"]]
    garbled = _suggested(api, config["uuid"], "not-a-uuid")
    assert garbled.status_code == 400
    assert field_locs(garbled) == [["query", "related_company_uuid"]]
    nordlys, _ = nordlys_owned_by_kari()
    assert _suggested(other_api, config["uuid"], str(nordlys.uuid)).status_code == 404
