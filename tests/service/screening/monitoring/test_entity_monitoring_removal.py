"""PATCH /v1/screening-config/{uuid}/entity-monitoring/{uuid} (extension): removal with a reason."""

from __future__ import annotations

import pytest

from tests.service.screening.helpers import (
    config_make,
    config_url,
    customer_person_make,
    decide,
    field_locs,
    monitoring_make,
    monitorings,
    patch,
    status_of,
)


@pytest.fixture
def config(api):
    return config_make(api)


@pytest.fixture
def person(api, config):
    return customer_person_make(api, config["uuid"])["uuid"]


def _remove(caller, config_uuid, monitoring_uuid, reason="Customer left"):
    return patch(caller, config_url(config_uuid, f"/entity-monitoring/{monitoring_uuid}"), {"removed_flag": True, "removal_reason": reason})


def test_it_removes_an_active_monitoring_and_says_why(api, config, person):
    active = monitoring_make(api, config["uuid"], customer_person=person, decision={"approved_flag": True})
    uuid = active["entity_monitoring"]["uuid"]
    response = _remove(api, config["uuid"], uuid)
    assert response.status_code == 200, response.json()
    removed = response.json()
    assert status_of(removed) == "removed"
    assert removed["entity_monitoring"]["removed_flag"] is True
    assert removed["entity_monitoring"]["removal_reason"] == "Customer left"
    assert removed["entity_monitoring"]["removed_timestamp"] is not None
    assert monitorings(api, config["uuid"], approval_status_key="active") == []
    assert [m["entity_monitoring"]["uuid"] for m in monitorings(api, config["uuid"], approval_status_key="removed")] == [uuid]


def test_it_lets_a_removed_person_be_monitored_again_but_pending(api, config, person):
    first = monitoring_make(api, config["uuid"], customer_person=person, decision={"approved_flag": True})
    _remove(api, config["uuid"], first["entity_monitoring"]["uuid"])
    second = monitoring_make(api, config["uuid"], customer_person=person)
    assert status_of(second) == "pending"
    assert decide(api, config["uuid"], first["entity_monitoring"]["uuid"]).status_code == 400


def test_it_refuses_removal_without_a_reason_and_un_removal(api, config, person):
    monitoring = monitoring_make(api, config["uuid"], customer_person=person)["entity_monitoring"]["uuid"]
    blank = _remove(api, config["uuid"], monitoring, reason="  ")
    assert blank.status_code == 400
    assert field_locs(blank) == [["body", "removal_reason"]]
    assert status_of(monitorings(api, config["uuid"])[0]) == "pending"
    _remove(api, config["uuid"], monitoring)
    back = patch(api, config_url(config["uuid"], f"/entity-monitoring/{monitoring}"), {"removed_flag": False, "removal_reason": "oops"})
    assert back.status_code == 400
    assert field_locs(back) == [["body", "removed_flag"]]


def test_it_keeps_another_organisations_monitoring_out_of_reach(api, other_api, config, person):
    monitoring = monitoring_make(api, config["uuid"], customer_person=person)["entity_monitoring"]["uuid"]
    theirs = config_make(other_api)
    assert _remove(other_api, config["uuid"], monitoring).status_code == 404
    assert _remove(other_api, theirs["uuid"], monitoring).status_code == 404
    assert status_of(monitorings(api, config["uuid"])[0]) == "pending"
