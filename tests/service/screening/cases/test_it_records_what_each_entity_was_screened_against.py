"""The evidence of screening: each monitoring says, per list, which version its entity was last
screened against and when (`screened_against`, extension), written by every kind of run."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext

from service.screening.models import ScreeningConfig, ScreeningListVersion
from service.screening.monitoring_selectors import monitorings_screened
from service.screening.rescreen import delta_index, full_rescreen_plan
from service.screening.screening_run import RunResult, entities_screen
from tests.service.companies.factories import company_make, person_make
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.list_versions import un_import, un_xml
from tests.service.screening.cases.steps import config_with, customer_person_screened
from tests.service.screening.helpers import AML, config_url, patch
from tests.service.screening.watchlists.helpers import attach, owns, watchlist_make


def _monitoring(api, config_uuid, monitoring_uuid) -> dict:
    response = api.get(config_url(config_uuid, f"/entity-monitoring-composite/{monitoring_uuid}"), roles=AML)
    assert response.status_code == 200, response.json()
    return response.json()["entity_monitoring"]


def _screened_against(api, config_uuid, monitoring_uuid) -> dict[str, dict]:
    return {e["screening_list_category_key"]: e for e in _monitoring(api, config_uuid, monitoring_uuid)["screened_against"]}


def _when(entry: dict) -> datetime:
    return datetime.fromisoformat(entry["screened_timestamp"])


def _uuid(composite: dict) -> str:
    return composite["entity_monitoring"]["uuid"]


def test_it_records_the_lists_a_config_receives_when_a_monitoring_becomes_active(api, lists):
    with_un = config_with(api, "un_security_council")
    without_un = config_with(api)
    screened = customer_person_screened(api, with_un["uuid"], "Kari Nordmann")
    pep_only = customer_person_screened(api, without_un["uuid"], "Kari Nordmann")

    evidence = _screened_against(api, with_un["uuid"], _uuid(screened))

    assert sorted(evidence) == ["pep", "un_security_council"]
    un = evidence["un_security_council"]
    version = ScreeningListVersion.objects.get(category__key="un_security_council", number=1)
    assert (un["list_version_number"], un["list_version_uuid"]) == (1, str(version.uuid))
    assert un["screening_list_category_name"] == version.category.name
    assert abs(datetime.fromisoformat(un["list_version_imported_timestamp"]) - version.imported_at) < timedelta(milliseconds=1)
    assert _when(un) >= version.imported_at
    assert sorted(_screened_against(api, without_un["uuid"], _uuid(pep_only))) == ["pep"]  # rule 5


def test_it_records_a_new_version_for_everyone_its_delta_run_covers_searched_or_not(api, lists, tmp_path, searches):
    config = config_with(api, "un_security_council")
    listed = customer_person_screened(api, config["uuid"], UN_PERSON)
    unlisted = customer_person_screened(api, config["uuid"], "Kari Nordmann")
    before = _screened_against(api, config["uuid"], _uuid(unlisted))
    searches.clear()

    un_import(tmp_path, "un-v2.xml", un_xml(person_comment="Amended remarks."))  # nothing the engine reads

    assert {name for _, name in searches} == {UN_PERSON}  # Kari Nordmann has no hit in the delta to look for
    for monitoring in (listed, unlisted):
        after = _screened_against(api, config["uuid"], _uuid(monitoring))
        assert after["un_security_council"]["list_version_number"] == 2
        assert _when(after["un_security_council"]) > _when(before["un_security_council"])
    after = _screened_against(api, config["uuid"], _uuid(unlisted))
    assert after["pep"] == before["pep"]  # a UN update screens nobody against the PEP list


def test_a_late_run_of_a_superseded_version_does_not_make_the_evidence_older(api, lists, tmp_path):
    config = config_with(api, "un_security_council")
    monitoring = customer_person_screened(api, config["uuid"], "Kari Nordmann")
    un_import(tmp_path, "un-v2.xml", un_xml(person_comment="Amended once."))
    un_import(tmp_path, "un-v3.xml", un_xml(person_comment="Amended twice."))
    version_2 = ScreeningListVersion.objects.get(category__key="un_security_council", number=2)
    recorded = _screened_against(api, config["uuid"], _uuid(monitoring))

    config_row = ScreeningConfig.objects.get(uuid=config["uuid"])
    entities_screen(config=config_row, monitorings=monitorings_screened(screening_config=config_row),
                    loaded=delta_index(version_2.uuid).whole, result=RunResult())

    assert _screened_against(api, config["uuid"], _uuid(monitoring)) == recorded
    assert recorded["un_security_council"]["list_version_number"] == 3


def test_a_full_rescreen_renews_every_screened_monitorings_evidence_and_a_removed_one_keeps_its_last(api, lists):
    config = config_with(api, "un_security_council")
    kept = customer_person_screened(api, config["uuid"], "Kari Nordmann")
    removed = customer_person_screened(api, config["uuid"], "Ola Nordmann")
    kept_before = _screened_against(api, config["uuid"], _uuid(kept))
    removed_before = _screened_against(api, config["uuid"], _uuid(removed))
    response = patch(api, config_url(config["uuid"], f"/entity-monitoring/{_uuid(removed)}"),
                     {"removed_flag": True, "removal_reason": "Left the bank"})
    assert response.status_code == 200, response.json()

    full_rescreen_plan(config_uuid=config["uuid"])

    kept_after = _screened_against(api, config["uuid"], _uuid(kept))
    assert sorted(kept_after) == ["pep", "un_security_council"]
    assert all(_when(kept_after[key]) > _when(kept_before[key]) for key in kept_after)
    assert _monitoring(api, config["uuid"], _uuid(removed))["removed_flag"] is True
    assert _screened_against(api, config["uuid"], _uuid(removed)) == removed_before


def test_the_monitoring_collection_reads_every_monitorings_evidence_with_it(api, lists):
    config = config_with(api)

    def queries_for_the_collection() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            response = api.get(config_url(config["uuid"], "/entity-monitoring-composite"), roles=AML)
        assert response.status_code == 200, response.json()
        elements = response.json()
        assert all(m["entity_monitoring"]["screened_against"] for m in elements)
        return len(elements), len(queries)

    for name in ("Kari Nordmann", "Ola Nordmann"):
        customer_person_screened(api, config["uuid"], name)
    two = queries_for_the_collection()
    for name in ("Per Hansen", "Liv Ullmann", "Jon Dahl"):
        customer_person_screened(api, config["uuid"], name)
    five = queries_for_the_collection()

    assert (two[0], five[0]) == (2, 5)
    assert five[1] == two[1]  # no query per monitoring


def _screened_against_by_type(api, config_uuid) -> dict[str, list[str]]:
    response = api.get(config_url(config_uuid, "/entity-monitoring-composite"), roles=AML)
    assert response.status_code == 200, response.json()
    return {
        m["entity_monitoring"]["entity_monitoring_type_key"]: sorted(
            e["screening_list_category_key"] for e in m["entity_monitoring"]["screened_against"]
        )
        for m in response.json()
    }


def test_a_company_is_recorded_as_screened_against_the_sanction_lists_alone(api, lists):
    """A company's own name is searched among listed organisations, which a PEP list has none of."""
    with_un = config_with(api, "un_security_council")
    pep_only = config_with(api)
    company = company_make(name="Fjordkraft Handel AS")
    owns(person_make(full_name="Kari Nordmann"), company, 60)
    watchlist = watchlist_make(api, companies=[company])
    for config in (with_un, pep_only):
        assert patch(api, config_url(config["uuid"]), {"auto_approve_monitoring_flag": True}, roles=AML).status_code == 200
        assert attach(api, config["uuid"], watchlist).status_code == 201

    assert _screened_against_by_type(api, with_un["uuid"]) == {
        "company": ["un_security_council"], "beneficial_owners": ["pep", "un_security_council"],
    }
    assert _screened_against_by_type(api, pep_only["uuid"]) == {"company": [], "beneficial_owners": ["pep"]}
