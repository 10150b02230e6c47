"""POST/GET /v1/screening-config/{uuid}/entity-monitoring-composite."""

from __future__ import annotations

import pytest

from service.screening.models import EntityMonitoring
from tests.service.companies.factories import company_make, person_make
from tests.service.screening.helpers import (
    AML,
    config_make,
    config_url,
    customer_person_make,
    field_locs,
    monitoring_body,
    monitoring_make,
    monitoring_type_uuid,
    monitorings,
    status_of,
)

URL_TAIL = "/entity-monitoring-composite"


@pytest.fixture
def config(api):
    return config_make(api)


@pytest.fixture
def kari(api, config):
    return customer_person_make(api, config["uuid"])["uuid"]


def test_it_creates_an_active_monitoring_when_the_decision_approves(api, config, kari):
    created = monitoring_make(
        api, config["uuid"], customer_person=kari, monitoring_comment="New customer", decision={"approved_flag": True, "decision_comment": "KYC done"}
    )
    monitoring = created["entity_monitoring"]
    assert status_of(created) == "active"
    assert created["entity_monitoring_status"]["screened_flag"] is True
    assert monitoring["monitoring_customer_person_uuid"] == kari
    assert monitoring["monitoring_entity_key"] == "customer_person"
    assert monitoring["monitoring_entity_uuid"] == kari
    assert monitoring["monitoring_entity_name"] == "Kari Nordmann"
    assert monitoring["monitoring_origin_key"] == "api"
    assert monitoring["entity_monitoring_type_key"] == "other"
    assert [d["decision_comment"] for d in created["entity_monitoring_decision"]] == ["KYC done"]
    assert created["entity_monitoring_decision"][0]["decision_origin_key"] == "user"


@pytest.mark.parametrize("decision", [None, {"approved_flag": False}])
def test_it_creates_a_pending_monitoring_without_an_approving_decision(api, config, kari, decision):
    created = monitoring_make(api, config["uuid"], customer_person=kari, decision=decision)
    assert status_of(created) == "pending"
    assert created["entity_monitoring_decision"] == []
    assert [m["entity_monitoring"]["uuid"] for m in monitorings(api, config["uuid"], approval_status_key="pending")] == [
        created["entity_monitoring"]["uuid"]
    ]
    assert monitorings(api, config["uuid"], approval_status_key="active") == []


def test_it_filters_by_related_company_and_pages(api, config, kari):
    company = company_make(name="Nordlys AS")
    owner = person_make(full_name="Ola Eier")
    with_company = monitoring_make(api, config["uuid"], person=owner.uuid, type_key="beneficial_owners", related_company=company.uuid)
    without = monitoring_make(api, config["uuid"], customer_person=kari)
    ids = lambda rows: [r["entity_monitoring"]["uuid"] for r in rows]  # noqa: E731
    assert ids(monitorings(api, config["uuid"], no_related_company_flag="true")) == [without["entity_monitoring"]["uuid"]]
    assert ids(monitorings(api, config["uuid"], no_related_company_flag="false")) == [with_company["entity_monitoring"]["uuid"]]
    assert ids(monitorings(api, config["uuid"], related_company_uuid=str(company.uuid))) == [with_company["entity_monitoring"]["uuid"]]
    assert with_company["entity_monitoring"]["related_company"]["name"] == "Nordlys AS"
    first, second = monitorings(api, config["uuid"], limit=1), monitorings(api, config["uuid"], limit=1, offset=1)
    assert ids(first + second) == [with_company["entity_monitoring"]["uuid"], without["entity_monitoring"]["uuid"]]
    assert monitorings(api, config["uuid"], limit=1, offset=2) == []


def test_it_lists_the_monitorings_of_one_entity_for_every_company(api, config, kari):
    nordlys, fjord = company_make(name="Nordlys AS"), company_make(name="Fjord AS")
    owner, other = person_make(full_name="Ola Eier"), person_make(full_name="Per Annen")
    in_nordlys = monitoring_make(api, config["uuid"], person=owner.uuid, type_key="beneficial_owners", related_company=nordlys.uuid)
    in_fjord = monitoring_make(api, config["uuid"], person=owner.uuid, type_key="beneficial_owners", related_company=fjord.uuid)
    monitoring_make(api, config["uuid"], person=other.uuid, type_key="beneficial_owners", related_company=nordlys.uuid)
    itself = monitoring_make(api, config["uuid"], company=fjord.uuid, type_key="company")
    ids = lambda rows: [r["entity_monitoring"]["uuid"] for r in rows]  # noqa: E731
    assert ids(monitorings(api, config["uuid"], monitoring_entity_uuid=str(owner.uuid))) == [
        in_nordlys["entity_monitoring"]["uuid"],
        in_fjord["entity_monitoring"]["uuid"],
    ]
    assert ids(monitorings(api, config["uuid"], monitoring_entity_uuid=str(fjord.uuid))) == [itself["entity_monitoring"]["uuid"]]
    assert ids(monitorings(api, config["uuid"], monitoring_entity_uuid=kari)) == []


def test_it_lists_no_monitoring_of_another_configs_entity(api, config):
    owner = person_make(full_name="Ola Eier")
    other_config = config_make(api, name="Second")
    monitoring_make(api, other_config["uuid"], person=owner.uuid, type_key="beneficial_owners", related_company=company_make().uuid)
    assert monitorings(api, config["uuid"], monitoring_entity_uuid=str(owner.uuid)) == []


def test_it_monitors_a_company_by_its_own_name(api, config):
    company = company_make(name="Nordlys AS")
    created = monitoring_make(api, config["uuid"], company=company.uuid, type_key="company", decision={"approved_flag": True})
    assert created["entity_monitoring"]["monitoring_company_uuid"] == str(company.uuid)
    assert created["entity_monitoring"]["related_company_uuid"] == str(company.uuid)
    assert status_of(created) == "active"


def test_it_refuses_a_second_monitoring_of_the_same_person(api, config, kari):
    monitoring_make(api, config["uuid"], customer_person=kari)
    again = api.post(config_url(config["uuid"], URL_TAIL), monitoring_body(customer_person=kari), roles=AML)
    assert again.status_code == 400
    assert again.json()["code"] == "already_monitored"
    assert field_locs(again) == [["body", "entity_monitoring", "monitoring_customer_person_uuid"]]
    assert EntityMonitoring.objects.count() == 1


def test_it_lists_every_shape_error_at_once(api, config, kari):
    company = company_make()
    body = monitoring_body(customer_person=kari, type_key="other", related_company=company.uuid, monitoring_origin_key="suggestion")
    response = api.post(config_url(config["uuid"], URL_TAIL), body, roles=AML)
    assert response.status_code == 400
    assert [loc[-1] for loc in field_locs(response)] == ["related_company_uuid", "monitoring_origin_key"]
    two = monitoring_body(customer_person=kari, person=person_make().uuid)
    assert api.post(config_url(config["uuid"], URL_TAIL), two, roles=AML).status_code == 400
    owner_without_company = monitoring_body(person=person_make().uuid, type_key="beneficial_owners")
    response = api.post(config_url(config["uuid"], URL_TAIL), owner_without_company, roles=AML)
    assert field_locs(response) == [["body", "entity_monitoring", "related_company_uuid"]]
    assert not EntityMonitoring.objects.exists()


def test_it_refuses_unknown_uuids_naming_the_field(api, config, kari):
    unknown = "00000000-0000-0000-0000-0000000000aa"
    cases = [
        ({"entity_monitoring": {"entity_monitoring_type_uuid": unknown, "monitoring_customer_person_uuid": kari}}, "entity_monitoring_type_uuid"),
        (monitoring_body(customer_person=unknown), "monitoring_customer_person_uuid"),
        (monitoring_body(person=unknown, type_key="beneficial_owners", related_company=company_make().uuid), "monitoring_person_uuid"),
        (monitoring_body(person=person_make().uuid, type_key="beneficial_owners", related_company=unknown), "related_company_uuid"),
        (monitoring_body(customer_person=kari, app_membership_uuid=unknown), "app_membership_uuid"),
    ]
    for body, field in cases:
        response = api.post(config_url(config["uuid"], URL_TAIL), body, roles=AML)
        assert response.status_code == 404, (field, response.json())
        assert field_locs(response)[0][-1] == field
    assert not EntityMonitoring.objects.exists()


def test_it_refuses_a_customer_person_of_another_config(api, config):
    other_config = config_make(api)
    theirs = customer_person_make(api, other_config["uuid"])["uuid"]
    response = api.post(config_url(config["uuid"], URL_TAIL), monitoring_body(customer_person=theirs), roles=AML)
    assert response.status_code == 404
    assert field_locs(response) == [["body", "entity_monitoring", "monitoring_customer_person_uuid"]]


def test_it_keeps_another_organisations_monitorings_out_of_reach(api, other_api):
    theirs = config_make(other_api)
    person = customer_person_make(other_api, theirs["uuid"])["uuid"]
    monitoring_make(other_api, theirs["uuid"], customer_person=person)
    assert api.post(config_url(theirs["uuid"], URL_TAIL), monitoring_body(customer_person=person), roles=AML).status_code == 404
    assert api.get(config_url(theirs["uuid"], URL_TAIL), roles=AML).status_code == 404
    assert EntityMonitoring.objects.count() == 1


def test_it_stores_a_monitoring_created_as_removed_as_removed(api, config, kari):
    created = monitoring_make(api, config["uuid"], customer_person=kari, removed_flag=True, decision={"approved_flag": True})
    assert status_of(created) == "removed"
    assert created["entity_monitoring"]["removal_reason"] == "Created as removed."


def test_it_refuses_a_bad_status_filter_and_needs_the_role(api, config):
    response = api.get(config_url(config["uuid"], URL_TAIL), {"approval_status_key": "approved"}, roles=AML)
    assert response.status_code == 400
    assert field_locs(response) == [["query", "approval_status_key"]]
    assert api.get(config_url(config["uuid"], URL_TAIL)).status_code == 403
    body = {"entity_monitoring": {"entity_monitoring_type_uuid": monitoring_type_uuid()}}
    assert api.post(config_url(config["uuid"], URL_TAIL), body).status_code == 403
