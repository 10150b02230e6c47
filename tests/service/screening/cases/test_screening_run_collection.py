"""GET /v1/screening-config/{uuid}/screening-run (extension): the config's re-screening runs, newest
first, each with the config's own part of it; another organisation's config is 404, and a run
that screened both organisations shows each only its own figures."""

from __future__ import annotations

from service.screening.tasks import screening_full_rescreen_scheduled
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.list_versions import un_import, un_xml
from tests.service.screening.cases.steps import config_with, customer_person_screened
from tests.service.screening.helpers import AML, config_url


def _runs(caller, config_uuid, **params) -> dict:
    response = caller.get(config_url(config_uuid, "/screening-run"), params, roles=AML)
    assert response.status_code == 200, response.json()
    [collection] = response.json()
    return collection


def test_it_lists_the_runs_newest_first_with_this_configs_part(api, other_api, lists, tmp_path):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    customer_person_screened(api, config["uuid"], "Kari Nordmann")
    theirs = config_with(other_api, "un_security_council")
    for name in (PEP_PERSON, "Ola Hansen", "Per Olsen"):
        customer_person_screened(other_api, theirs["uuid"], name)

    screening_full_rescreen_scheduled()  # both organisations in one run
    un_import(tmp_path, "un-v2.xml", un_xml(person_comment="Amended."))  # the listed person's entry changed

    runs = _runs(api, config["uuid"])
    delta, full = runs["elements"][0], runs["elements"][1]
    assert (delta["screening_run_kind_key"], delta["screening_list_category_key"], delta["list_version_number"]) == (
        "list_version", "un_security_council", 2)
    assert delta["finished_flag"] is True and delta["finished_timestamp"] is not None
    assert (delta["screened_count"], delta["hit_count"], delta["cases_moved_count"]) == (2, 1, 1)  # the case follows the entry
    assert full["screening_run_kind_key"] == "full" and full["screening_list_category_key"] is None
    assert (full["screened_count"], full["hit_count"], full["cases_created_count"]) == (2, 1, 0)  # ours only; no second case
    assert full["chunks_done_count"] == full["chunk_count"] == 1
    assert [r["create_timestamp"] for r in runs["elements"]] == sorted((r["create_timestamp"] for r in runs["elements"]), reverse=True)

    their_full = next(r for r in _runs(other_api, theirs["uuid"])["elements"] if r["uuid"] == full["uuid"])
    assert their_full["screened_count"] == 3
    assert _runs(api, config["uuid"], limit=1)["has_more"] is True


def test_another_organisations_config_is_404_and_aml_is_needed(api, other_api, lists):
    theirs = config_with(other_api)
    assert api.get(config_url(theirs["uuid"], "/screening-run"), roles=AML).status_code == 404
    mine = config_with(api)
    refused = api.get(config_url(mine["uuid"], "/screening-run"), roles=["credit_check"])
    assert refused.status_code == 403 and refused.json()["code"] == "role_missing"
