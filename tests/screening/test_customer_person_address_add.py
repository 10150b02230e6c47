"""An admin adds an address to a customer person on the person's page
(POST /screening/customer-persons/<uuid>/addresses/): the same fields as the approvals form,
the service's complaints at the fields, an address the person has is not added twice."""

from __future__ import annotations

import pytest

from portal.models import Member
from service.audit.models import AuditEvent
from service.screening.models import CustomerPersonLocation
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.companies.factories import geo_make
from tests.service.screening.helpers import config_make, customer_person_make

ADDRESS = {"street_address": "Storgata 1", "postal_code": "0155", "postal_place": "Oslo", "country_code": "no"}


@pytest.fixture
def kari(org):
    geo_make(country="NO")
    return customer_person_make(org.api, config_make(org.api)["uuid"], full_name="Kari Nordmann")


def _page(person) -> str:
    return f"/screening/customer-persons/{person['uuid']}/"


def _add(person) -> str:
    return f"{_page(person)}addresses/"


def test_it_adds_an_address_and_the_page_shows_it(org, admin, kari):
    response = admin.post(_add(kari), ADDRESS, follow=True)

    page = response.content.decode()
    assert response.redirect_chain == [(_page(kari), 302)]
    assert "Kari Nordmann&#x27;s address is added." in page
    assert "<div>Storgata 1, 0155 Oslo, NO</div>" in page
    assert CustomerPersonLocation.objects.get().person_location_type.key == "residence"  # as the approvals form adds it
    [added] = AuditEvent.objects.filter(action_key="customer_person.location_add")
    assert added.actor_app_membership_id == org.admin.member.app_membership_uuid


def test_the_same_address_again_is_not_added_twice(admin, kari):
    admin.post(_add(kari), ADDRESS)
    again = admin.post(_add(kari), ADDRESS)
    assert again.status_code == 200
    assert again.context["address_form"].non_field_errors() == ["Kari Nordmann already has this address."]
    assert CustomerPersonLocation.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"country_code": "N1"}, "country_code", None),  # two characters for the form, not letters for the service
        ({key: "" for key in ADDRESS}, "street_address", "Fill in the address, or at least a place or a country."),
    ],
    ids=["country-not-letters", "empty"],
)
def test_a_refused_address_is_shown_at_the_field(admin, kari, fields, field, message):
    response = admin.post(_add(kari), {**ADDRESS, **fields})
    assert response.status_code == 200
    errors = response.context["address_form"].errors
    assert list(errors) == [field]
    if message:
        assert errors[field] == [message]
    assert f'data-testid="field-error-{field}"' in response.content.decode()
    assert CustomerPersonLocation.objects.count() == 0


def test_officers_get_403(org, kari):
    officer = org.member("oline", Member.Role.OFFICER)
    assert officer.post(_add(kari), ADDRESS).status_code == 403
    assert 'data-testid="address-form"' not in officer.get(_page(kari)).content.decode()
    assert CustomerPersonLocation.objects.count() == 0


def test_another_organisations_person_is_404_and_nothing_is_written(admin, other_org):
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"], full_name="Olav Fjord")
    assert admin.post(_add(theirs), ADDRESS).status_code == 404
    assert CustomerPersonLocation.objects.count() == 0
