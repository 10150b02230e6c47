"""Selecting a sanction category for a config that already screens people searches them in
that list at once: its entries were never searched for this config, and a later list update
re-screens only its changed entries."""

from __future__ import annotations

from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened
from tests.service.screening.helpers import AML, category_uuid, config_url


def test_it_raises_the_case_of_a_person_screened_before_the_category_was_selected(api, lists):
    config = config_with(api)  # PEP only: no sanction list selected yet
    customer_person_screened(api, config["uuid"], UN_PERSON)
    assert cases(api, config["uuid"])["count"] == 0

    response = api.post(
        config_url(config["uuid"], "/screening-config-screening-list-category"),
        {"screening_list_category_uuid": category_uuid("un_security_council")},
        roles=AML,
    )

    assert response.status_code == 201, response.json()
    [composite] = cases(api, config["uuid"])["elements"]
    assert composite["screening_case"]["sanction_flag"] is True
    assert composite["screening_case_match"]["list_entry"]["source_id"] == "KPi.901"


def test_it_raises_no_second_case_when_a_selected_category_is_selected_again_after_removal(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    [link] = api.get(config_url(config["uuid"], "/screening-config-screening-list-category"), roles=AML).json()
    assert api.delete(config_url(config["uuid"], f"/screening-config-screening-list-category/{link['uuid']}"), roles=AML).status_code == 204

    again = api.post(
        config_url(config["uuid"], "/screening-config-screening-list-category"),
        {"screening_list_category_uuid": category_uuid("un_security_council")},
        roles=AML,
    )

    assert again.status_code == 201, again.json()
    assert cases(api, config["uuid"])["count"] == 1
