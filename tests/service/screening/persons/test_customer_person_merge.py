"""POST /v1/customer-person/{uuid}/merge (extension): a second record of one customer merged into the record kept."""

from __future__ import annotations

import uuid

import pytest

from service.audit.models import AuditEvent
from service.screening.models import CustomerPerson, CustomerPersonLocation, CustomerPersonNationalIdentification, EntityMonitoring
from tests.service.screening.helpers import (
    AML,
    config_make,
    config_url,
    customer_person_make,
    customer_person_url,
    field_locs,
    gender_uuid,
    monitoring_body,
    monitoring_make,
    monitorings,
    status_of,
)

BOTH = ["aml", "person_national_identification"]
IDS = "/customer-person-national-identification"
ADDRESSES = "/customer-person-location"
APPROVED = {"approved_flag": True}


def _merge(api, kept, duplicate, roles=BOTH, **body):
    return api.post(customer_person_url(kept["uuid"], "/merge"), {"duplicate_customer_person_uuid": duplicate["uuid"], **body}, roles=roles)


def _address(api, person, **fields):
    body = {"street_address": "Bryggen 5", "postal_code": "5003", "postal_place": "Bergen", "country_code_two": "NO", **fields}
    response = api.post(customer_person_url(person["uuid"], ADDRESSES), body, roles=AML)
    assert response.status_code == 201, response.json()


def _national_id(api, person, number="15108695088"):
    body = {"national_identification_schema": "NO", "national_identification_number": number}
    response = api.post(customer_person_url(person["uuid"], IDS), body, roles=BOTH)
    assert response.status_code == 201, response.json()


def _read(api, person) -> dict:
    return api.get(customer_person_url(person["uuid"]), roles=BOTH).json()


@pytest.fixture
def config(api):
    return config_make(api)


@pytest.fixture
def kept(api, config):
    person = customer_person_make(api, config["uuid"], nationalities=["NO"])
    monitoring_make(api, config["uuid"], customer_person=person["uuid"], decision=APPROVED)
    return person


@pytest.fixture
def duplicate(api, config):
    person = customer_person_make(api, config["uuid"], full_name="KARI  nordmann", customer_reference="K-10231",
                                  nationalities=["NO", "SE"], gender_uuid=None)
    _national_id(api, person)
    _address(api, person)
    monitoring_make(api, config["uuid"], customer_person=person["uuid"], decision=APPROVED)
    return person


def test_it_moves_what_only_the_duplicate_holds_and_stops_its_screening(api, config, kept, duplicate):
    _address(api, kept)  # the same address: stays where it is
    _address(api, duplicate, street_address="Strandgaten 1", postal_code="5013")
    response = _merge(api, kept, duplicate)
    assert response.status_code == 200, response.json()
    answer = response.json()
    assert (answer["dry_run_flag"], answer["customer_reference_moved"]) == (False, "K-10231")
    assert [n["national_identification_number"] for n in answer["national_identifications_moved"]] == ["15108695088"]
    assert [a["street_address"] for a in answer["locations_moved"]] == ["Strandgaten 1"]
    assert answer["nationalities_added"] == ["SE"]
    assert answer["customer_person"]["customer_reference"] == "K-10231"
    assert answer["duplicate_customer_person"]["merged_into_customer_person_uuid"] == kept["uuid"]

    record = _read(api, kept)
    assert record["customer_person"]["customer_reference"] == "K-10231"
    assert record["customer_person"]["nationalities"] == ["NO", "SE"]
    assert record["customer_person"]["monitoring_status_key"] == "active"
    assert [n["national_identification_number"] for n in record["customer_person_national_identifications"]] == ["15108695088"]
    assert sorted(a["street_address"] for a in record["customer_person_locations"]) == ["Bryggen 5", "Strandgaten 1"]

    other = _read(api, duplicate)
    assert other["customer_person"]["customer_reference"] == ""
    assert other["customer_person"]["merged_into_customer_person_uuid"] == kept["uuid"]
    assert other["customer_person"]["merged_timestamp"] is not None
    assert other["customer_person"]["monitoring_status_key"] == "removed"
    assert other["customer_person_national_identifications"] == []
    assert [a["street_address"] for a in other["customer_person_locations"]] == ["Bryggen 5"]
    removed = EntityMonitoring.objects.get(uuid=answer["removed_entity_monitoring_uuid"])
    assert removed.customer_person_id == uuid.UUID(duplicate["uuid"])
    assert removed.removal_reason == (
        f"Merged into the record of the customer person Kari Nordmann, born 15.10.1986 ({kept['uuid']}), "
        "who is screened under that record."
    )


def test_it_gives_the_kept_record_the_duplicates_gender_only_when_it_has_none(api, config):
    kept = customer_person_make(api, config["uuid"], gender_uuid=None)
    duplicate = customer_person_make(api, config["uuid"], gender_uuid=gender_uuid("female"))
    answer = _merge(api, kept, duplicate).json()
    assert (answer["gender_added_key"], answer["customer_person"]["gender_key"]) == ("female", "female")
    third = customer_person_make(api, config["uuid"], gender_uuid=gender_uuid("male"))
    answer = _merge(api, kept, third).json()
    assert (answer["gender_added_key"], answer["customer_person"]["gender_key"]) == (None, "female")


def test_it_screens_the_kept_record_again_when_what_screening_compares_changed(api, config, kept, duplicate, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        assert _merge(api, kept, duplicate).status_code == 200
    assert callbacks, "the kept record's new nationality is screened"


def test_it_audits_each_move_and_the_merge(api, config, kept, duplicate):
    earlier = set(AuditEvent.objects.values_list("pk", flat=True))
    response = _merge(api, kept, duplicate)
    assert response.status_code == 200
    merged = AuditEvent.objects.exclude(pk__in=earlier)
    actions = sorted((str(e.object_uuid) == kept["uuid"], e.action_key) for e in merged)
    assert actions == [
        (False, "customer_person.location_remove"),
        (False, "customer_person.merge"),
        (False, "customer_person.national_id_remove"),
        (False, "customer_person.update"),
        (False, "entity_monitoring.remove"),
        (True, "customer_person.location_add"),
        (True, "customer_person.national_id_add"),
        (True, "customer_person.update"),
    ]
    merge = AuditEvent.objects.get(action_key="customer_person.merge")
    assert merge.after == {"merged_into_customer_person_uuid": kept["uuid"], "merged_into_full_name": "Kari Nordmann"}
    assert not any("15108695088" in str(e.before) + str(e.after) for e in merged)  # never the number


def test_it_never_monitors_a_merged_record_again(api, config, kept, duplicate):
    _merge(api, kept, duplicate)
    response = api.post(config_url(config["uuid"], "/entity-monitoring-composite"),
                        monitoring_body(customer_person=duplicate["uuid"], decision=APPROVED), roles=AML)
    assert response.status_code == 400
    assert response.json()["code"] == "merged"
    assert field_locs(response) == [["body", "entity_monitoring", "monitoring_customer_person_uuid"]]
    assert [status_of(m) for m in monitorings(api, config["uuid"], monitoring_entity_uuid=duplicate["uuid"])] == ["removed"]


def test_an_import_finds_the_customer_as_the_record_kept(api, config, duplicate):
    # The duplicate is the older record; once merged, a file's row of the same name and birth date is the kept one's.
    kept = customer_person_make(api, config["uuid"])
    monitoring_make(api, config["uuid"], customer_person=kept["uuid"], decision=APPROVED)
    _merge(api, kept, duplicate)
    content = b"name,birth_date\nKari Nordmann,1986-10-15\n"
    response = api.client.post(
        config_url(config["uuid"], "/customer-person-import"), {"file": _file(content)}, **api.headers(AML)
    )
    assert response.status_code == 201, response.json()
    row = response.json()["rows"][0]
    assert (row["customer_person_uuid"], row["outcome"]) == (kept["uuid"], "already_monitored")


def _file(content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("customers.csv", content, content_type="text/csv")


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"full_name": "Kari Nordmann Hansen"}, "not_same_customer"),
        ({"birth_date": "1986-10-16"}, "not_same_customer"),
        ({"customer_reference": "K-99999"}, "references_differ"),
    ],
)
def test_it_refuses_two_records_that_could_be_two_people_writing_nothing(api, config, kept, duplicate, change, code):
    assert api.client.patch(customer_person_url(kept["uuid"]), change, content_type="application/json",
                            **api.headers(AML)).status_code == 200
    before = _read(api, duplicate)
    response = _merge(api, kept, duplicate)
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code
    assert field_locs(response) == [["body", "duplicate_customer_person_uuid"]]
    assert _read(api, duplicate) == before
    assert not AuditEvent.objects.filter(action_key="customer_person.merge").exists()


def test_it_refuses_two_different_national_ids_of_one_country(api, config, duplicate):
    kept = customer_person_make(api, config["uuid"])
    monitoring_make(api, config["uuid"], customer_person=kept["uuid"], decision=APPROVED)
    CustomerPersonNationalIdentification.objects.create(  # two twins' numbers would differ like this
        customer_person_id=kept["uuid"], national_identification_schema="NO", national_identification_number="15108695169",
    )
    response = _merge(api, kept, duplicate)
    assert (response.status_code, response.json()["code"]) == (400, "national_ids_differ")
    assert CustomerPersonNationalIdentification.objects.filter(customer_person_id=duplicate["uuid"]).count() == 1


def test_it_refuses_to_leave_the_customer_unscreened(api, config, duplicate):
    pending = customer_person_make(api, config["uuid"])
    monitoring_make(api, config["uuid"], customer_person=pending["uuid"])
    response = _merge(api, pending, duplicate)
    assert (response.status_code, response.json()["code"]) == (400, "kept_not_screened")
    unmonitored = customer_person_make(api, config["uuid"])
    response = _merge(api, unmonitored, duplicate)
    assert (response.status_code, response.json()["code"]) == (400, "kept_not_monitored")
    assert _read(api, duplicate)["customer_person"]["monitoring_status_key"] == "active"


def test_it_refuses_a_record_merged_already_and_the_record_itself(api, config, kept, duplicate):
    assert _merge(api, kept, duplicate).status_code == 200
    response = _merge(api, kept, duplicate)
    assert (response.status_code, response.json()["code"]) == (400, "merged_already")
    response = _merge(api, duplicate, kept)
    assert (response.status_code, response.json()["code"]) == (400, "merged_already")
    response = _merge(api, kept, kept)
    assert (response.status_code, response.json()["code"]) == (400, "same_record")


def test_it_needs_the_national_id_role(api, config, kept, duplicate):
    response = _merge(api, kept, duplicate, roles=AML)
    assert response.status_code == 403
    assert CustomerPerson.objects.get(uuid=duplicate["uuid"]).merged_into_id is None


def test_it_does_not_find_another_configs_or_organisations_records(api, other_api, config, kept):
    second = config_make(api)
    elsewhere = customer_person_make(api, second["uuid"])
    response = _merge(api, kept, elsewhere)
    assert response.status_code == 404
    assert field_locs(response) == [["body", "duplicate_customer_person_uuid"]]
    theirs = customer_person_make(other_api, config_make(other_api)["uuid"])
    assert _merge(api, kept, theirs).status_code == 404
    assert _merge(other_api, kept, theirs).status_code == 404
    assert CustomerPerson.objects.filter(merged_into__isnull=False).count() == 0
    assert CustomerPersonLocation.objects.count() == 0


def test_a_merged_record_takes_no_more_details(api, config, kept, duplicate):
    _merge(api, kept, duplicate)
    writes = [
        api.client.patch(customer_person_url(duplicate["uuid"]), {"customer_reference": "K-1"}, content_type="application/json",
                         **api.headers(AML)),
        api.post(customer_person_url(duplicate["uuid"], IDS),
                 {"national_identification_schema": "SE", "national_identification_number": "861015-0016"}, roles=BOTH),
        api.post(customer_person_url(duplicate["uuid"], ADDRESSES), {"street_address": "Storgata 2"}, roles=AML),
    ]
    for response in writes:
        assert (response.status_code, response.json()["code"]) == (400, "merged"), response.json()
        assert field_locs(response) == [["path", "customer_person_uuid"]]
    other = _read(api, duplicate)
    assert other["customer_person"]["customer_reference"] == ""
    assert other["customer_person_national_identifications"] == []
    assert [a["street_address"] for a in other["customer_person_locations"]] == []


def test_a_dry_run_answers_what_a_merge_would_do_and_writes_nothing(api, config, kept, duplicate, django_capture_on_commit_callbacks):
    before = (_read(api, kept), _read(api, duplicate), AuditEvent.objects.count())
    with django_capture_on_commit_callbacks() as callbacks:
        response = _merge(api, kept, duplicate, dry_run=True)
    assert response.status_code == 200, response.json()
    answer = response.json()
    assert (answer["dry_run_flag"], answer["customer_reference_moved"], answer["nationalities_added"]) == (True, "K-10231", ["SE"])
    assert [n["national_identification_number"] for n in answer["national_identifications_moved"]] == ["15108695088"]
    assert [a["street_address"] for a in answer["locations_moved"]] == ["Bryggen 5"]
    assert answer["duplicate_customer_person"]["merged_into_customer_person_uuid"] == kept["uuid"]
    assert (_read(api, kept), _read(api, duplicate), AuditEvent.objects.count()) == before
    assert callbacks == []  # nothing screened either


def test_a_dry_run_needs_only_aml_and_then_says_nothing_of_national_ids(api, config, duplicate):
    kept = customer_person_make(api, config["uuid"])
    monitoring_make(api, config["uuid"], customer_person=kept["uuid"], decision=APPROVED)
    CustomerPersonNationalIdentification.objects.create(  # another number: two people, which only the role may learn
        customer_person_id=kept["uuid"], national_identification_schema="NO", national_identification_number="15108695169",
    )
    response = _merge(api, kept, duplicate, roles=AML, dry_run=True)
    assert response.status_code == 200, response.json()
    assert response.json()["national_identifications_moved"] is None
    assert [a["street_address"] for a in response.json()["locations_moved"]] == ["Bryggen 5"]
    refused = _merge(api, kept, duplicate, dry_run=True)
    assert (refused.status_code, refused.json()["code"]) == (400, "national_ids_differ")


def test_a_dry_run_says_why_a_merge_would_be_refused(api, config, kept):
    twin = customer_person_make(api, config["uuid"], customer_reference="K-2")
    assert api.client.patch(customer_person_url(kept["uuid"]), {"customer_reference": "K-1"}, content_type="application/json",
                            **api.headers(AML)).status_code == 200
    response = _merge(api, kept, twin, roles=AML, dry_run=True)
    assert (response.status_code, response.json()["code"]) == (400, "references_differ")
    assert "two customers, not one" in response.json()["errors"][0]["msg"]
