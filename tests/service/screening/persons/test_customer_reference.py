"""A customer person's `customer_reference` (extension): the organisation's own number for the
customer, one customer person of a config each, written by the create, the correction and the import."""

from __future__ import annotations

import pytest

from service.audit.models import AuditEvent
from service.screening.models import CustomerPerson, EntityMonitoring
from tests.service.screening.helpers import (
    AML,
    config_make,
    config_url,
    customer_person_make,
    customer_person_url,
    field_locs,
    monitoring_make,
    patch,
)
from tests.service.screening.persons.test_customer_person_import import BOTH, csv_bytes, post


@pytest.fixture
def config(api):
    return config_make(api)


def _create(api, config, **fields):
    return api.post(config_url(config["uuid"], "/customer-person"), {"full_name": "Kari Nordmann", **fields}, roles=AML)


def test_it_keeps_the_reference_and_every_read_gives_it(api, config):
    created = _create(api, config, customer_reference="  K-10231 ")

    assert created.status_code == 201, created.json()
    person = created.json()
    assert person["customer_reference"] == "K-10231"
    detail = api.get(customer_person_url(person["uuid"]), roles=AML).json()
    assert detail["customer_person"]["customer_reference"] == "K-10231"
    [listed] = api.get(config_url(config["uuid"], "/customer-person"), {"customer_reference": "K-10231"}, roles=AML).json()
    assert listed["uuid"] == person["uuid"]
    assert api.get(config_url(config["uuid"], "/customer-person"), {"customer_reference": "K-1"}, roles=AML).json() == []
    [event] = AuditEvent.objects.filter(action_key="customer_person.create")
    assert event.after["customer_reference"] == "K-10231"
    monitoring = monitoring_make(api, config["uuid"], customer_person=person["uuid"])
    assert monitoring["entity_monitoring"]["monitoring_customer_reference"] == "K-10231"
    assert customer_person_make(api, config["uuid"], full_name="Ola Nordmann")["customer_reference"] == ""


def test_a_reference_is_one_customer_persons_in_a_config(api, other_api, config):
    kari = _create(api, config, customer_reference="K-10231").json()

    taken = _create(api, config, full_name="Ola Nordmann", customer_reference="K-10231")

    assert taken.status_code == 400
    assert field_locs(taken) == [["body", "customer_reference"]] and taken.json()["code"] == "reference_taken"
    assert f"Kari Nordmann ({kari['uuid']})" in taken.json()["errors"][0]["msg"]
    assert CustomerPerson.objects.count() == 1
    # Another config, and another organisation, may use the same number for their own customer.
    assert _create(api, config_make(api), customer_reference="K-10231").status_code == 201
    assert _create(other_api, config_make(other_api), customer_reference="K-10231").status_code == 201


def test_a_correction_changes_or_clears_the_reference_without_screening_again(api, config, django_capture_on_commit_callbacks):
    kari = _create(api, config, customer_reference="K-1").json()
    ola = _create(api, config, full_name="Ola Nordmann", customer_reference="K-2").json()
    monitoring_make(api, config["uuid"], customer_person=kari["uuid"], decision={"approved_flag": True})

    with django_capture_on_commit_callbacks() as queued:
        changed = patch(api, customer_person_url(kari["uuid"]), {"customer_reference": "K-9"})
    assert changed.status_code == 200 and changed.json()["customer_reference"] == "K-9"
    assert queued == []  # screening does not read it
    [event] = AuditEvent.objects.filter(action_key="customer_person.update")
    assert (event.before, event.after) == ({"customer_reference": "K-1"}, {"customer_reference": "K-9"})

    taken = patch(api, customer_person_url(kari["uuid"]), {"customer_reference": "K-2", "full_name": "Kari Hansen"})
    assert (taken.status_code, field_locs(taken)) == (400, [["body", "customer_reference"]])
    assert CustomerPerson.objects.get(uuid=kari["uuid"]).full_name == "Kari Nordmann"  # nothing written
    assert patch(api, customer_person_url(kari["uuid"]), {"customer_reference": "K-9"}).status_code == 200  # its own
    assert patch(api, customer_person_url(kari["uuid"]), {"customer_reference": ""}).json()["customer_reference"] == ""
    too_long = patch(api, customer_person_url(ola["uuid"]), {"customer_reference": "K" * 101})
    assert (too_long.status_code, field_locs(too_long)) == (400, [["body", "customer_reference"]])


def test_an_import_stores_each_rows_id_as_the_reference_and_finds_customers_by_it(api, config):
    renamed = _create(api, config, full_name="Kari Nordmann", birth_date="1986-10-15", customer_reference="K-1").json()
    unreferenced = _create(api, config, full_name="Ola Nordmann", birth_date="1970-01-02").json()
    namesake = _create(api, config, full_name="Per Berg", birth_date="1980-05-05", customer_reference="K-7").json()
    rows = [
        {"id": "K-1", "name": "Kari Hansen", "birth_date": "1986-10-15"},  # married since: found by the reference
        {"id": "K-2", "name": "Ola Nordmann", "birth_date": "1970-01-02"},  # by name: gets the reference
        {"id": "K-3", "name": "Per Berg", "birth_date": "1980-05-05"},  # another reference: someone else
        {"id": "K-4", "name": "Liv Berg"},
    ]

    response = post(api, config["uuid"], csv_bytes(rows))

    assert response.status_code == 201, response.json()
    body = response.json()
    assert [(r["outcome"], r["customer_reference_added_flag"]) for r in body["rows"]] == [
        ("monitored", False), ("monitored", True), ("created", False), ("created", False)]
    assert [r["customer_person_uuid"] for r in body["rows"]][:2] == [renamed["uuid"], unreferenced["uuid"]]
    assert body["rows"][2]["customer_person_uuid"] != namesake["uuid"]
    references = dict(CustomerPerson.objects.values_list("uuid", "customer_reference"))
    assert {str(u): r for u, r in references.items()} == {
        renamed["uuid"]: "K-1", unreferenced["uuid"]: "K-2", namesake["uuid"]: "K-7",
        body["rows"][2]["customer_person_uuid"]: "K-3", body["rows"][3]["customer_person_uuid"]: "K-4",
    }
    assert CustomerPerson.objects.get(uuid=renamed["uuid"]).full_name == "Kari Nordmann"  # a file corrects nothing
    update = AuditEvent.objects.get(action_key="customer_person.update", object_uuid=unreferenced["uuid"])
    assert (update.before, update.after) == ({"customer_reference": ""}, {"customer_reference": "K-2"})


def test_an_import_refuses_rows_whose_reference_and_national_id_are_two_peoples(api, config):
    kari = _create(api, config, full_name="Kari Nordmann", birth_date="1986-10-15", customer_reference="K-1").json()
    api.post(customer_person_url(kari["uuid"], "/customer-person-national-identification"),
             {"national_identification_schema": "NO", "national_identification_number": "15108695088"}, roles=BOTH)
    _create(api, config, full_name="Ola Nordmann", birth_date="1970-01-02", customer_reference="K-2")
    kari_number = {"national_id": "15108695088", "national_id_country": "NO", "name": "Kari Nordmann"}

    olas_reference = post(api, config["uuid"], csv_bytes([{"id": "K-2", **kari_number}]))
    karis_other_reference = post(api, config["uuid"], csv_bytes([{"id": "K-3", **kari_number}]))
    twice = post(api, config["uuid"], csv_bytes([{"id": "K-5", "name": "Eva Lie"}, {"id": "K-5", "name": "Tor Lie"}]))

    assert field_locs(olas_reference) == [["body", "file", "line 2", "id"]]
    assert olas_reference.json()["errors"][0]["msg"].startswith("is the customer reference of Ola Nordmann")
    assert field_locs(karis_other_reference) == [["body", "file", "line 2", "id"]]
    assert karis_other_reference.json()["errors"][0]["msg"].endswith("whose customer reference is K-1")
    assert field_locs(twice) == [["body", "file", "line 3", "id"]]
    assert twice.json()["errors"][0]["msg"] == "the same customer reference as line 2"
    assert not EntityMonitoring.objects.exists() and CustomerPerson.objects.count() == 2


def test_an_import_records_a_number_only_for_the_referenced_customers_birth_date(api, config):
    _create(api, config, full_name="Kari Nordmann", birth_date="1986-10-16", customer_reference="K-1")
    rows = [{"id": "K-1", "name": "Kari Nordmann", "national_id": "15108695088", "national_id_country": "NO"}]

    response = post(api, config["uuid"], csv_bytes(rows))

    assert (response.status_code, field_locs(response)) == (400, [["body", "file", "line 2", "national_id"]])
    assert "was born 16.10.1986" in response.json()["errors"][0]["msg"]
