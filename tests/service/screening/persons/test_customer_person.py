"""POST /v1/screening-config/{uuid}/customer-person and the extension reads."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from dateutil.relativedelta import relativedelta

from django.utils import timezone

from service.screening.models import CustomerPerson
from tests.service.screening.helpers import (
    AML,
    config_make,
    config_url,
    customer_person_make,
    customer_person_url,
    field_locs,
    gender_uuid,
)


def test_it_creates_a_customer_person_and_reads_it_back(api):
    config = config_make(api)
    created = customer_person_make(api, config["uuid"], full_name="  Kari   Nordmann ", screening_config_uuid=config["uuid"])
    assert created["full_name"] == "Kari Nordmann"
    assert created["birth_date"] == "1986-10-15"
    assert created["gender_key"] == "female"
    read = api.get(customer_person_url(created["uuid"]), roles=AML).json()
    assert {key: read["customer_person"][key] for key in created} == created
    # Never monitored: its records are kept five years from the day it was added.
    assert read["customer_person"]["monitoring_status_key"] is None
    assert read["customer_person"]["relationship_ended_timestamp"] == created["create_timestamp"]
    added = datetime.fromisoformat(created["create_timestamp"])
    assert datetime.fromisoformat(read["customer_person"]["retained_until"]) == added + relativedelta(years=5)
    assert read["customer_person_locations"] == []
    listed = api.get(config_url(config["uuid"], "/customer-person"), roles=AML).json()
    assert [p["uuid"] for p in listed] == [created["uuid"]]


def test_it_refuses_a_birth_date_in_the_future_and_a_blank_name_together(api, stopped_clock):
    config = config_make(api)
    tomorrow = (timezone.localdate() + timedelta(days=1)).isoformat()  # still tomorrow when the request checks it
    response = api.post(
        config_url(config["uuid"], "/customer-person"), {"full_name": "  ", "birth_date": tomorrow}, roles=AML
    )
    assert response.status_code == 400
    assert field_locs(response) == [["body", "full_name"], ["body", "birth_date"]]
    assert not CustomerPerson.objects.exists()


def test_it_refuses_an_unknown_gender_naming_the_field(api):
    config = config_make(api)
    response = api.post(
        config_url(config["uuid"], "/customer-person"), {"full_name": "Ola", "gender_uuid": config["uuid"]}, roles=AML
    )
    assert response.status_code == 404
    assert field_locs(response) == [["body", "gender_uuid"]]
    assert not CustomerPerson.objects.exists()


def test_it_refuses_a_malformed_date(api):
    config = config_make(api)
    response = api.post(
        config_url(config["uuid"], "/customer-person"), {"full_name": "Ola", "birth_date": "17.05.1980"}, roles=AML
    )
    assert response.status_code == 400
    assert field_locs(response)[0][-1] == "birth_date"


def test_it_keeps_customer_persons_within_the_organisation(api, other_api):
    theirs = config_make(other_api)
    person = customer_person_make(other_api, theirs["uuid"])
    body = {"full_name": "Ola", "gender_uuid": gender_uuid()}
    assert api.post(config_url(theirs["uuid"], "/customer-person"), body, roles=AML).status_code == 404
    assert api.get(config_url(theirs["uuid"], "/customer-person"), roles=AML).status_code == 404
    assert api.get(customer_person_url(person["uuid"]), roles=AML).status_code == 404
    assert CustomerPerson.objects.count() == 1


def test_it_needs_the_aml_role(api):
    config = config_make(api)
    response = api.post(config_url(config["uuid"], "/customer-person"), {"full_name": "Ola"})
    assert response.status_code == 403
    assert not CustomerPerson.objects.exists()


def test_it_names_the_acting_member_in_the_audit_log_and_refuses_a_stranger(api):
    import uuid

    from service.audit.models import AuditEvent
    from tests.service.screening.cases.steps import member_of

    config = config_make(api)
    anna = member_of(api, "anna@nordbank.no")
    url = config_url(config["uuid"], "/customer-person")

    stranger = api.post(url, {"full_name": "Kari Nordmann", "app_membership_uuid": str(uuid.uuid4())}, roles=AML)
    created = api.post(url, {"full_name": "Kari Nordmann", "app_membership_uuid": anna}, roles=AML)

    assert stranger.status_code == 400 and field_locs(stranger) == [["body", "app_membership_uuid"]]
    assert created.status_code == 201 and CustomerPerson.objects.count() == 1
    event = AuditEvent.objects.get(action_key="customer_person.create")
    assert (str(event.actor_app_membership_id), event.object_label) == (anna, "Kari Nordmann")


def test_it_finds_customer_persons_by_a_part_of_their_name_in_any_case(api):
    config = config_make(api)
    for name in ("Kari Nordmann", "Ola Nordvik", "Per Hansen"):
        customer_person_make(api, config["uuid"], full_name=name)
    url = config_url(config["uuid"], "/customer-person")

    found = api.get(url, {"name_contains": "  NORD "}, roles=AML).json()
    assert [p["full_name"] for p in found] == ["Kari Nordmann", "Ola Nordvik"]
    page = api.get(url, {"name_contains": "nord", "limit": 1, "offset": 1}, roles=AML).json()
    assert [p["full_name"] for p in page] == ["Ola Nordvik"]
    assert len(api.get(url, {"name_contains": " "}, roles=AML).json()) == 3  # blank is no search


def test_it_refuses_a_name_search_over_200_characters(api):
    config = config_make(api)
    response = api.get(config_url(config["uuid"], "/customer-person"), {"name_contains": "a" * 201}, roles=AML)
    assert response.status_code == 400
    assert field_locs(response) == [["query", "name_contains"]]


def test_it_lists_each_person_with_the_status_of_their_monitoring(api):
    from tests.service.screening.helpers import decide, monitoring_make, patch

    config = config_make(api)
    people = {name: customer_person_make(api, config["uuid"], full_name=name)["uuid"] for name in (
        "Anna Active", "Dina Declined", "Nils Never", "Petra Pending", "Rolf Removed", "Rita Returned",
    )}
    monitoring_make(api, config["uuid"], customer_person=people["Anna Active"], decision={"approved_flag": True})
    declined = monitoring_make(api, config["uuid"], customer_person=people["Dina Declined"])
    decide(api, config["uuid"], declined["entity_monitoring"]["uuid"], approved=False, decision_comment="Not a customer")
    monitoring_make(api, config["uuid"], customer_person=people["Petra Pending"])
    for name in ("Rolf Removed", "Rita Returned"):
        first = monitoring_make(api, config["uuid"], customer_person=people[name], decision={"approved_flag": True})
        removal = {"removed_flag": True, "removal_reason": "Customer left"}
        assert patch(api, config_url(config["uuid"], f"/entity-monitoring/{first['entity_monitoring']['uuid']}"), removal).status_code == 200
    monitoring_make(api, config["uuid"], customer_person=people["Rita Returned"])  # monitored again: the new one counts

    listed = api.get(config_url(config["uuid"], "/customer-person"), roles=AML).json()
    assert {p["full_name"]: p["monitoring_status_key"] for p in listed} == {
        "Anna Active": "active", "Dina Declined": "declined", "Nils Never": None,
        "Petra Pending": "pending", "Rolf Removed": "removed", "Rita Returned": "pending",
    }


def test_it_finds_the_person_who_has_a_national_id(api):
    from tests.service.screening.helpers import customer_person_url

    config = config_make(api)
    kari = customer_person_make(api, config["uuid"], full_name="Kari Nordmann")
    customer_person_make(api, config["uuid"], full_name="Ola Nordvik")
    body = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
    both = ["aml", "person_national_identification"]
    assert api.post(customer_person_url(kari["uuid"], "/customer-person-national-identification"), body, roles=both).status_code == 201
    url = config_url(config["uuid"], "/customer-person")

    found = api.get(url, {"national_identification_schema": "no", "national_identification_number": "151086 95088"}, roles=both)
    assert [p["full_name"] for p in found.json()] == ["Kari Nordmann"]  # written otherwise: the same number
    nobody = api.get(url, {"national_identification_schema": "NO", "national_identification_number": "01010100131"}, roles=both)
    assert nobody.status_code == 200 and nobody.json() == []
    # Who has a number is a fact behind the national-id role.
    without = api.get(url, {"national_identification_schema": "NO", "national_identification_number": "15108695088"}, roles=AML)
    assert without.status_code == 403 and "person_national_identification" in without.json()["detail"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"national_identification_schema": "NO"}, "national_identification_number"),
        ({"national_identification_number": "15108695088"}, "national_identification_schema"),
        ({"national_identification_schema": "NO", "national_identification_number": "15108695087"}, "national_identification_number"),
        ({"national_identification_schema": "FI", "national_identification_number": "131052-308T"}, "national_identification_schema"),
    ],
    ids=["no-number", "no-schema", "bad-check-digit", "unknown-schema"],
)
def test_a_national_id_search_names_the_query_field_that_is_wrong(api, params, field):
    config = config_make(api)
    response = api.get(config_url(config["uuid"], "/customer-person"), params, roles=["aml", "person_national_identification"])
    assert response.status_code == 400
    assert field_locs(response) == [["query", field]]
