"""An admin removes a wrongly recorded national id of a customer person on the person's page
(POST /screening/customer-persons/<uuid>/national-ids/<uuid>/remove/): only admins whose role grants
national ids, only a number of this person, and the message never repeats the whole number."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from portal.models import Member
from service.audit.models import AuditEvent
from service.screening.models import CustomerPersonNationalIdentification
from tests.conftest import ALL_ROLES, ApiCaller
from tests.portal.conftest import make_member
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.helpers import config_make, customer_person_make, customer_person_url
from tests.screening.helpers import service_down, never_sent

BOTH = ["aml", "person_national_identification"]
NUMBER = "15108695088"


def national_id_make(api, person: dict, number: str = NUMBER) -> dict:
    body = {"national_identification_schema": "NO", "national_identification_number": number}
    response = api.post(customer_person_url(person["uuid"], "/customer-person-national-identification"), body, roles=BOTH)
    assert response.status_code == 201, response.json()
    return response.json()


@pytest.fixture
def kari(org):
    person = customer_person_make(org.api, config_make(org.api)["uuid"], full_name="Kari Nordmann")
    return person, national_id_make(org.api, person)


def _page(person) -> str:
    return f"/screening/customer-persons/{person['uuid']}/"


def _remove(person, national_id) -> str:
    return f"{_page(person)}national-ids/{national_id['uuid']}/remove/"


def _removals() -> list:
    return list(AuditEvent.objects.filter(action_key="customer_person.national_id_remove"))


@pytest.fixture
def nothing_sent(monkeypatch):
    never_sent(monkeypatch, "remove_national_id")


def test_it_removes_a_national_id_and_the_page_no_longer_shows_it(org, admin, kari):
    person, national_id = kari
    response = admin.post(_remove(person, national_id), follow=True)

    page = response.content.decode()
    assert response.redirect_chain == [(_page(person), 302)]
    assert "NO 151086***** removed from Kari Nordmann." in page
    assert NUMBER not in page
    assert CustomerPersonNationalIdentification.objects.count() == 0
    [removed] = _removals()
    assert removed.actor_app_membership_id == org.admin.member.app_membership_uuid
    assert NUMBER not in str([removed.before, removed.after, removed.object_label])


def test_admins_see_a_remove_button_that_asks_first(admin, kari):
    person, national_id = kari
    page = admin.get(_page(person)).content.decode()

    assert f'action="{_remove(person, national_id)}"' in page
    assert 'data-confirm="Remove the national id NO 15108695088 from Kari Nordmann?"' in page
    assert 'aria-label="Remove the national id NO 15108695088"' in page


def test_officers_and_viewers_get_403_see_no_button_and_nothing_is_removed(org, kari):
    person, national_id = kari
    for role in (Member.Role.OFFICER, Member.Role.VIEWER):
        client = org.member(f"m-{role}", role)
        response = client.post(_remove(person, national_id))
        assert response.status_code == 403 and 'data-testid="error-403"' in response.content.decode()
        assert 'data-testid="national-id-remove"' not in client.get(_page(person)).content.decode()
    assert CustomerPersonNationalIdentification.objects.count() == 1
    assert _removals() == []


def test_another_organisations_person_is_404_and_nothing_is_sent(admin, other_org, nothing_sent):
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"], full_name="Olav Fjord")
    their_id = national_id_make(other_org.api, theirs)
    assert admin.post(_remove(theirs, their_id)).status_code == 404
    assert CustomerPersonNationalIdentification.objects.count() == 1


def test_a_number_that_is_not_this_persons_is_404_and_nothing_is_sent(org, admin, kari, nothing_sent):
    person, _ = kari
    per = customer_person_make(org.api, person["screening_config_uuid"], full_name="Per Hansen")
    pers_id = national_id_make(org.api, per, "15108600117")  # another person's record (born the same day)

    for national_id in (pers_id, {"uuid": uuid.uuid4()}):
        response = admin.post(_remove(person, national_id))
        assert response.status_code == 404 and 'data-testid="error-404"' in response.content.decode()
    assert CustomerPersonNationalIdentification.objects.count() == 2
    assert _removals() == []


def test_without_the_national_id_role_an_admin_gets_no_button_and_403(db):
    roles = [key for key in ALL_ROLES if key != "person_national_identification"]
    admin = make_member("Nordbank ASA", "ingrid", roles=roles, role=Member.Role.ADMIN)
    api = ApiCaller(Client(), admin.credentials)
    person = customer_person_make(api, config_make(api)["uuid"], full_name="Kari Nordmann")
    national_id = CustomerPersonNationalIdentification.objects.create(
        customer_person_id=person["uuid"], national_identification_schema="NO", national_identification_number=NUMBER
    )
    client = admin.client()

    page = client.get(_page(person)).content.decode()
    assert 'data-testid="national-id-remove"' not in page and NUMBER not in page
    assert client.post(_remove(person, {"uuid": national_id.uuid})).status_code == 403
    assert CustomerPersonNationalIdentification.objects.count() == 1


def test_an_unreachable_service_is_a_sentence_on_the_page(admin, kari, monkeypatch):
    service_down(monkeypatch, "remove_national_id")
    person, national_id = kari
    response = admin.post(_remove(person, national_id))

    assert response.status_code == 503
    assert (
        '<div class="alert alert-danger py-2" role="alert">NO 151086***** was not removed. '
        "The service could not be reached, so nothing was changed. Try again in a moment.</div>"
    ) in response.content.decode()
    assert CustomerPersonNationalIdentification.objects.count() == 1


def test_a_service_down_before_the_person_is_read_is_the_pages_service_error(admin, kari, monkeypatch):
    service_down(monkeypatch, "customer_person")
    person, national_id = kari
    response = admin.post(_remove(person, national_id))

    assert response.status_code == 503
    assert "The service did not answer: The service could not be reached" in response.content.decode()
    assert CustomerPersonNationalIdentification.objects.count() == 1
