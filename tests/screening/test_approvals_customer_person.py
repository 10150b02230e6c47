"""Adding a customer person (name, birth date, gender, national id, address) and monitoring them;
the service's field errors shown at the fields; the person's page."""

from __future__ import annotations

import re

import pytest

from portal.models import Member
from portal.service import ServiceBadRequest, ServiceNoAnswer, ServiceUnavailable
from portal.service.screening import ScreeningArea
from service.screening.models import CustomerPerson, CustomerPersonLocation, CustomerPersonNationalIdentification
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
    assert 'href="/screening/cases/?q=Kari+Nordmann&amp;status=all" data-testid="person-cases"' in page


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


def test_a_bad_national_id_is_shown_at_its_field_and_nothing_is_saved(org, admin):
    config = config_make(org.api)
    response = admin.post(ADD, _form(national_id_number="15108695087"))
    assert response.status_code == 200
    form = response.context["person_form"]
    assert list(form.errors) == ["national_id_number", "__all__"]
    assert form.errors["__all__"] == ["Nothing was saved. Correct the field and send again."]
    assert form.errors["national_id_number"] == ["the check digits do not match: probably a mistyped digit"]  # the service's words
    assert 'data-testid="field-error-national_id_number"' in response.content.decode()
    assert CustomerPerson.objects.count() == 0  # the number is checked before the person is made

    fixed = admin.post(ADD, _form(), follow=True)
    assert "added as a customer person" in fixed.content.decode()
    assert CustomerPerson.objects.count() == 1
    assert statuses(org, config) == {"Kari Nordmann": "active"}


def test_a_national_id_of_someone_born_on_another_day_is_refused_and_nobody_is_added(org, admin):
    config_make(org.api)
    response = admin.post(ADD, _form(birth_date="16.10.1986"))

    form = response.context["person_form"]
    assert form.errors["national_id_number"] == ["is of someone born 15.10.1986; the person's birth date is 16.10.1986"]
    assert form.errors["__all__"] == ["Nothing was saved. Correct the field and send again."]
    assert CustomerPerson.objects.count() == 0  # asked before the person is made


def test_it_adds_a_person_with_nationalities_and_their_page_shows_them(org, admin):
    config_make(org.api)
    response = admin.post(ADD, _form(nationalities="no se"), follow=True)
    assert "Kari Nordmann added as a customer person" in response.content.decode()

    person = CustomerPerson.objects.get()
    assert person.nationalities == ["NO", "SE"]
    page = admin.get(f"/screening/customer-persons/{person.uuid}/").content.decode()
    assert '<dd class="col-sm-8" data-testid="nationalities">NO, SE</dd>' in page


def test_a_nationality_that_is_not_a_country_is_refused_at_its_field_and_nothing_is_saved(org, admin):
    config_make(org.api)
    response = admin.post(ADD, _form(nationalities="NO, XX"))

    form = response.context["person_form"]
    assert form.errors["nationalities"] == ["XX is not a country: give each country's two letters (ISO 3166-1 alpha-2), e.g. NO"]
    assert form.errors["__all__"] == ["Nothing was saved. Correct the field and send again."]
    assert 'data-testid="field-error-nationalities"' in response.content.decode()
    assert CustomerPerson.objects.count() == 0


def test_a_national_id_another_customer_has_is_refused_and_nobody_is_added(org, admin):
    config = config_make(org.api)
    assert admin.post(ADD, _form(birth_date="15.10.1986")).status_code == 302  # Kari, with her national id

    again = admin.post(ADD, _form(full_name="Kari Nordmann Hansen", national_id_number="151086 95088"))

    form = again.context["person_form"]
    assert form.errors["national_id_number"] == ["This national id is already recorded for Kari Nordmann, born 15.10.1986."]
    kari = CustomerPerson.objects.get()
    assert f"""href="/screening/customer-persons/{kari.uuid}/" data-testid="held-by-link">Open Kari Nordmann's page</a>""" in again.content.decode()
    assert form.errors["__all__"] == ["Nothing was saved."]
    assert [p.full_name for p in CustomerPerson.objects.all()] == ["Kari Nordmann"]
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


def _sent_back(response) -> tuple[list[str], str]:
    """The form's messages above the fields, and the person it continues with when sent again."""
    form = response.context["person_form"]
    return list(form.non_field_errors()), form.data.get("customer_person_uuid", "")


@pytest.mark.parametrize(
    "fields",
    [{}, {"national_id_number": "", "national_id_schema": "", "street_address": "", "postal_code": "", "postal_place": "", "country_code": ""}],
    ids=["with-national-id-and-address", "monitoring-only"],
)
def test_another_organisations_person_in_the_form_saves_nothing_and_says_so(org, other_org, admin, fields):
    config = config_make(org.api)
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"])
    response = admin.post(ADD, _form(customer_person_uuid=theirs["uuid"], **fields))

    assert response.status_code == 200
    errors, continues_with = _sent_back(response)
    assert errors[0].startswith("Nothing was saved: the person this form continued with was not found")
    assert "was saved, but not yet" not in response.content.decode()
    assert continues_with == ""  # sending again adds a new person
    assert CustomerPersonNationalIdentification.objects.count() == 0
    assert CustomerPersonLocation.objects.count() == 0
    assert statuses(org, config) == {}


def test_a_refused_first_step_says_nothing_was_saved(org, admin):
    config_make(org.api)
    response = admin.post(ADD, _form(birth_date="2999-01-01"))
    errors, continues_with = _sent_back(response)
    assert errors == ["Nothing was saved. Correct the field and send again."]
    assert continues_with == ""


def test_sending_again_after_a_refused_address_does_not_stop_at_the_saved_national_id(org, admin, monkeypatch):
    config = config_make(org.api)
    refused = ServiceBadRequest(400, "invalid_parameter", "Invalid value for country_code_two: no such country",
                                errors=[{"loc": ["body", "country_code_two"], "msg": "no such country"}])
    first = _sent_while_failing(admin, monkeypatch, step="add_location", error=refused)
    errors, kept = _sent_back(first)
    assert errors == ["Kari Nordmann was saved, but not yet given its address. Correct the field and send again."]
    assert first.context["person_form"].errors["country_code"] == ["no such country"]
    assert CustomerPersonNationalIdentification.objects.count() == 1

    fixed = admin.post(ADD, _form(customer_person_uuid=kept), follow=True)
    assert "Kari Nordmann added as a customer person and is screened from now on." in fixed.content.decode()
    assert CustomerPersonNationalIdentification.objects.count() == 1
    assert CustomerPersonLocation.objects.count() == 1
    assert statuses(org, config) == {"Kari Nordmann": "active"}


def test_a_name_and_birth_date_corrected_before_sending_again_are_the_ones_screened(org, admin, monkeypatch):
    """The form sent again continues with the saved person: what the officer corrected in it meanwhile is
    saved too, not dropped while the message says the person is screened."""
    config = config_make(org.api)
    refused = ServiceBadRequest(400, "invalid_parameter", "Invalid value for country_code_two: no such country",
                                errors=[{"loc": ["body", "country_code_two"], "msg": "no such country"}])
    no_number = {"national_id_schema": "", "national_id_number": ""}  # a number would hold the first birth date
    _, kept = _sent_back(_sent_while_failing(admin, monkeypatch, step="add_location", error=refused, **no_number))

    fixed = admin.post(ADD, _form(customer_person_uuid=kept, full_name="Kari Nordmann-Moe", birth_date="16.10.1986",
                                  gender="", **no_number), follow=True)

    assert "Kari Nordmann-Moe added as a customer person and is screened from now on." in fixed.content.decode()
    person = CustomerPerson.objects.get()
    assert (person.full_name, str(person.birth_date), person.gender_id) == ("Kari Nordmann-Moe", "1986-10-16", None)
    assert statuses(org, config) == {"Kari Nordmann-Moe": "active"}


def test_a_country_that_is_not_one_is_refused_at_its_field_before_anything_is_saved(org, admin):
    config_make(org.api)
    for code in ("XX", "N1", "EU"):
        response = admin.post(ADD, _form(country_code=code))
        form = response.context["person_form"]
        assert form.errors["country_code"] == ["Not a country: give its two letters (ISO 3166-1), e.g. NO, SE or DK."], code
        assert CustomerPerson.objects.count() == 0
    assert admin.post(ADD, _form(country_code="sj")).status_code == 302  # Svalbard has a code of its own


def _sent_while_failing(admin, monkeypatch, *, step: str, error: Exception, **fields):
    """The form sent while the service call `step` (a ScreeningArea method) fails with `error`."""

    def failing(*args, **kwargs):
        raise error

    with monkeypatch.context() as patch:
        patch.setattr(ScreeningArea, step, failing)
        return admin.post(ADD, _form(**fields))


def test_sending_again_after_a_refused_monitoring_does_not_add_the_address_twice(org, admin, monkeypatch):
    config = config_make(org.api)
    unreachable = ServiceUnavailable(0, "unreachable", "connection refused")
    first = _sent_while_failing(admin, monkeypatch, step="monitor_customer_person", error=unreachable, full_name="Kari Nordmann")
    errors, kept = _sent_back(first)
    assert errors == [
        "Kari Nordmann was saved, but not yet put under monitoring. The service could not be reached. Send the form again to continue."
    ]

    # the name typed again differently: the saved person is continued, under the name as sent now
    fixed = admin.post(ADD, _form(customer_person_uuid=kept, full_name="Kari Nordman"), follow=True)
    assert "Kari Nordman added as a customer person" in fixed.content.decode()
    assert CustomerPerson.objects.count() == 1
    assert CustomerPersonLocation.objects.count() == 1
    assert statuses(org, config) == {"Kari Nordman": "active"}


def test_a_lost_answer_never_claims_nothing_was_saved(org, admin, monkeypatch):
    # The service may have made the person before the answer was lost: the page must not say it did not.
    config_make(org.api)
    no_answer = ServiceNoAnswer(0, "no_answer", "read timed out")
    first = _sent_while_failing(admin, monkeypatch, step="create_customer_person", error=no_answer, full_name="Kari Nordmann")
    errors, _ = _sent_back(first)
    assert errors == [
        "The service did not answer, so it is not known whether the change was saved. Reload the page to see before trying again."
    ]


def test_the_birth_date_is_typed_and_shown_as_dd_mm_yyyy(org, admin):
    config_make(org.api)
    page = admin.get("/screening/approvals/?view=persons").content.decode()
    field = re.search(r'<input[^>]*name="birth_date"[^>]*>', page).group(0)
    assert 'type="text"' in field and 'placeholder="dd.mm.yyyy"' in field  # not the browser's own date format
    assert "Birth date <span" in page and "(dd.mm.yyyy)" in page

    # sent back for another field: the day is shown as the dashboard writes days, also when typed as ISO
    for typed in ("15.10.1986", "1986-10-15"):
        back = admin.post(ADD, _form(birth_date=typed, national_id_number="15108695087", full_name=f"Kari {typed}"))
        assert re.search(r'<input[^>]*name="birth_date"[^>]*value="15.10.1986"', back.content.decode())
    assert admin.post(ADD, _form(birth_date="1986-10-15")).status_code == 302
    assert {p.birth_date.isoformat() for p in CustomerPerson.objects.all()} == {"1986-10-15"}
    assert "<td data-label=\"Birth date\">15.10.1986</td>" in admin.get("/screening/approvals/?view=persons").content.decode()


def test_a_birth_date_in_another_format_is_refused_at_the_field_and_nothing_is_saved(org, admin):
    config_make(org.api)
    for typed in ("10/15/1986", "31.02.1986", "15.10.86"):
        response = admin.post(ADD, _form(birth_date=typed))
        assert response.context["person_form"].errors["birth_date"] == ["Enter the date as dd.mm.yyyy, e.g. 15.10.1986."]
        assert re.search(rf'<input[^>]*name="birth_date"[^>]*value="{re.escape(typed)}"', response.content.decode())
    assert CustomerPerson.objects.count() == 0


def test_a_customer_of_the_same_name_and_birth_date_is_not_added_twice_unless_someone_else(org, admin):
    from tests.service.screening.helpers import customer_person_make

    config = config_make(org.api)
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", birth_date="1986-10-15")
    customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", birth_date="1990-01-01")  # another Kari
    fields = _form(full_name="kari  NORDMANN", national_id_number="", national_id_schema="")

    response = admin.post(ADD, fields)

    form = response.context["person_form"]
    assert form.non_field_errors() == [
        "Kari Nordmann, born 15.10.1986, is already a customer person. Nothing was saved: open their page under "
        "Customer persons, or tick “This is someone else” and send again."
    ]
    page = response.content.decode()
    assert f'href="/screening/customer-persons/{kari["uuid"]}/" data-testid="twin-link"' in page
    assert 'name="someone_else"' in page
    assert CustomerPerson.objects.count() == 2

    added = admin.post(ADD, {**fields, "someone_else": "on"}, follow=True)
    assert "added as a customer person" in added.content.decode()
    assert CustomerPerson.objects.count() == 3
    born_otherwise = admin.post(ADD, _form(full_name="Kari Nordmann", birth_date="02.02.1992", national_id_number=""), follow=True)
    assert "added as a customer person" in born_otherwise.content.decode()  # a different birth date: no question


def test_a_national_id_without_a_birth_date_finds_the_customer_born_on_its_day(org, admin):
    # The number says 15.10.1986: the customer of that name born then is the one meant, not a new person.
    config = config_make(org.api)
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", birth_date="1986-10-15")

    response = admin.post(ADD, _form(birth_date="", national_id_number="151086 95088"))

    assert response.context["person_form"].non_field_errors()[0].startswith(
        "Kari Nordmann, born 15.10.1986, is already a customer person. Nothing was saved")
    assert [str(u) for u in CustomerPerson.objects.values_list("uuid", flat=True)] == [kari["uuid"]]


def test_a_national_id_without_a_birth_date_gives_the_new_person_its_day(org, admin):
    config_make(org.api)
    geo_make(country="NO")

    response = admin.post(ADD, _form(birth_date="", national_id_schema="SE", national_id_number="19861075-0013"), follow=True)

    assert "added as a customer person" in response.content.decode()
    assert str(CustomerPerson.objects.get().birth_date) == "1986-10-15"  # a samordningsnummer: day + 60


def test_a_customer_persons_page_points_to_another_record_of_the_same_name_and_birth_date(org, admin):
    from tests.service.screening.helpers import monitoring_make

    config = config_make(org.api)
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", birth_date="1986-10-15")
    twin = customer_person_make(org.api, config["uuid"], full_name="KARI  nordmann", birth_date="1986-10-15")  # added twice
    monitoring_make(org.api, config["uuid"], customer_person=twin["uuid"], decision={"approved_flag": True})
    other = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", birth_date="1990-01-01")

    page = admin.get(f"/screening/customer-persons/{kari['uuid']}/").content.decode()

    notice = re.search(r'data-testid="namesakes">(.*?)</div>\s*</div>', page, re.S).group(1)
    assert f'href="/screening/customer-persons/{twin["uuid"]}/"' in notice and "born 15.10.1986" in notice
    assert ">Screened</span>" in notice and "merge the other into it" in notice
    assert f'href="/screening/customer-persons/{kari["uuid"]}/"' not in notice  # not itself
    assert other["uuid"] not in notice  # not another birth date
    assert 'data-testid="namesakes"' not in admin.get(f"/screening/customer-persons/{other['uuid']}/").content.decode()
