"""POST /v1/customer-person/{uuid}/customer-person-location."""

from __future__ import annotations

from service.screening.models import CustomerPersonLocation, PersonLocationType
from tests.service.screening.helpers import AML, config_make, customer_person_make, customer_person_url, field_locs

TAIL = "/customer-person-location"


def test_it_adds_a_location_and_reads_it_with_the_person(api):
    person = customer_person_make(api, config_make(api)["uuid"])
    residence = str(PersonLocationType.objects.get(key="residence").uuid)
    body = {
        "person_location_type_uuid": residence,
        "street_address": "Karl Johans gate 1",
        "postal_code": "0154",
        "postal_place": "Oslo",
        "country_code_two": "no",
        "country_name": "Norway",
    }
    response = api.post(customer_person_url(person["uuid"], TAIL), body, roles=AML)
    assert response.status_code == 201, response.json()
    assert response.json()["country_code_two"] == "NO"
    read = api.get(customer_person_url(person["uuid"]), roles=AML).json()
    assert [(loc["postal_place"], loc["person_location_type_uuid"]) for loc in read["customer_person_locations"]] == [
        ("Oslo", residence)
    ]


def test_it_refuses_a_bad_country_code_and_an_unknown_type(api):
    person = customer_person_make(api, config_make(api)["uuid"])
    for code in ("N1", "XX", "EU", "NOR"):  # not letters; no country; a union; three letters
        bad_code = api.post(customer_person_url(person["uuid"], TAIL), {"country_code_two": code}, roles=AML)
        assert bad_code.status_code == 400, code
        assert field_locs(bad_code) == [["body", "country_code_two"]], code
    unknown = api.post(
        customer_person_url(person["uuid"], TAIL),
        {"person_location_type_uuid": person["uuid"], "postal_place": "Oslo"},
        roles=AML,
    )
    assert unknown.status_code == 404
    assert field_locs(unknown) == [["body", "person_location_type_uuid"]]
    empty = api.post(customer_person_url(person["uuid"], TAIL), {}, roles=AML)
    assert empty.status_code == 400
    assert not CustomerPersonLocation.objects.exists()


def test_it_keeps_another_organisations_person_out_of_reach(api, other_api):
    theirs = customer_person_make(other_api, config_make(other_api)["uuid"])
    assert api.post(customer_person_url(theirs["uuid"], TAIL), {"postal_place": "Oslo"}, roles=AML).status_code == 404
    assert api.get(customer_person_url(theirs["uuid"], TAIL), roles=AML).status_code == 404
    assert not CustomerPersonLocation.objects.exists()
