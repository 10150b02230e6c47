"""GET /v1/screening-config/{uuid}/customer-person-duplicate (extension): possible second records of one customer."""

from __future__ import annotations

from service.screening.models import EntityMonitoring
from tests.service.screening.helpers import AML, config_make, config_url, customer_person_make, customer_person_url, monitoring_make

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
    assert (first["full_name"], first["birth_date"]) == ("Kari Nordmann", "1986-10-15")
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
