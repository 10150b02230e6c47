"""Adding a customer person (name, birth date, gender, national id, address) and monitoring them;
the service's field errors shown at the fields; the person's page."""

from __future__ import annotations

import re

from portal.models import Member
from service.screening.models import CustomerPerson
from tests.screening.setup_helpers import admin, org, other_org, statuses  # noqa: F401
from tests.service.companies.factories import geo_make
from tests.service.screening.helpers import config_make, customer_person_make, gender_uuid

ADD = "/screening/approvals/customer-person/"


def _form(**fields) -> dict:
    return {
        "full_name": "Kari Nordmann",
        "birth_date": "1986-10-15",
        "gender": gender_uuid("female"),
        "national_id_schema": "NO",
        "national_id_number": "151086 95088",
        "street_address": "Storgata 1",
        "postal_code": "0155",
        "postal_place": "Oslo",
        "country_code": "NO",
        "approve": "on",
        **fields,
    }


def test_it_adds_a_person_with_national_id_and_address_and_screens_them(org, admin):
    config = config_make(org.api)
    geo_make(country="NO")
    response = admin.post(ADD, _form(), follow=True)
    assert "Kari Nordmann added as a customer person and is screened from now on." in response.content.decode()
    assert statuses(org, config) == {"Kari Nordmann": "active"}

    person = CustomerPerson.objects.get()
    page = admin.get(f"/screening/customer-persons/{person.uuid}/").content.decode()
    assert "NO 15108695088" in page
    assert "Storgata 1, 0155 Oslo, NO" in page
    assert "Screened" in page


def test_unticked_the_person_waits_for_approval(org, admin):
    config = config_make(org.api)
    response = admin.post(ADD, _form(approve="", national_id_number="", national_id_schema=""), follow=True)
    assert "waits for approval under Pending" in response.content.decode()
    assert statuses(org, config) == {"Kari Nordmann": "pending"}


def test_a_comment_a_person_typed_is_shown_as_typed(org, admin):
    config_make(org.api)
    admin.post(ADD, _form(approve="", national_id_number="", national_id_schema="", comment="Owns 12.5% of Fjord AS, per KYC form"))
    pending = admin.get("/screening/approvals/").content.decode()
    assert "Owns 12.5% of Fjord AS, per KYC form" in pending  # only the service's own reason is reformatted
    monitoring = re.search(r'href="(/screening/monitorings/[0-9a-f-]+/)">Kari Nordmann<', pending).group(1)
    page = admin.get(monitoring).content.decode()
    assert 'data-testid="origin">(added by a person)</span>' in page
    assert "Owns 12.5% of Fjord AS, per KYC form" in page


def test_a_bad_national_id_is_shown_at_its_field_and_the_person_is_not_made_twice(org, admin):
    config = config_make(org.api)
    response = admin.post(ADD, _form(national_id_number="15108695087"))
    assert response.status_code == 200
    form = response.context["person_form"]
    assert list(form.errors) == ["national_id_number", "__all__"]
    assert "Kari Nordmann was saved, but not yet given its national id" in form.errors["__all__"][0]
    kept = form.data["customer_person_uuid"]
    assert 'data-testid="field-error-national_id_number"' in response.content.decode()

    fixed = admin.post(ADD, _form(customer_person_uuid=kept), follow=True)
    assert "added as a customer person" in fixed.content.decode()
    assert CustomerPerson.objects.count() == 1
    assert statuses(org, config) == {"Kari Nordmann": "active"}


def test_a_birth_date_in_the_future_is_the_services_error_at_the_field(org, admin):
    config_make(org.api)
    response = admin.post(ADD, _form(birth_date="2999-01-01"))
    assert response.status_code == 200
    assert response.context["person_form"].errors["birth_date"] == ["must not be in the future"]
    assert CustomerPerson.objects.count() == 0


def test_officers_cannot_add_and_another_organisations_person_is_404(org, other_org, admin):
    config_make(org.api)
    officer = org.member("oline", Member.Role.OFFICER)
    assert officer.post(ADD, _form()).status_code == 403
    assert CustomerPerson.objects.count() == 0
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"])
    assert admin.get(f"/screening/customer-persons/{theirs['uuid']}/").status_code == 404
