"""A national id holds its holder's birth date: a number and a birth date that disagree are refused,
whichever is written last (one of the two is mistyped), naming the field and both dates, with
nothing written. A person without a birth date takes the number's."""

from __future__ import annotations

import pytest

from service.audit.models import AuditEvent
from service.screening.models import CustomerPerson, CustomerPersonNationalIdentification
from tests.service.screening.helpers import (
    AML,
    config_make,
    config_url,
    customer_person_make,
    customer_person_url,
    field_locs,
    patch,
)

TAIL = "/customer-person-national-identification"
BOTH = ["aml", "person_national_identification"]


def _add(api, person, number: str, schema: str = "NO"):
    body = {"national_identification_schema": schema, "national_identification_number": number}
    return api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH)


def _person(api, birth_date: str | None) -> dict:
    return customer_person_make(api, config_make(api)["uuid"], full_name="Kari Nordmann", birth_date=birth_date)


def _refusal(response) -> tuple[list, str, str]:
    [error] = response.json()["errors"]
    return field_locs(response), error["msg"], response.json()["code"]


@pytest.mark.parametrize(
    ("schema", "number", "born_then"),
    [
        ("NO", "15107100013", "15.10.1971"),  # a fødselsnummer
        ("NO", "55107100007", "15.10.1971"),  # a D-number: its real birth date, not the 55th
        ("SE", "701063-2391", "03.10.1970"),  # a samordningsnummer: the day less 60
        ("DK", "1510711629", "15.10.1971"),
    ],
)
def test_it_refuses_a_number_of_someone_born_on_another_day_naming_both_dates(api, schema, number, born_then):
    person = _person(api, "1971-10-16")

    response = _add(api, person, number, schema)

    assert response.status_code == 400
    assert _refusal(response) == (
        [["body", "national_identification_number"]],
        f"is of someone born {born_then}; the person's birth date is 16.10.1971",
        "birth_date_disagrees",
    )
    assert not CustomerPersonNationalIdentification.objects.exists()
    assert not AuditEvent.objects.filter(action_key__startswith="customer_person.national_id").exists()


def test_it_accepts_a_d_number_and_a_samordningsnummer_of_the_persons_birth_date(api):
    assert _add(api, _person(api, "1971-10-15"), "551071 00007").status_code == 201
    assert _add(api, _person(api, "1970-10-03"), "19701063-2391", "SE").status_code == 201


def test_it_refuses_a_danish_number_whose_century_digit_gives_the_1800s(api):
    """stdnum reads a 7th digit of 5 to 8 with a year of 58 to 99 as the 1800s: nobody living."""
    response = _add(api, _person(api, "1962-10-21"), "211062-5629", "DK")

    assert response.status_code == 400
    assert _refusal(response)[1] == (
        "is of someone born 21.10.1862, who cannot be living: probably a mistyped digit (the 7th digit gives the century)"
    )
    assert _add(api, _person(api, "1962-10-21"), "211062-1629", "DK").status_code == 201


def test_a_person_without_a_birth_date_takes_the_numbers_and_the_audit_log_says_so(api):
    person = _person(api, None)

    assert _add(api, person, "15107100013").status_code == 201

    read = api.get(customer_person_url(person["uuid"]), roles=AML).json()["customer_person"]
    assert read["birth_date"] == "1971-10-15"
    [update] = AuditEvent.objects.filter(action_key="customer_person.update")
    assert (update.before, update.after) == ({"birth_date": ""}, {"birth_date": "1971-10-15"})


def test_a_corrected_birth_date_that_disagrees_with_a_recorded_number_is_refused(api):
    person = _person(api, "1971-10-15")
    assert _add(api, person, "15107100013").status_code == 201

    response = patch(api, customer_person_url(person["uuid"]), {"full_name": "Kari Hansen", "birth_date": "1971-10-16"}, roles=BOTH)

    assert response.status_code == 400
    assert _refusal(response) == (
        [["body", "birth_date"]],
        "the national id NO 151071***** recorded for the person is of someone born 15.10.1971: correct the birth date, "
        "or remove the number if it is the wrong one",
        "birth_date_disagrees",
    )
    unchanged = CustomerPerson.objects.get(uuid=person["uuid"])
    assert (unchanged.full_name, str(unchanged.birth_date)) == ("Kari Nordmann", "1971-10-15")  # nothing written
    assert not AuditEvent.objects.filter(action_key="customer_person.update").exists()


def test_without_the_national_id_role_the_refusal_does_not_show_the_number(api):
    person = _person(api, "1971-10-15")
    assert _add(api, person, "15107100013").status_code == 201

    response = patch(api, customer_person_url(person["uuid"]), {"birth_date": "1971-10-16"}, roles=AML)

    assert response.status_code == 400
    locs, message, _ = _refusal(response)
    assert locs == [["body", "birth_date"]]
    assert message == ("disagrees with the birth date in a national id recorded for the person "
                       "(reading it needs the person_national_identification role)")
    assert "151071" not in response.content.decode() and "15.10.1971" not in response.content.decode()


def test_a_correction_that_keeps_the_birth_date_or_clears_it_is_not_refused(api):
    person = _person(api, "1971-10-15")
    assert _add(api, person, "15107100013").status_code == 201

    assert patch(api, customer_person_url(person["uuid"]), {"full_name": "Kari Hansen", "birth_date": "1971-10-15"}).status_code == 200
    assert patch(api, customer_person_url(person["uuid"]), {"birth_date": None}).status_code == 200


def test_the_look_up_checks_a_number_against_a_birth_date_before_anyone_is_saved(api):
    config = config_make(api)
    url = config_url(config["uuid"], "/customer-person")
    query = {"national_identification_schema": "NO", "national_identification_number": "15107100013"}

    disagrees = api.get(url, {**query, "check_birth_date": "1971-10-16"}, roles=BOTH)
    assert disagrees.status_code == 400
    assert _refusal(disagrees) == (
        [["query", "national_identification_number"]],
        "is of someone born 15.10.1971; the person's birth date is 16.10.1971",
        "birth_date_disagrees",
    )
    agrees = api.get(url, {**query, "check_birth_date": "1971-10-15"}, roles=BOTH)
    assert agrees.status_code == 200 and agrees.json() == []
    alone = api.get(url, {"check_birth_date": "1971-10-15"}, roles=BOTH)
    assert alone.status_code == 400 and field_locs(alone) == [["query", "check_birth_date"]]
    future = api.get(url, {**query, "check_birth_date": "2999-01-01"}, roles=BOTH)  # the date's fault, not the number's
    assert _refusal(future)[:2] == ([["query", "check_birth_date"]], "must not be in the future")
