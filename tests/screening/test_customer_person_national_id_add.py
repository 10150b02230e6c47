"""An admin adds a national id to a customer person on the person's page
(POST /screening/customer-persons/<uuid>/national-ids/): the number checked by the service and
shown at the field when refused; only admins whose role grants national ids."""

from __future__ import annotations

import pytest
from django.test import Client

from portal.models import Member
from service.audit.models import AuditEvent
from service.screening.models import CustomerPersonNationalIdentification
from tests.conftest import ALL_ROLES, ApiCaller
from tests.portal.conftest import make_member
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.helpers import config_make, customer_person_make


@pytest.fixture
def kari(org):
    return customer_person_make(org.api, config_make(org.api)["uuid"], full_name="Kari Nordmann")


def _page(person) -> str:
    return f"/screening/customer-persons/{person['uuid']}/"


def _add(person) -> str:
    return f"{_page(person)}national-ids/"


def test_it_adds_a_national_id_and_the_page_shows_it(org, admin, kari):
    response = admin.post(_add(kari), {"national_id_schema": "NO", "national_id_number": "151086 95088"}, follow=True)

    page = response.content.decode()
    assert response.redirect_chain == [(_page(kari), 302)]
    assert "Kari Nordmann&#x27;s national id is added." in page
    assert '<div class="font-monospace">NO 15108695088</div>' in page
    [added] = AuditEvent.objects.filter(action_key="customer_person.national_id_add")
    assert added.actor_app_membership_id == org.admin.member.app_membership_uuid


def test_a_person_without_a_birth_date_takes_the_numbers_and_the_message_says_so(org, admin):
    ola = customer_person_make(org.api, config_make(org.api)["uuid"], full_name="Ola Nordmann", birth_date=None)

    response = admin.post(_add(ola), {"national_id_schema": "NO", "national_id_number": "151086 95088"}, follow=True)

    page = response.content.decode()
    assert "Ola Nordmann&#x27;s national id is added. Their birth date is now the number&#x27;s." in page
    assert "<dd class=\"col-sm-8\">15.10.1986</dd>" in page


def test_a_number_of_someone_born_on_another_day_is_refused_at_the_field(admin, kari):
    response = admin.post(_add(kari), {"national_id_schema": "NO", "national_id_number": "15107100013"})

    assert response.status_code == 200
    assert response.context["national_id_form"].errors == {
        "national_id_number": ["is of someone born 15.10.1971; the person's birth date is 15.10.1986"]
    }
    assert CustomerPersonNationalIdentification.objects.count() == 0


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"national_id_schema": "NO", "national_id_number": "15108695087"}, "national_id_number",
         "the check digits do not match: probably a mistyped digit"),  # the service's words
        ({"national_id_schema": "NO", "national_id_number": ""}, "national_id_number", "This field is required."),
        ({"national_id_schema": "", "national_id_number": "15108695088"}, "national_id_schema", "Say which country issued the number."),
    ],
    ids=["wrong-check-digit", "no-number", "no-country"],
)
def test_a_refused_number_is_shown_at_its_field(admin, kari, fields, field, message):
    response = admin.post(_add(kari), fields)

    assert response.status_code == 200
    errors = response.context["national_id_form"].errors
    assert list(errors) == [field]
    if message:
        assert errors[field] == [message]
    assert f'data-testid="field-error-{field}"' in response.content.decode()
    assert CustomerPersonNationalIdentification.objects.count() == 0


def test_a_number_the_person_has_is_not_added_twice(admin, kari):
    fields = {"national_id_schema": "NO", "national_id_number": "15108695088"}
    admin.post(_add(kari), fields)
    again = admin.post(_add(kari), fields)
    assert again.context["national_id_form"].errors == {"national_id_number": ["this number is already recorded for the person"]}
    assert CustomerPersonNationalIdentification.objects.count() == 1


def test_officers_get_403(org, kari):
    officer = org.member("oline", Member.Role.OFFICER)
    response = officer.post(_add(kari), {"national_id_schema": "NO", "national_id_number": "15108695088"})
    assert response.status_code == 403
    assert 'data-testid="national-id-form"' not in officer.get(_page(kari)).content.decode()
    assert CustomerPersonNationalIdentification.objects.count() == 0


def test_another_organisations_person_is_404_and_nothing_is_written(admin, other_org):
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"], full_name="Olav Fjord")
    response = admin.post(_add(theirs), {"national_id_schema": "NO", "national_id_number": "15108695088"})
    assert response.status_code == 404
    assert CustomerPersonNationalIdentification.objects.count() == 0
    assert not AuditEvent.objects.filter(action_key="customer_person.national_id_add").exists()


def test_without_the_national_id_role_an_admin_gets_no_form_and_403(db):
    roles = [key for key in ALL_ROLES if key != "person_national_identification"]
    admin = make_member("Nordbank ASA", "ingrid", roles=roles, role=Member.Role.ADMIN)
    api = ApiCaller(Client(), admin.credentials)
    kari = customer_person_make(api, config_make(api)["uuid"], full_name="Kari Nordmann")
    client = admin.client()

    page = client.get(_page(kari)).content.decode()
    assert 'data-testid="correct-form"' in page and 'data-testid="national-id-form"' not in page
    assert "National ids need the API role person_national_identification" in page
    assert client.post(_add(kari), {"national_id_schema": "NO", "national_id_number": "15108695088"}).status_code == 403
    assert CustomerPersonNationalIdentification.objects.count() == 0


def test_a_number_another_customer_has_is_refused_naming_them(org, admin, kari):
    per = customer_person_make(org.api, kari["screening_config_uuid"], full_name="Per Hansen", birth_date=None)
    fields = {"national_id_schema": "NO", "national_id_number": "15108695088"}
    assert admin.post(_add(per), fields).status_code == 302

    response = admin.post(_add(kari), {**fields, "national_id_number": "151086 95088"})

    assert response.status_code == 200
    assert response.context["national_id_form"].errors == {
        # Per had no birth date: the number gave them its own.
        "national_id_number": ["This national id is already recorded for Per Hansen, born 15.10.1986."]
    }
    assert f"""href="{_page(per)}" data-testid="held-by-link">Open Per Hansen's page</a>""" in response.content.decode()
    assert CustomerPersonNationalIdentification.objects.count() == 1


def test_while_an_import_writes_the_setup_the_page_says_so_and_nothing_is_added(admin, kari, monkeypatch):
    """The service answers 503 `config_busy` when the setup's lock is held by a large import
    (tests/service/screening/test_config_busy.py): the page gives its sentence, not "could not be reached"."""
    from portal.service import ServiceUnavailable
    from portal.service.screening import ScreeningArea

    detail = ("The screening config is being written by another change, most likely an import of a large file of "
              "customer persons; nothing was done. Try again in a minute.")

    def busy(*args, **kwargs):
        raise ServiceUnavailable(503, "config_busy", detail)

    monkeypatch.setattr(ScreeningArea, "add_national_id", busy)
    response = admin.post(_add(kari), {"national_id_schema": "NO", "national_id_number": "151086 95088"}, follow=True)

    page = response.content.decode()
    assert "most likely an import of a large file of customer persons; nothing was done" in page
    assert "could not be reached" not in page
    assert not CustomerPersonNationalIdentification.objects.exists()
