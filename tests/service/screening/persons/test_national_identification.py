"""POST /v1/customer-person/{uuid}/customer-person-national-identification: stdnum checks and the role."""

from __future__ import annotations

import pytest

from service.screening.models import CustomerPersonNationalIdentification
from tests.service.screening.helpers import AML, config_make, customer_person_make, customer_person_url, field_locs

TAIL = "/customer-person-national-identification"
BOTH = ["aml", "person_national_identification"]


@pytest.fixture
def person(api):
    return customer_person_make(api, config_make(api)["uuid"])


@pytest.mark.parametrize(
    ("schema", "number", "stored", "born"),
    [
        ("NO", "151086 95088", "15108695088", "1986-10-15"),
        ("NO", "551071 00007", "55107100007", "1971-10-15"),  # a D-number: the first digit + 4
        ("SE", "880320-0016", "198803200016", "1988-03-20"),
        ("SE", "701063-2391", "197010632391", "1970-10-03"),  # a samordningsnummer: the day + 60
        ("DK", "211062-1629", "2110621629", "1962-10-21"),
    ],
)
def test_it_accepts_valid_nordic_numbers(api, schema, number, stored, born):
    person = customer_person_make(api, config_make(api)["uuid"], birth_date=born)
    body = {"national_identification_schema": schema, "national_identification_number": number}
    response = api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH)
    assert response.status_code == 201, response.json()
    assert response.json()["national_identification_number"] == stored
    country = api.get("/analysis/v1/geo-country", roles=AML).json()
    assert response.json()["geo_country_uuid"] == next(c["uuid"] for c in country if c["geo_country_key"] == schema)


@pytest.mark.parametrize(
    ("schema", "number", "field"),
    [
        ("NO", "15108695087", "national_identification_number"),  # bad check digit
        ("SE", "880320-0017", "national_identification_number"),
        ("DK", "3210625629", "national_identification_number"),  # no 32nd day
        ("FI", "131052-308T", "national_identification_schema"),
    ],
)
def test_it_refuses_invalid_numbers_naming_the_field(api, person, schema, number, field):
    body = {"national_identification_schema": schema, "national_identification_number": number}
    response = api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH)
    assert response.status_code == 400
    assert field_locs(response) == [["body", field]]
    assert not CustomerPersonNationalIdentification.objects.exists()


@pytest.mark.parametrize(
    ("schema", "number", "message"),
    [
        ("NO", "1510869508", "has 10 digits; a Norwegian fødselsnummer or D-number has 11"),
        ("NO", "15108695087", "the check digits do not match: probably a mistyped digit"),
        ("NO", "1510869508A", "may hold only digits, with spaces or a dash between them"),
        ("NO", "1510869508²", "may hold only digits, with spaces or a dash between them"),  # a digit to Python
        ("NO", "32107112374", "the first six digits are not a birth date (DDMMYY; a D-number adds 4 to the first digit): "
                              "probably a mistyped digit"),
        ("NO", "15104560099", "the individual digits (7th to 9th) do not fit the birth year 45: probably a mistyped digit"),
        ("NO", "85107100100", "is an FH-number, which holds no birth date: record the person's fødselsnummer or D-number"),
        ("SE", "880320-0017", "the check digit does not match: probably a mistyped digit"),
        ("SE", "88032000", "has 8 digits; a Swedish personnummer or samordningsnummer has 10 or 12"),
        ("SE", "88032-00016", "is not written as Swedish numbers are: YYMMDD-NNNN or YYYYMMDD-NNNN"),
        ("DK", "21106256291", "has 11 digits; a Danish CPR number has 10"),
        ("DK", "3210625629", "the first six digits are not a birth date (DDMMYY): probably a mistyped digit"),
        ("DK", "2110525629", "is of someone born 21.10.2052, a day still to come: probably a mistyped digit"),
    ],
)
def test_a_refused_number_says_what_is_wrong_in_a_clerks_words(api, schema, number, message):
    person = customer_person_make(api, config_make(api)["uuid"], birth_date=None)
    body = {"national_identification_schema": schema, "national_identification_number": number}
    response = api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH)
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["loc"], error["msg"]) == (["body", "national_identification_number"], message)
    assert not CustomerPersonNationalIdentification.objects.exists()


def test_it_takes_a_swedish_number_with_and_without_century_as_one(api):
    person = customer_person_make(api, config_make(api)["uuid"], birth_date="1988-03-20")
    body = {"national_identification_schema": "SE", "national_identification_number": "19880320-0016"}
    assert api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH).status_code == 201
    body["national_identification_number"] = "8803200016"
    assert api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH).status_code == 400


def test_it_refuses_the_same_number_twice(api, person):
    body = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
    assert api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH).status_code == 201
    body["national_identification_number"] = "151086 95088"
    again = api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH)
    assert again.status_code == 400
    assert field_locs(again) == [["body", "national_identification_number"]]
    assert CustomerPersonNationalIdentification.objects.count() == 1


def test_it_needs_the_national_identification_role_to_write(api, person):
    body = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
    response = api.post(customer_person_url(person["uuid"], TAIL), body, roles=AML)
    assert response.status_code == 403
    assert "person_national_identification" in response.json()["detail"]
    assert not CustomerPersonNationalIdentification.objects.exists()


def test_it_hides_national_ids_in_reads_without_the_role(api, person):
    body = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
    api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH)
    with_role = api.get(customer_person_url(person["uuid"]), roles=BOTH).json()
    assert [i["national_identification_number"] for i in with_role["customer_person_national_identifications"]] == [
        "15108695088"
    ]
    without = api.get(customer_person_url(person["uuid"]), roles=AML)
    assert without.json()["customer_person_national_identifications"] is None
    assert "15108695088" not in without.content.decode()
    assert api.get(customer_person_url(person["uuid"], TAIL), roles=AML).status_code == 403
    assert len(api.get(customer_person_url(person["uuid"], TAIL), roles=BOTH).json()) == 1


def test_it_keeps_another_organisations_person_out_of_reach(api, other_api):
    theirs = customer_person_make(other_api, config_make(other_api)["uuid"])
    body = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
    assert api.post(customer_person_url(theirs["uuid"], TAIL), body, roles=BOTH).status_code == 404
    assert not CustomerPersonNationalIdentification.objects.exists()


def test_it_refuses_a_number_another_customer_person_of_the_config_has(api, other_api, person):
    config_uuid = person["screening_config_uuid"]
    twin = customer_person_make(api, config_uuid, full_name="Kari Nordmann-Hansen")
    body = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
    assert api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH).status_code == 201

    body["national_identification_number"] = "151086 95088"  # the same number, written otherwise
    response = api.post(customer_person_url(twin["uuid"], TAIL), body, roles=BOTH)

    assert response.status_code == 400
    assert field_locs(response) == [["body", "national_identification_number"]]
    [error] = response.json()["errors"]
    assert error["msg"] == f"already recorded for another customer person of the screening config: Kari Nordmann ({person['uuid']})"
    assert response.json()["code"] == "recorded_for_another_person"
    assert CustomerPersonNationalIdentification.objects.count() == 1
    # Another config (another organisation's) may record the same person: configs screen apart.
    theirs = customer_person_make(other_api, config_make(other_api)["uuid"])
    assert other_api.post(customer_person_url(theirs["uuid"], TAIL), body, roles=BOTH).status_code == 201


def test_a_number_freed_by_a_removal_can_be_recorded_for_another_person(api, person):
    twin = customer_person_make(api, person["screening_config_uuid"], full_name="Kari Hansen")
    body = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
    recorded = api.post(customer_person_url(person["uuid"], TAIL), body, roles=BOTH).json()
    assert api.client.delete(customer_person_url(person["uuid"], f"{TAIL}/{recorded['uuid']}"),
                             **api.headers(BOTH)).status_code == 204
    assert api.post(customer_person_url(twin["uuid"], TAIL), body, roles=BOTH).status_code == 201
