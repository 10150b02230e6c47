"""A customer person's nationalities (extension): countries' two letters, on create, read and
correction, checked as a location's country is, audited like the other details."""

from __future__ import annotations

from service.audit.models import AuditEvent
from service.screening.models import CustomerPerson
from tests.service.screening.helpers import (
    AML,
    config_make,
    config_url,
    customer_person_make,
    customer_person_url,
    field_locs,
    patch,
)


def test_it_creates_a_person_with_nationalities_and_reads_them_back_upper_case_each_once(api):
    config = config_make(api)

    created = customer_person_make(api, config["uuid"], nationalities=["no", " SE", "NO", "sj"])

    assert created["nationalities"] == ["NO", "SE", "SJ"]  # Svalbard is a territory of its own
    read = api.get(customer_person_url(created["uuid"]), roles=AML).json()["customer_person"]
    assert read["nationalities"] == ["NO", "SE", "SJ"]
    [listed] = api.get(config_url(config["uuid"], "/customer-person"), roles=AML).json()
    assert listed["nationalities"] == ["NO", "SE", "SJ"]
    [created_event] = AuditEvent.objects.filter(action_key="customer_person.create")
    assert created_event.after["nationalities"] == ["NO", "SE", "SJ"]


def test_a_person_without_nationalities_has_an_empty_list(api):
    created = customer_person_make(api, config_make(api)["uuid"])
    assert created["nationalities"] == []


def test_it_refuses_what_is_not_a_country_naming_the_field_and_saves_nothing(api):
    config = config_make(api)
    body = {"full_name": "Kari Nordmann", "nationalities": ["NO", "XX", "EU"]}

    response = api.post(config_url(config["uuid"], "/customer-person"), body, roles=AML)

    assert response.status_code == 400
    assert field_locs(response) == [["body", "nationalities"]]
    assert response.json()["errors"][0]["msg"] == (
        "XX, EU are not countries: give each country's two letters (ISO 3166-1 alpha-2), e.g. NO"
    )
    assert not CustomerPerson.objects.exists()


def test_it_corrects_the_nationalities_and_records_before_and_after(api):
    person = customer_person_make(api, config_make(api)["uuid"], nationalities=["NO"])

    response = patch(api, customer_person_url(person["uuid"]), {"nationalities": ["no", "ru"]})

    assert response.status_code == 200, response.json()
    assert response.json()["nationalities"] == ["NO", "RU"]
    [event] = AuditEvent.objects.filter(action_key="customer_person.update")
    assert (event.before, event.after) == ({"nationalities": ["NO"]}, {"nationalities": ["NO", "RU"]})
    cleared = patch(api, customer_person_url(person["uuid"]), {"nationalities": None})
    assert cleared.json()["nationalities"] == []


def test_a_correction_to_what_is_not_a_country_changes_nothing(api):
    person = customer_person_make(api, config_make(api)["uuid"], nationalities=["NO"])

    response = patch(api, customer_person_url(person["uuid"]), {"full_name": "Kari Hansen", "nationalities": ["Norway"]})

    assert response.status_code == 400
    assert field_locs(response) == [["body", "nationalities"]]
    unchanged = CustomerPerson.objects.get(uuid=person["uuid"])
    assert (unchanged.full_name, unchanged.nationalities) == ("Kari Nordmann", ["NO"])


def test_the_openapi_marks_the_field_as_an_extension(api):
    schemas = api.get("/analysis/openapi.json").json()["components"]["schemas"]
    for name in ("CustomerPersonIn", "CustomerPersonPatch", "CustomerPersonOut"):
        assert schemas[name]["properties"]["nationalities"]["x-vakt-extension"] is True, name
