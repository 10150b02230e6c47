"""A correction of a customer person's details screens them again at once (PATCH
/v1/customer-person/{uuid}): the new details meet every current list entry, as on approval,
without waiting for the weekly full re-screen. Cases raised on the old details stay."""

from __future__ import annotations

from service.screening.models import EntityMonitoring, ScreeningCase
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import config_with, customer_person_screened
from tests.service.screening.helpers import customer_person_make, customer_person_url, monitoring_make, patch


def _cases(config) -> list[tuple[str, str]]:
    return sorted(
        (c.entity_inquiry.customer_person.full_name, c.list_source_id)
        for c in ScreeningCase.objects.filter(screening_config_id=config["uuid"]).select_related("entity_inquiry__customer_person")
    )


def test_it_raises_a_case_when_a_screened_persons_name_is_corrected_to_a_listed_one(api, lists):
    config = config_with(api, "un_security_council")
    monitoring = customer_person_screened(api, config["uuid"], "Ivan Petrov", "1966-03-14")
    assert _cases(config) == []

    person_uuid = monitoring["entity_monitoring"]["monitoring_customer_person_uuid"]
    response = patch(api, customer_person_url(person_uuid), {"full_name": UN_PERSON})
    assert response.status_code == 200, response.json()

    assert _cases(config) == [(UN_PERSON, "KPi.901")]
    owed = EntityMonitoring.objects.get(uuid=monitoring["entity_monitoring"]["uuid"]).screening_owed_timestamp
    assert owed is None  # the screening it owed has run


def test_it_keeps_the_case_raised_on_the_old_details_with_the_name_that_was_compared(api, lists):
    config = config_with(api, "un_security_council")
    monitoring = customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")
    [case] = ScreeningCase.objects.filter(screening_config_id=config["uuid"])

    person_uuid = monitoring["entity_monitoring"]["monitoring_customer_person_uuid"]
    assert patch(api, customer_person_url(person_uuid), {"full_name": "Kari Nordmann", "birth_date": "1980-05-17"}).status_code == 200

    [kept] = ScreeningCase.objects.filter(screening_config_id=config["uuid"])
    assert kept.uuid == case.uuid and kept.case_status_key == case.case_status_key
    assert kept.explanation["query_name"] == UN_PERSON  # what was compared when it was raised


def test_it_does_not_screen_a_person_whose_monitoring_waits_for_a_decision(api, lists):
    config = config_with(api, "un_security_council")
    person = customer_person_make(api, config["uuid"], full_name="Ivan Petrov", birth_date="1966-03-14", gender_uuid=None)
    monitoring_make(api, config["uuid"], customer_person=person["uuid"])  # pending: rule 4, not screened

    assert patch(api, customer_person_url(person["uuid"]), {"full_name": UN_PERSON}).status_code == 200

    assert _cases(config) == []
