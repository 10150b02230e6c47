"""An admin corrects a customer person's name, birth date or gender on the person's page
(POST /screening/customer-persons/<uuid>/correct/): the service's field errors at the fields,
nothing sent when nothing changed, a screened person screened again at once."""

from __future__ import annotations

import re

import pytest

from portal.models import Member
from service.audit.models import AuditEvent
from service.screening.models import CustomerPerson, ScreeningCase
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.cases.conftest import PEP_PERSON
from tests.service.screening.cases.steps import customer_person_screened
from tests.service.screening.helpers import config_make, customer_person_make, gender_uuid
from tests.screening.helpers import service_down, never_sent


def _page(person) -> str:
    return f"/screening/customer-persons/{person['uuid']}/"


def _correct(person) -> str:
    return f"{_page(person)}correct/"


@pytest.fixture
def kari(org):
    config = config_make(org.api)
    return customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", birth_date="1986-10-15", gender_uuid=gender_uuid("female"))


def _form(**fields) -> dict:
    return {"full_name": "Kari Nordmann", "birth_date": "15.10.1986", "gender": gender_uuid("female"), **fields}


def _updates() -> list:
    return list(AuditEvent.objects.filter(action_key="customer_person.update"))


def test_it_shows_the_form_filled_in_with_the_persons_details(admin, kari):
    page = admin.get(_page(kari)).content.decode()
    form = re.search(r'<form[^>]*data-testid="correct-form".*?</form>', page, re.S).group(0)
    assert re.search(r'name="full_name"[^>]*value="Kari Nordmann"', form)
    assert re.search(r'name="birth_date"[^>]*value="15.10.1986"', form)
    assert re.search(rf'<option value="{gender_uuid("female")}" selected>', form)
    assert 'name="csrfmiddlewaretoken"' in form


def test_it_corrects_the_name_and_the_page_and_the_audit_log_show_it(org, admin, kari):
    response = admin.post(_correct(kari), _form(full_name="Kari  Hansen", birth_date="16.10.1986"), follow=True)

    page = response.content.decode()
    assert response.redirect_chain == [(_page(kari), 302)]
    assert "Kari Hansen&#x27;s details are corrected." in page
    assert "Screened again" not in page and 'data-testid="correct-effect"' not in page  # not under monitoring
    assert 'data-testid="person-name">Kari Hansen</h1>' in page
    assert "<dd class=\"col-sm-8\">16.10.1986</dd>" in page
    person = CustomerPerson.objects.get()
    assert (person.full_name, person.birth_date.isoformat(), person.gender.key) == ("Kari Hansen", "1986-10-16", "female")
    [update] = _updates()
    assert update.actor_app_membership_id == org.admin.member.app_membership_uuid
    assert "Corrected a customer person&#x27;s details" in admin.get("/members/audit/").content.decode()


def test_it_clears_the_birth_date_and_the_gender(admin, kari):
    admin.post(_correct(kari), _form(birth_date="", gender=""))
    person = CustomerPerson.objects.get()
    assert (person.full_name, person.birth_date, person.gender) == ("Kari Nordmann", None, None)
    assert _updates()[0].after == {"birth_date": "", "gender": ""}


def test_a_screened_person_is_screened_again_with_the_new_name(org, admin, lists):
    config = config_make(org.api)
    monitoring = customer_person_screened(org.api, config["uuid"], "Ingrid Solberg", "1961-09-30")
    person = {"uuid": monitoring["entity_monitoring"]["monitoring_customer_person_uuid"]}
    assert not ScreeningCase.objects.exists()
    assert 'data-testid="correct-effect">Screened now: a correction is screened again at once' in admin.get(_page(person)).content.decode()

    response = admin.post(_correct(person), {"full_name": PEP_PERSON, "birth_date": "30.09.1961", "gender": ""}, follow=True)

    assert f"{PEP_PERSON}&#x27;s details are corrected. Screened again with the new details." in response.content.decode()
    assert ScreeningCase.objects.filter(pep_flag=True).count() == 1  # the run on commit compared the new name


def test_nothing_changed_says_so_and_sends_nothing(admin, kari, monkeypatch):
    never_sent(monkeypatch, "update_customer_person")
    response = admin.post(_correct(kari), _form(full_name=" Kari   Nordmann ", birth_date="1986-10-15"), follow=True)
    assert "Nothing changed." in response.content.decode()
    assert _updates() == []


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"full_name": "  "}, "full_name", "This field is required."),
        ({"birth_date": "01.01.2999"}, "birth_date", "must not be in the future"),
        ({"birth_date": "10/15/1986"}, "birth_date", "Enter the date as dd.mm.yyyy, e.g. 15.10.1986."),
    ],
    ids=["blank-name", "future-birth-date", "birth-date-format"],
)
def test_a_refused_field_is_shown_at_the_field_and_nothing_is_changed(admin, kari, fields, field, message):
    response = admin.post(_correct(kari), _form(**fields))

    assert response.status_code == 200
    assert response.context["correct_form"].errors == {field: [message]}
    page = response.content.decode()
    assert f'data-testid="field-error-{field}">{message}</div>' in page
    assert re.search(rf'name="{field}"[^>]*value="{re.escape(fields[field])}"', page)  # as typed, to correct it
    assert 'data-testid="person-name">Kari Nordmann</h1>' in page  # the page itself
    assert CustomerPerson.objects.get().birth_date.isoformat() == "1986-10-15"
    assert _updates() == []


def test_officers_and_viewers_get_403_and_see_no_forms(org, kari):
    for role in (Member.Role.OFFICER, Member.Role.VIEWER):
        client = org.member(f"m-{role}", role)
        response = client.post(_correct(kari), _form(full_name="Kari Hansen"))
        assert response.status_code == 403 and 'data-testid="error-403"' in response.content.decode()
        page = client.get(_page(kari)).content.decode()
        assert 'data-testid="person-forms"' not in page and "<form" not in page.split("<main", 1)[1]
        assert 'data-testid="read-only"' in page
        if role == Member.Role.VIEWER:  # said in words, not as an API role key
            assert "hidden: your role does not show national ids (an admin grants it)" in page
            assert "person_national_identification" not in page
    assert CustomerPerson.objects.get().full_name == "Kari Nordmann"
    assert _updates() == []


def test_another_organisations_person_is_404_and_nothing_is_written(admin, other_org):
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"], full_name="Olav Fjord")
    response = admin.post(_correct(theirs), _form(full_name="Kari Hansen"))
    assert response.status_code == 404
    assert CustomerPerson.objects.get().full_name == "Olav Fjord"
    assert _updates() == []


def test_an_unreachable_service_is_a_sentence_on_the_form(admin, kari, monkeypatch):
    service_down(monkeypatch, "update_customer_person")
    response = admin.post(_correct(kari), _form(full_name="Kari Hansen"))
    assert response.status_code == 503
    assert response.context["correct_form"].non_field_errors() == [
        "The service could not be reached, so nothing was changed. Try again in a moment."
    ]
    assert 'data-testid="form-error">The service could not be reached' in response.content.decode()


def test_a_service_down_before_the_form_is_read_is_the_pages_service_error(admin, kari, monkeypatch):
    service_down(monkeypatch, "customer_person")
    response = admin.post(_correct(kari), _form(full_name="Kari Hansen"))
    assert response.status_code == 503
    assert "The service did not answer: The service could not be reached" in response.content.decode()
    assert CustomerPerson.objects.get().full_name == "Kari Nordmann"


def test_it_shows_and_corrects_the_nationalities_and_the_page_shows_them(org, admin):
    person = customer_person_make(org.api, config_make(org.api)["uuid"], full_name="Kari Nordmann", birth_date="1986-10-15",
                                  gender_uuid=gender_uuid("female"), nationalities=["NO"])
    page = admin.get(_page(person)).content.decode()
    form = re.search(r'<form[^>]*data-testid="correct-form".*?</form>', page, re.S).group(0)
    assert re.search(r'name="nationalities"[^>]*value="NO"', form)

    response = admin.post(_correct(person), _form(nationalities="no, ru"), follow=True)

    assert "Kari Nordmann&#x27;s details are corrected." in response.content.decode()
    assert '<dd class="col-sm-8" data-testid="nationalities">NO, RU</dd>' in response.content.decode()
    [update] = _updates()
    assert (update.before, update.after) == ({"nationalities": ["NO"]}, {"nationalities": ["NO", "RU"]})


def test_a_nationality_that_is_not_a_country_is_the_services_error_at_the_field(admin, kari):
    response = admin.post(_correct(kari), _form(nationalities="Norway"))

    assert response.status_code == 200
    assert response.context["correct_form"].errors == {
        "nationalities": ["NORWAY is not a country: give each country's two letters (ISO 3166-1 alpha-2), e.g. NO"]
    }
    assert CustomerPerson.objects.get().nationalities == []
    assert _updates() == []


def test_a_birth_date_that_disagrees_with_the_recorded_national_id_is_refused_at_the_field(org, admin, kari):
    from tests.service.screening.helpers import customer_person_url

    body = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
    added = org.api.post(customer_person_url(kari["uuid"], "/customer-person-national-identification"), body,
                         roles=["aml", "person_national_identification"])
    assert added.status_code == 201

    response = admin.post(_correct(kari), _form(full_name="Kari Hansen", birth_date="16.10.1986"))

    assert response.status_code == 200
    assert response.context["correct_form"].errors == {"birth_date": [
        "the national id NO 151086***** recorded for the person is of someone born 15.10.1986: correct the birth date, "
        "or remove the number if it is the wrong one"
    ]}
    person = CustomerPerson.objects.get()
    assert (person.full_name, person.birth_date.isoformat()) == ("Kari Nordmann", "1986-10-15")  # nothing changed
    assert _updates() == []

