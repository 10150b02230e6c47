"""An admin removes a wrong or old address of a customer person on the person's page
(POST /screening/customer-persons/<uuid>/addresses/<uuid>/remove/): only admins, only an address of
this person, one call with the acting member for the audit log."""

from __future__ import annotations

import uuid

import pytest

from portal.models import Member
from portal.service import ServiceNotFound
from portal.service.screening import ScreeningArea
from service.audit.models import AuditEvent
from service.screening.models import CustomerPersonLocation
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.companies.factories import geo_make
from tests.service.screening.helpers import AML, config_make, customer_person_make, customer_person_url
from tests.screening.helpers import service_down, never_sent

STORGATA = {"street_address": "Storgata 1", "postal_code": "0155", "postal_place": "Oslo", "country_code_two": "NO"}
BRYGGEN = {"street_address": "Bryggen 5", "postal_code": "5003", "postal_place": "Bergen", "country_code_two": "NO"}


def location_make(api, person: dict, address: dict) -> dict:
    response = api.post(customer_person_url(person["uuid"], "/customer-person-location"), address, roles=AML)
    assert response.status_code == 201, response.json()
    return response.json()


@pytest.fixture
def kari(org):
    geo_make(country="NO")
    person = customer_person_make(org.api, config_make(org.api)["uuid"], full_name="Kari Nordmann")
    return person, location_make(org.api, person, STORGATA), location_make(org.api, person, BRYGGEN)


def _page(person) -> str:
    return f"/screening/customer-persons/{person['uuid']}/"


def _remove(person, location) -> str:
    return f"{_page(person)}addresses/{location['uuid']}/remove/"


def _removals() -> list:
    return list(AuditEvent.objects.filter(action_key="customer_person.location_remove"))


@pytest.fixture
def nothing_sent(monkeypatch):
    never_sent(monkeypatch, "remove_location")


def test_it_removes_the_address_and_the_page_shows_only_the_other(org, admin, kari):
    person, storgata, bryggen = kari
    response = admin.post(_remove(person, storgata), follow=True)

    page = response.content.decode()
    assert response.redirect_chain == [(_page(person), 302)]
    assert "The address Storgata 1, 0155 Oslo, NO is removed from Kari Nordmann." in page
    assert "<div>Storgata 1, 0155 Oslo, NO</div>" not in page
    assert "<div>Bryggen 5, 5003 Bergen, NO</div>" in page
    assert list(CustomerPersonLocation.objects.values_list("uuid", flat=True)) == [uuid.UUID(bryggen["uuid"])]
    [removed] = _removals()
    assert removed.actor_app_membership_id == org.admin.member.app_membership_uuid


def test_admins_see_a_remove_button_beside_each_address_that_asks_first(admin, kari):
    person, storgata, bryggen = kari
    page = admin.get(_page(person)).content.decode()

    for location in (storgata, bryggen):
        assert f'action="{_remove(person, location)}"' in page
    assert 'data-confirm="Remove the address Storgata 1, 0155 Oslo, NO from Kari Nordmann?"' in page
    assert 'aria-label="Remove the address Bryggen 5, 5003 Bergen, NO"' in page


def test_officers_and_viewers_get_403_see_no_button_and_nothing_is_removed(org, kari):
    person, storgata, _ = kari
    for role in (Member.Role.OFFICER, Member.Role.VIEWER):
        client = org.member(f"m-{role}", role)
        response = client.post(_remove(person, storgata))
        assert response.status_code == 403 and 'data-testid="error-403"' in response.content.decode()
        page = client.get(_page(person)).content.decode()
        assert "<div>Storgata 1, 0155 Oslo, NO</div>" in page and 'data-testid="address-remove"' not in page
    assert CustomerPersonLocation.objects.count() == 2
    assert _removals() == []


def test_another_organisations_person_is_404_and_nothing_is_sent(admin, other_org, nothing_sent):
    geo_make(country="NO")
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"], full_name="Olav Fjord")
    their_address = location_make(other_org.api, theirs, STORGATA)
    assert admin.post(_remove(theirs, their_address)).status_code == 404
    assert CustomerPersonLocation.objects.count() == 1


def test_an_address_that_is_not_this_persons_is_404_and_nothing_is_sent(org, admin, kari, nothing_sent):
    person, _, _ = kari
    per = customer_person_make(org.api, person["screening_config_uuid"], full_name="Per Hansen")
    pers_address = location_make(org.api, per, STORGATA)

    for location in (pers_address, {"uuid": uuid.uuid4()}):
        response = admin.post(_remove(person, location))
        assert response.status_code == 404 and 'data-testid="error-404"' in response.content.decode()
    assert CustomerPersonLocation.objects.count() == 3
    assert _removals() == []


def test_an_unreachable_service_is_a_sentence_on_the_page(admin, kari, monkeypatch):
    service_down(monkeypatch, "remove_location")
    person, storgata, _ = kari
    response = admin.post(_remove(person, storgata))

    assert response.status_code == 503
    assert (
        '<div class="alert alert-danger py-2" role="alert">The address Storgata 1, 0155 Oslo, NO was not removed. '
        "The service could not be reached, so nothing was changed. Try again in a moment.</div>"
    ) in response.content.decode()
    assert CustomerPersonLocation.objects.count() == 2


def test_an_address_removed_in_the_meantime_says_so(admin, kari, monkeypatch):
    def gone(*args, **kwargs):
        raise ServiceNotFound(404, "not_found", "location not found")

    monkeypatch.setattr(ScreeningArea, "remove_location", gone)
    person, storgata, _ = kari
    response = admin.post(_remove(person, storgata), follow=True)

    assert response.redirect_chain == [(_page(person), 302)]  # the page read again shows what is
    assert (
        "The address Storgata 1, 0155 Oslo, NO was not removed. Not found: it may have been deleted in the meantime."
    ) in response.content.decode()


def test_a_service_down_before_the_person_is_read_is_the_pages_service_error(admin, kari, monkeypatch):
    service_down(monkeypatch, "customer_person")
    person, storgata, _ = kari
    response = admin.post(_remove(person, storgata))

    assert response.status_code == 503
    assert "The service did not answer: The service could not be reached" in response.content.decode()
    assert CustomerPersonLocation.objects.count() == 2
