"""A customer person through the HTTP API, from config to active monitoring (rule 4: only
an approved monitoring puts a customer person into screening)."""

from __future__ import annotations

from service.auth.models import AppCustomer
from service.auth.services import app_membership_create
from service.screening.models import ScreeningConfig
from service.screening.monitoring_selectors import monitorings_screened
from tests.service.screening.helpers import (
    AML,
    category_uuid,
    config_make,
    config_url,
    customer_person_make,
    customer_person_url,
    decide,
    monitoring_make,
    monitorings,
    status_of,
)


def _screened(config_uuid) -> set[str]:
    config = ScreeningConfig.objects.get(uuid=config_uuid)
    return {str(m.customer_person_id) for m in monitorings_screened(screening_config=config)}


def test_it_screens_a_customer_person_only_after_an_approving_decision(api):
    config = config_make(api)
    selected = api.post(
        config_url(config["uuid"], "/screening-config-screening-list-category"),
        {"screening_list_category_uuid": category_uuid("un_security_council")},
        roles=AML,
    )
    assert selected.status_code == 201
    person = customer_person_make(api, config["uuid"], full_name="Ivan Petrov", birth_date="1970-01-02")
    national_id = api.post(
        customer_person_url(person["uuid"], "/customer-person-national-identification"),
        {"national_identification_schema": "NO", "national_identification_number": "02017010290"},  # born 02.01.1970
        roles=["aml", "person_national_identification"],
    )
    assert national_id.status_code == 201
    location = api.post(customer_person_url(person["uuid"], "/customer-person-location"), {"postal_place": "Oslo", "country_code_two": "NO"}, roles=AML)
    assert location.status_code == 201
    assert _screened(config["uuid"]) == set()  # a customer person alone is never screened

    pending = monitoring_make(api, config["uuid"], customer_person=person["uuid"], monitoring_comment="Private banking customer")
    assert status_of(pending) == "pending"
    assert _screened(config["uuid"]) == set()

    officer = app_membership_create(app_customer=AppCustomer.objects.get(uuid=api.app_customer_uuid), email="aml@nordbank.no")
    approved = decide(api, config["uuid"], pending["entity_monitoring"]["uuid"], app_membership_uuid=str(officer.uuid))
    assert status_of(approved.json()) == "active"
    listed = monitorings(api, config["uuid"], no_related_company_flag="true", approval_status_key="active")
    assert [m["entity_monitoring"]["monitoring_customer_person_uuid"] for m in listed] == [person["uuid"]]
    assert _screened(config["uuid"]) == {person["uuid"]}
