"""URLs and small makers for the screening setup and monitoring tests (through the real API)."""

from __future__ import annotations

import json

from service.screening.models import EntityMonitoringType, Gender, ScreeningListCategory

V1 = "/analysis/v1"
AML = ["aml"]


def configs_url(app_customer_uuid) -> str:
    return f"{V1}/app-customer/{app_customer_uuid}/screening-config"


def config_url(config_uuid, tail: str = "") -> str:
    return f"{V1}/screening-config/{config_uuid}{tail}"


def customer_person_url(person_uuid, tail: str = "") -> str:
    return f"{V1}/customer-person/{person_uuid}{tail}"


def patch(caller, path: str, body, *, roles=AML):
    return caller.client.patch(path, json.dumps(body), content_type="application/json", **caller.headers(roles))


def delete(caller, path: str, body=None, *, roles=AML):
    data = json.dumps(body) if body is not None else ""
    return caller.client.delete(path, data, content_type="application/json", **caller.headers(roles))


def config_make(caller, **fields) -> dict:
    response = caller.post(configs_url(caller.app_customer_uuid), fields, roles=AML)
    assert response.status_code == 201, response.json()
    return response.json()


def category_uuid(key: str = "un_security_council") -> str:
    return str(ScreeningListCategory.objects.get(key=key).uuid)


def gender_uuid(key: str = "female") -> str:
    return str(Gender.objects.get(key=key).uuid)


def monitoring_type_uuid(key: str = "other") -> str:
    return str(EntityMonitoringType.objects.get(key=key).uuid)


def customer_person_make(caller, config_uuid, full_name: str = "Kari Nordmann", **fields) -> dict:
    # Born as the demo's Kari Nordmann, whose fødselsnummer (15108695088) the tests add.
    body = {"full_name": full_name, "birth_date": "1986-10-15", "gender_uuid": gender_uuid(), **fields}
    response = caller.post(config_url(config_uuid, "/customer-person"), body, roles=AML)
    assert response.status_code == 201, response.json()
    return response.json()


def field_locs(response) -> list[list[str]]:
    return [e["loc"] for e in response.json()["errors"]]


def monitoring_body(*, customer_person=None, person=None, company=None, type_key="other", related_company=None, decision=None, **fields) -> dict:
    monitoring = {"entity_monitoring_type_uuid": monitoring_type_uuid(type_key), **fields}
    if customer_person is not None:
        monitoring["monitoring_customer_person_uuid"] = customer_person
    if person is not None:
        monitoring["monitoring_person_uuid"] = str(person)
    if company is not None:
        monitoring["monitoring_company_uuid"] = str(company)
    if related_company is not None:
        monitoring["related_company_uuid"] = str(related_company)
    body = {"entity_monitoring": monitoring}
    if decision is not None:
        body["entity_monitoring_decision"] = decision
    return body


def monitoring_make(caller, config_uuid, **kwargs) -> dict:
    response = caller.post(config_url(config_uuid, "/entity-monitoring-composite"), monitoring_body(**kwargs), roles=AML)
    assert response.status_code == 201, response.json()
    return response.json()


def monitorings(caller, config_uuid, **params) -> list[dict]:
    response = caller.get(config_url(config_uuid, "/entity-monitoring-composite"), params, roles=AML)
    assert response.status_code == 200, response.json()
    return response.json()


def status_of(composite: dict) -> str:
    return composite["entity_monitoring_status"]["entity_monitoring_status_key"]


def decide(caller, config_uuid, monitoring_uuid, approved: bool = True, **fields):
    body = {"entity_monitoring_uuid": monitoring_uuid, "approved_flag": approved, **fields}
    return caller.post(config_url(config_uuid, "/entity-monitoring-decision"), body, roles=AML)
