"""PATCH /v1/customer-person/{uuid} (extension): correcting a customer person's details."""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.utils import timezone

from service.audit.models import AuditEvent
from service.screening.models import CustomerPerson
from tests.service.screening.helpers import (
    AML,
    config_make,
    customer_person_make,
    customer_person_url,
    field_locs,
    gender_uuid,
    patch,
)


def _person(api) -> dict:
    config = config_make(api)
    return customer_person_make(api, config["uuid"], full_name="Kari Nordmann", birth_date="1980-05-17")


def test_it_corrects_only_the_fields_sent(api):
    person = _person(api)
    updated_before = CustomerPerson.objects.get(uuid=person["uuid"]).update_timestamp
    response = patch(api, customer_person_url(person["uuid"]), {"full_name": "  Kari   Hansen "})
    assert response.status_code == 200, response.json()
    corrected = response.json()
    assert corrected["full_name"] == "Kari Hansen"
    assert corrected["birth_date"] == "1980-05-17"
    assert corrected["gender_key"] == "female"
    read = api.get(customer_person_url(person["uuid"]), roles=AML).json()["customer_person"]
    assert {key: read[key] for key in corrected} == corrected
    assert CustomerPerson.objects.get(uuid=person["uuid"]).update_timestamp > updated_before  # when last corrected


def test_it_clears_a_birth_date_and_a_gender_sent_as_null(api):
    person = _person(api)
    response = patch(api, customer_person_url(person["uuid"]), {"birth_date": None, "gender_uuid": None})
    assert response.status_code == 200, response.json()
    assert (response.json()["birth_date"], response.json()["gender_key"]) == (None, None)
    response = patch(api, customer_person_url(person["uuid"]), {"birth_date": "1979-12-31", "gender_uuid": gender_uuid("male")})
    assert (response.json()["birth_date"], response.json()["gender_key"]) == ("1979-12-31", "male")


def test_it_records_the_correction_with_before_and_after_in_the_audit_log(api):
    person = _person(api)
    patch(api, customer_person_url(person["uuid"]), {"full_name": "Kari Hansen", "birth_date": "1980-05-17"})
    event = AuditEvent.objects.get(action_key="customer_person.update")
    assert event.object_uuid == uuid.UUID(person["uuid"])
    assert event.object_label == "Kari Hansen"
    # Only what changed: the birth date was sent but is the same.
    assert (event.before, event.after) == ({"full_name": "Kari Nordmann"}, {"full_name": "Kari Hansen"})


def test_it_records_nothing_when_nothing_changes(api):
    person = _person(api)
    response = patch(api, customer_person_url(person["uuid"]), {"full_name": "Kari Nordmann"})
    assert response.status_code == 200
    assert not AuditEvent.objects.filter(action_key="customer_person.update").exists()


def test_it_refuses_a_blank_name_and_a_future_birth_date_together_writing_nothing(api, stopped_clock):
    person = _person(api)
    tomorrow = (timezone.localdate() + timedelta(days=1)).isoformat()
    response = patch(api, customer_person_url(person["uuid"]), {"full_name": " ", "birth_date": tomorrow})
    assert response.status_code == 400
    assert field_locs(response) == [["body", "full_name"], ["body", "birth_date"]]
    stored = CustomerPerson.objects.get(uuid=person["uuid"])
    assert (stored.full_name, str(stored.birth_date)) == ("Kari Nordmann", "1980-05-17")


def test_it_refuses_a_null_name(api):
    person = _person(api)
    response = patch(api, customer_person_url(person["uuid"]), {"full_name": None})
    assert response.status_code == 400
    assert field_locs(response) == [["body", "full_name"]]


def test_it_refuses_a_body_with_nothing_to_change(api):
    person = _person(api)
    response = patch(api, customer_person_url(person["uuid"]), {"app_membership_uuid": None})
    assert response.status_code == 400
    assert field_locs(response) == [["body"]]
    assert "full_name" in response.json()["errors"][0]["msg"]


def test_it_refuses_an_unknown_gender_naming_the_field_writing_nothing(api):
    person = _person(api)
    response = patch(api, customer_person_url(person["uuid"]), {"full_name": "Kari Hansen", "gender_uuid": str(uuid.uuid4())})
    assert response.status_code == 404
    assert field_locs(response) == [["body", "gender_uuid"]]
    assert CustomerPerson.objects.get(uuid=person["uuid"]).full_name == "Kari Nordmann"


def test_it_refuses_a_malformed_birth_date(api):
    person = _person(api)
    response = patch(api, customer_person_url(person["uuid"]), {"birth_date": "17.05.1980"})
    assert response.status_code == 400
    assert field_locs(response)[0][-1] == "birth_date"


def test_it_keeps_another_organisations_person_out_of_reach(api, other_api):
    theirs = _person(other_api)
    response = patch(api, customer_person_url(theirs["uuid"]), {"full_name": "Taken Over"})
    assert response.status_code == 404
    assert CustomerPerson.objects.get(uuid=theirs["uuid"]).full_name == "Kari Nordmann"


def test_it_needs_the_aml_role(api):
    person = _person(api)
    response = patch(api, customer_person_url(person["uuid"]), {"full_name": "Kari Hansen"}, roles=[])
    assert response.status_code == 403
    assert CustomerPerson.objects.get(uuid=person["uuid"]).full_name == "Kari Nordmann"
