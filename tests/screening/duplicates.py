"""Two records of one customer, for the customer person page's duplicate tests (stop and merge)."""

from __future__ import annotations

import pytest

from tests.service.companies.factories import geo_make
from tests.service.screening.helpers import config_make, customer_person_make, customer_person_url, monitoring_make, patch


@pytest.fixture
def twins(org):
    """Kari Nordmann added twice, both screened; and another Kari, born another day."""
    config = config_make(org.api)["uuid"]
    kept, twin = (customer_person_make(org.api, config, full_name=name, birth_date="1986-10-15")
                  for name in ("Kari Nordmann", "KARI  nordmann"))
    for person in (kept, twin):
        monitoring_make(org.api, config, customer_person=person["uuid"], decision={"approved_flag": True})
    other = customer_person_make(org.api, config, full_name="Kari Nordmann", birth_date="1990-01-01")
    return kept["uuid"], twin["uuid"], other["uuid"]


def _give(api, person_uuid, path: str, body: dict) -> None:
    response = api.post(customer_person_url(person_uuid, path), body, roles=["aml", "person_national_identification"])
    assert response.status_code == 201, response.json()


STORGATA = {"street_address": "Storgata 1", "postal_code": "0155", "postal_place": "Oslo", "country_code_two": "NO"}
BRYGGEN = {"street_address": "Bryggen 5", "postal_code": "5003", "postal_place": "Bergen", "country_code_two": "NO"}


@pytest.fixture
def twin_knows_more(org, twins):
    """The duplicate holds a national id, an address and the customer reference the record kept lacks;
    both have Storgata 1."""
    kept, twin, _ = twins
    geo_make(country="NO")
    for person in (kept, twin):
        _give(org.api, person, "/customer-person-location", STORGATA)
    _give(org.api, twin, "/customer-person-location", BRYGGEN)
    _give(org.api, twin, "/customer-person-national-identification",
          {"national_identification_schema": "NO", "national_identification_number": "15108695088"})
    assert patch(org.api, customer_person_url(twin), {"customer_reference": "K-10231"}).status_code == 200
    return kept, twin


