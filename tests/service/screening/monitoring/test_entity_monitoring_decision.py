"""POST /v1/screening-config/{uuid}/entity-monitoring-decision: approve, decline, who decided."""

from __future__ import annotations

import pytest

from service.auth.models import AppCustomer
from service.auth.services import app_membership_create
from service.screening.models import EntityMonitoringDecision
from tests.service.screening.helpers import (
    config_make,
    customer_person_make,
    decide,
    field_locs,
    monitoring_make,
    monitorings,
    status_of,
)


@pytest.fixture
def config(api):
    return config_make(api)


@pytest.fixture
def pending(api, config):
    person = customer_person_make(api, config["uuid"])["uuid"]
    return monitoring_make(api, config["uuid"], customer_person=person)["entity_monitoring"]["uuid"]


def _member(caller, email="officer@nordbank.no"):
    return app_membership_create(app_customer=AppCustomer.objects.get(uuid=caller.app_customer_uuid), email=email)


def test_it_approves_a_pending_monitoring(api, config, pending):
    officer = _member(api)
    response = decide(api, config["uuid"], pending, app_membership_uuid=str(officer.uuid), decision_comment="Owner checked")
    assert response.status_code == 201, response.json()
    assert status_of(response.json()) == "active"
    decision = response.json()["entity_monitoring_decision"][0]
    assert (decision["app_membership_uuid"], decision["decision_comment"]) == (str(officer.uuid), "Owner checked")
    active = monitorings(api, config["uuid"], approval_status_key="active")
    assert [m["entity_monitoring"]["uuid"] for m in active] == [pending]


def test_it_follows_the_latest_decision(api, config, pending):
    assert status_of(decide(api, config["uuid"], pending, approved=False).json()) == "declined"
    assert monitorings(api, config["uuid"], approval_status_key="pending") == []
    assert len(monitorings(api, config["uuid"], approval_status_key="declined")) == 1
    again = decide(api, config["uuid"], pending, approved=True).json()
    assert status_of(again) == "active"
    assert [d["approved_flag"] for d in again["entity_monitoring_decision"]] == [True, False]
    assert status_of(decide(api, config["uuid"], pending, approved=False).json()) == "declined"
    assert monitorings(api, config["uuid"], approval_status_key="active") == []


def test_it_refuses_a_member_of_another_organisation(api, other_api, config, pending):
    stranger = _member(other_api, "someone@fjordkreditt.no")
    response = decide(api, config["uuid"], pending, app_membership_uuid=str(stranger.uuid))
    assert response.status_code == 404
    assert field_locs(response) == [["body", "app_membership_uuid"]]
    assert not EntityMonitoringDecision.objects.exists()


def test_it_refuses_a_monitoring_of_another_config(api, config, pending):
    other_config = config_make(api)
    response = decide(api, other_config["uuid"], pending)
    assert response.status_code == 404
    assert field_locs(response) == [["body", "entity_monitoring_uuid"]]
    assert not EntityMonitoringDecision.objects.exists()


def test_it_keeps_another_organisations_config_out_of_reach(api, other_api, config, pending):
    theirs = config_make(other_api)
    assert decide(other_api, theirs["uuid"], pending).status_code == 404
    assert decide(other_api, config["uuid"], pending).status_code == 404
    assert not EntityMonitoringDecision.objects.exists()


def test_it_keeps_auto_approve_for_the_service(api, config, pending):
    response = decide(api, config["uuid"], pending, decision_origin_key="auto_approve")
    assert response.status_code == 400
    assert field_locs(response) == [["body", "decision_origin_key"]]
    assert decide(api, config["uuid"], pending, decision_origin_key="system").status_code == 201


def test_it_needs_the_aml_role(api, config, pending):
    body = {"entity_monitoring_uuid": pending, "approved_flag": True}
    assert api.post(f"/analysis/v1/screening-config/{config['uuid']}/entity-monitoring-decision", body).status_code == 403
    assert not EntityMonitoringDecision.objects.exists()


def test_it_refuses_a_deactivated_member_naming_the_field_and_writes_nothing(api, config, pending):
    organisation = AppCustomer.objects.get(uuid=api.app_customer_uuid)
    member = app_membership_create(app_customer=organisation, email="left@nordbank.no")
    member.active_flag = False
    member.save()

    response = decide(api, config["uuid"], pending, app_membership_uuid=str(member.uuid))

    assert response.status_code == 400
    assert response.json()["code"] == "membership_deactivated"
    assert field_locs(response) == [["body", "app_membership_uuid"]]
    assert not EntityMonitoringDecision.objects.exists()
