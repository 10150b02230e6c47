"""DELETE /v1/customer-person/{uuid}/customer-person-national-identification/{uuid} (extension):
removing a wrongly recorded number."""

from __future__ import annotations

import uuid

import pytest

from service.audit.models import AuditEvent
from service.screening.models import CustomerPersonNationalIdentification
from tests.service.screening.cases.steps import member_of
from tests.service.screening.helpers import config_make, customer_person_make, customer_person_url, delete, field_locs

TAIL = "/customer-person-national-identification"
BOTH = ["aml", "person_national_identification"]


def _person_with_number(caller) -> tuple[dict, dict]:
    person = customer_person_make(caller, config_make(caller)["uuid"])
    body = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
    response = caller.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH)
    assert response.status_code == 201, response.json()
    return person, response.json()


def _url(person: dict, number: dict) -> str:
    return customer_person_url(person["uuid"], f"{TAIL}/{number['uuid']}")


def test_it_removes_the_number_and_records_the_schema_but_never_the_number(api):
    person, number = _person_with_number(api)
    anna = member_of(api, "anna@nordbank.no")

    response = delete(api, _url(person, number) + f"?app_membership_uuid={anna}", roles=BOTH)

    assert response.status_code == 204
    assert api.get(customer_person_url(person["uuid"], TAIL), roles=BOTH).json() == []
    event = AuditEvent.objects.get(action_key="customer_person.national_id_remove")
    assert (event.before, event.after, event.actor_email) == ({"national_identification_schema": "NO"}, None, "anna@nordbank.no")
    assert "15108695088" not in str(event.before)
    # The same number can be recorded again, as after any mistake.
    again = api.post(customer_person_url(person["uuid"], TAIL), {"national_identification_schema": "NO", "national_identification_number": "15108695088"}, roles=BOTH)
    assert again.status_code == 201


def test_it_says_a_number_removed_already_is_gone(api):
    person, number = _person_with_number(api)
    assert delete(api, _url(person, number), roles=BOTH).status_code == 204

    response = delete(api, _url(person, number), roles=BOTH)
    assert response.status_code == 404
    assert field_locs(response) == [["path", "national_identification_uuid"]]
    assert AuditEvent.objects.filter(action_key="customer_person.national_id_remove").count() == 1


@pytest.mark.parametrize("roles", [["aml"], ["person_national_identification"]], ids=["without-national-id-role", "without-aml"])
def test_it_needs_both_roles(api, roles):
    person, number = _person_with_number(api)
    assert delete(api, _url(person, number), roles=roles).status_code == 403
    assert CustomerPersonNationalIdentification.objects.count() == 1


def test_it_refuses_another_persons_number_through_this_person(api):
    person, _ = _person_with_number(api)
    other, number = _person_with_number(api)
    response = delete(api, customer_person_url(person["uuid"], f"{TAIL}/{number['uuid']}"), roles=BOTH)
    assert response.status_code == 404
    assert field_locs(response) == [["path", "national_identification_uuid"]]
    assert CustomerPersonNationalIdentification.objects.count() == 2


def test_it_keeps_another_organisations_numbers_out_of_reach(api, other_api):
    person, number = _person_with_number(other_api)
    assert delete(api, _url(person, number), roles=BOTH).status_code == 404
    assert CustomerPersonNationalIdentification.objects.count() == 1


def test_it_refuses_an_unknown_acting_member_removing_nothing(api):
    person, number = _person_with_number(api)
    response = delete(api, _url(person, number) + f"?app_membership_uuid={uuid.uuid4()}", roles=BOTH)
    assert response.status_code == 400
    assert field_locs(response) == [["query", "app_membership_uuid"]]
    assert CustomerPersonNationalIdentification.objects.count() == 1
