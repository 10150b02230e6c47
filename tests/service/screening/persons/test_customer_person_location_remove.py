"""DELETE /v1/customer-person/{uuid}/customer-person-location/{uuid} (extension): removing an address."""

from __future__ import annotations

from service.audit.models import AuditEvent
from service.screening.models import CustomerPersonLocation
from tests.service.screening.helpers import AML, config_make, customer_person_make, customer_person_url, delete, field_locs

TAIL = "/customer-person-location"


def _person_with_address(caller) -> tuple[dict, dict]:
    person = customer_person_make(caller, config_make(caller)["uuid"])
    body = {"street_address": "Storgata 1", "postal_code": "0155", "postal_place": "Oslo", "country_code_two": "NO"}
    response = caller.post(customer_person_url(person["uuid"], TAIL), body, roles=AML)
    assert response.status_code == 201, response.json()
    return person, response.json()


def test_it_removes_the_address_and_records_it(api):
    person, address = _person_with_address(api)

    response = delete(api, customer_person_url(person["uuid"], f"{TAIL}/{address['uuid']}"))

    assert response.status_code == 204
    assert api.get(customer_person_url(person["uuid"]), roles=AML).json()["customer_person_locations"] == []
    event = AuditEvent.objects.get(action_key="customer_person.location_remove")
    assert (event.before, event.after) == ({"postal_place": "Oslo", "country_code_two": "NO"}, None)


def test_it_refuses_another_persons_address_through_this_person(api):
    person, _ = _person_with_address(api)
    _, address = _person_with_address(api)
    response = delete(api, customer_person_url(person["uuid"], f"{TAIL}/{address['uuid']}"))
    assert response.status_code == 404
    assert field_locs(response) == [["path", "customer_person_location_uuid"]]
    assert CustomerPersonLocation.objects.count() == 2


def test_it_keeps_another_organisations_addresses_out_of_reach(api, other_api):
    person, address = _person_with_address(other_api)
    assert delete(api, customer_person_url(person["uuid"], f"{TAIL}/{address['uuid']}")).status_code == 404
    assert CustomerPersonLocation.objects.count() == 1


def test_it_needs_the_aml_role(api):
    person, address = _person_with_address(api)
    assert delete(api, customer_person_url(person["uuid"], f"{TAIL}/{address['uuid']}"), roles=[]).status_code == 403
    assert CustomerPersonLocation.objects.count() == 1
