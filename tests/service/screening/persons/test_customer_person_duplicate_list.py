"""GET /v1/screening-config/{uuid}/customer-person-duplicate (extension): possible second records of one customer."""

from __future__ import annotations

from service.screening.models import EntityMonitoring
from tests.service.screening.helpers import (
    AML, config_make, config_url, customer_person_make, customer_person_url, field_locs, monitoring_make,
)

BOTH = ["aml", "person_national_identification"]


def _groups(api, config_uuid, **params) -> dict:
    response = api.get(config_url(config_uuid, "/customer-person-duplicate"), params, roles=AML)
    assert response.status_code == 200, response.json()
    return response.json()[0]


def test_it_groups_records_of_one_name_and_birth_date_oldest_first(api):
    config = config_make(api)["uuid"]
    kari = customer_person_make(api, config, full_name="Kari Nordmann", birth_date="1986-10-15", customer_reference="K-1")
    twin = customer_person_make(api, config, full_name="KARI  nordmann", birth_date="1986-10-15")
    monitoring_make(api, config, customer_person=twin["uuid"], decision={"approved_flag": True})
    customer_person_make(api, config, full_name="Kari Nordmann", birth_date="1990-01-01")  # born another day
    customer_person_make(api, config, full_name="Ola Hansen", birth_date="1970-01-01")
    ola = [customer_person_make(api, config, full_name="Ola Hansen", birth_date=None) for _ in range(2)]  # both without

    page = _groups(api, config)

    assert (page["count"], page["has_more"]) == (2, False)
    first, second = page["elements"]
    assert (first["match_key"], first["full_name"], first["birth_date"]) == ("same_name", "Kari Nordmann", "1986-10-15")
    assert [(p["uuid"], p["customer_reference"], p["monitoring_status_key"]) for p in first["customer_persons"]] == [
        (kari["uuid"], "K-1", None), (twin["uuid"], "", "active"),
    ]
    assert (second["full_name"], second["birth_date"]) == ("Ola Hansen", None)
    assert [p["uuid"] for p in second["customer_persons"]] == [p["uuid"] for p in ola]


def test_records_told_apart_by_their_references_are_not_a_group(api):
    config = config_make(api)["uuid"]
    for reference in ("K-1", "K-2"):
        customer_person_make(api, config, customer_reference=reference)
    assert _groups(api, config)["count"] == 0
    customer_person_make(api, config)  # a third without one: either could be it
    assert [len(g["customer_persons"]) for g in _groups(api, config)["elements"]] == [3]


def test_a_merged_record_leaves_its_group(api):
    config = config_make(api)["uuid"]
    kept, twin = (customer_person_make(api, config) for _ in range(2))
    response = api.post(customer_person_url(kept["uuid"], "/merge"), {"duplicate_customer_person_uuid": twin["uuid"]}, roles=BOTH)
    assert response.status_code == 200, response.json()
    assert _groups(api, config) == {"elements": [], "count": 0, "has_more": False}


def test_limit_and_offset_count_groups(api):
    config = config_make(api)["uuid"]
    for name in ("Anne Berg", "Bjørn Dahl", "Cecilie Eng"):
        for _ in range(2):
            customer_person_make(api, config, full_name=name)
    page = _groups(api, config, limit=2, offset=1)
    assert ([g["full_name"] for g in page["elements"]], page["count"], page["has_more"]) == (["Bjørn Dahl", "Cecilie Eng"], 3, False)
    assert _groups(api, config, limit=1)["has_more"] is True


def test_another_organisations_config_is_a_404_and_aml_is_needed(api, other_api):
    config = config_make(api)["uuid"]
    assert other_api.get(config_url(config, "/customer-person-duplicate"), roles=AML).status_code == 404
    assert api.get(config_url(config, "/customer-person-duplicate"), roles=[]).status_code == 403
    assert not EntityMonitoring.objects.exists()


def test_it_groups_names_written_two_ways_on_one_birth_date(api):
    config = config_make(api)["uuid"]
    kari = customer_person_make(api, config, full_name="Kari Nordmann", birth_date="1986-10-15", customer_reference="K-1")
    typo = customer_person_make(api, config, full_name="Kari Nordman", birth_date="1986-10-15")
    married = customer_person_make(api, config, full_name="Kari Nordmann-Hansen", birth_date="1986-10-15")
    customer_person_make(api, config, full_name="Kari Nordman", birth_date="1987-11-16")  # born another day
    customer_person_make(api, config, full_name="Siri Hansen", birth_date="1986-10-15")  # another name that day
    customer_person_make(api, config, full_name="Siri Jensen", birth_date="1986-10-15")
    bjorn = customer_person_make(api, config, full_name="Bjørn Dæhlie", birth_date="1967-06-19")
    ascii_only = customer_person_make(api, config, full_name="Bjorn Daehlie", birth_date="1967-06-19")
    customer_person_make(api, config, full_name="Ola Hansen", birth_date=None)  # without a birth date: names alone
    customer_person_make(api, config, full_name="Ola Hanssen", birth_date=None)  # are no evidence

    page = _groups(api, config)

    assert [(g["match_key"], g["full_name"], g["birth_date"], [p["uuid"] for p in g["customer_persons"]])
            for g in page["elements"]] == [
        ("similar_name", "Bjørn Dæhlie", "1967-06-19", [bjorn["uuid"], ascii_only["uuid"]]),
        # two names similar to a third are one group, oldest first
        ("similar_name", "Kari Nordmann", "1986-10-15", [kari["uuid"], typo["uuid"], married["uuid"]]),
    ]
    assert page["count"] == 2


def test_similar_names_told_apart_by_their_references_are_not_a_group(api):
    config = config_make(api)["uuid"]
    customer_person_make(api, config, full_name="Jon Larsen", birth_date="1970-01-02", customer_reference="K-1")
    customer_person_make(api, config, full_name="John Larsen", birth_date="1970-01-02", customer_reference="K-2")
    assert _groups(api, config)["count"] == 0
    customer_person_make(api, config, full_name="Jonn Larsen", birth_date="1970-01-02")  # without one: either could be it
    assert [(g["match_key"], len(g["customer_persons"])) for g in _groups(api, config)["elements"]] == [("similar_name", 3)]


def test_a_day_with_a_name_both_the_same_and_similar_gives_both_groups(api):
    config = config_make(api)["uuid"]
    first, second = (customer_person_make(api, config, full_name="Per Olsen", birth_date="1980-05-05") for _ in range(2))
    third = customer_person_make(api, config, full_name="Per Olssen", birth_date="1980-05-05")
    page = _groups(api, config)
    assert [(g["match_key"], [p["uuid"] for p in g["customer_persons"]]) for g in page["elements"]] == [
        ("same_name", [first["uuid"], second["uuid"]]),
        ("similar_name", [first["uuid"], second["uuid"], third["uuid"]]),
    ]


def test_a_birth_date_shared_by_too_many_names_is_left_out_of_similar_names(api, monkeypatch):
    # A placeholder date many records share (01.01.1900, say) makes no evidence; the pairs of its
    # names would be compared two by two.
    monkeypatch.setattr("service.screening.person_selectors.SIMILAR_NAMES_OF_A_DAY_MAX", 2)
    config = config_make(api)["uuid"]
    for name in ("Per Olsen", "Per Olssen", "Pål Olsen"):
        customer_person_make(api, config, full_name=name, birth_date="1900-01-01")
    assert _groups(api, config)["count"] == 0
    monkeypatch.setattr("service.screening.person_selectors.SIMILAR_NAMES_OF_A_DAY_MAX", 3)
    assert [g["full_name"] for g in _groups(api, config)["elements"]] == ["Per Olsen"]


def test_one_persons_groups_only(api, other_api):
    config = config_make(api)["uuid"]
    kari = customer_person_make(api, config, full_name="Kari Nordmann", birth_date="1986-10-15")
    twin = customer_person_make(api, config, full_name="KARI NORDMANN", birth_date="1986-10-15")
    typo = customer_person_make(api, config, full_name="Kari Nordman", birth_date="1986-10-15")
    per = customer_person_make(api, config, full_name="Per Olsen", birth_date="1980-05-05")
    customer_person_make(api, config, full_name="Per Olssen", birth_date="1980-05-05")
    alone = customer_person_make(api, config, full_name="Siri Hansen", birth_date="1986-10-15")

    page = _groups(api, config, customer_person_uuid=typo["uuid"])
    assert [(g["match_key"], [p["uuid"] for p in g["customer_persons"]]) for g in page["elements"]] == [
        ("similar_name", [kari["uuid"], twin["uuid"], typo["uuid"]])]
    assert [g["match_key"] for g in _groups(api, config, customer_person_uuid=kari["uuid"])["elements"]] == [
        "same_name", "similar_name"]
    assert _groups(api, config, customer_person_uuid=per["uuid"])["count"] == 1
    assert _groups(api, config, customer_person_uuid=alone["uuid"])["count"] == 0

    other_config = config_make(other_api)["uuid"]
    stranger = customer_person_make(other_api, other_config, full_name="Kari Nordmann", birth_date="1986-10-15")
    for unknown in (stranger["uuid"], "6f1c2d1e-0000-4000-8000-000000000000"):
        response = api.get(config_url(config, "/customer-person-duplicate"), {"customer_person_uuid": unknown}, roles=AML)
        assert response.status_code == 404
        assert field_locs(response) == [["query", "customer_person_uuid"]]
    bad = api.get(config_url(config, "/customer-person-duplicate"), {"customer_person_uuid": "kari"}, roles=AML)
    assert bad.status_code == 400 and field_locs(bad) == [["query", "customer_person_uuid"]]


def test_it_groups_one_name_on_birth_dates_typed_two_ways(api):
    config = config_make(api)["uuid"]
    ingrid = customer_person_make(api, config, full_name="Ingrid Solberg", birth_date="1975-04-12", customer_reference="K-1")
    swapped = customer_person_make(api, config, full_name="INGRID SOLBERG", birth_date="1975-12-04")  # day and month
    digit = customer_person_make(api, config, full_name="Ingrid Solberg", birth_date="1975-04-13")  # one digit
    customer_person_make(api, config, full_name="Ingrid Solberg", birth_date="1985-11-30")  # another person
    customer_person_make(api, config, full_name="Ingrid Solbakken", birth_date="1975-12-04")  # another name
    tore = customer_person_make(api, config, full_name="Tore Lie", birth_date="1961-02-03")
    years = customer_person_make(api, config, full_name="Tore Lie", birth_date="1916-02-03")  # neighbouring digits

    page = _groups(api, config)

    assert [(g["match_key"], g["full_name"], g["birth_date"], [p["uuid"] for p in g["customer_persons"]])
            for g in page["elements"]] == [
        ("similar_birth_date", "Ingrid Solberg", "1975-04-12", [ingrid["uuid"], swapped["uuid"], digit["uuid"]]),
        ("similar_birth_date", "Tore Lie", "1961-02-03", [tore["uuid"], years["uuid"]]),
    ]
    assert [p["birth_date"] for p in page["elements"][0]["customer_persons"]] == ["1975-04-12", "1975-12-04", "1975-04-13"]


def test_birth_dates_typed_two_ways_told_apart_by_their_references_are_not_a_group(api):
    config = config_make(api)["uuid"]
    customer_person_make(api, config, full_name="Tore Lie", birth_date="1961-02-03", customer_reference="K-1")
    customer_person_make(api, config, full_name="Tore Lie", birth_date="1961-03-02", customer_reference="K-2")
    customer_person_make(api, config, full_name="Tore Lie", birth_date=None)  # no date: not compared by name alone
    assert _groups(api, config)["count"] == 0


def test_one_persons_groups_include_those_born_on_a_slip_of_their_birth_date(api):
    config = config_make(api)["uuid"]
    ingrid = customer_person_make(api, config, full_name="Ingrid Solberg", birth_date="1975-04-12")
    swapped = customer_person_make(api, config, full_name="Ingrid Solberg", birth_date="1975-12-04")
    namesake = customer_person_make(api, config, full_name="Ingrid Solberg", birth_date="1985-11-30")

    page = _groups(api, config, customer_person_uuid=swapped["uuid"])

    assert [(g["match_key"], [p["uuid"] for p in g["customer_persons"]]) for g in page["elements"]] == [
        ("similar_birth_date", [ingrid["uuid"], swapped["uuid"]])]
    assert _groups(api, config, customer_person_uuid=namesake["uuid"])["count"] == 0
