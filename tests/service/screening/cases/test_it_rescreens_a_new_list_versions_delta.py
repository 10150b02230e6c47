"""A new list version re-screens every screened entity against its added and changed entries
only (a small index of the delta), for the configs that receive the list; its hits become
cases like any other run's."""

from __future__ import annotations

from service.screening.models import ScreeningRun
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.list_versions import NEW_UN_PERSON, pep_import, un_import, un_xml
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened


def _sources(api, config_uuid) -> list[str]:
    return sorted(c["screening_case_match"]["list_entry"]["source_id"] for c in cases(api, config_uuid)["elements"])


def test_it_searches_the_screened_entities_against_the_added_entry_alone_and_raises_its_case(api, lists, tmp_path, searches):
    config = config_with(api, "un_security_council")
    for name in (UN_PERSON, NEW_UN_PERSON, "Kari Nordmann"):
        customer_person_screened(api, config["uuid"], name)
    assert _sources(api, config["uuid"]) == ["KPi.901"]
    searches.clear()

    result = un_import(tmp_path, "un-v2.xml", un_xml(new_individual=True))

    assert (result.added, result.changed) == (1, 0)
    assert sorted(searches) == [(1, name) for name in sorted((UN_PERSON, NEW_UN_PERSON, "Kari Nordmann"))]
    assert _sources(api, config["uuid"]) == ["KPi.901", "KPi.902"]
    [new_case] = [c for c in cases(api, config["uuid"])["elements"] if c["screening_case_match"]["list_entry"]["source_id"] == "KPi.902"]
    assert new_case["monitoring_customer_person"]["full_name"] == NEW_UN_PERSON
    assert new_case["screening_case"]["sanction_flag"] is True
    assert new_case["screening_case_match"]["list_entry"]["list_version_number"] == 2


def test_it_does_no_work_for_a_version_without_added_or_changed_entries(api, lists, tmp_path, searches):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    searches.clear()

    unchanged_file = un_import(tmp_path, "un-again.xml", un_xml())
    reformatted = un_import(tmp_path, "un-reformatted.xml", un_xml(padding="\n<!-- republished -->\n"))

    assert unchanged_file.unchanged
    assert not reformatted.unchanged and (reformatted.added, reformatted.changed) == (0, 0)
    assert searches == []
    assert not ScreeningRun.objects.filter(list_version=reformatted.version).exists()
    assert _sources(api, config["uuid"]) == ["KPi.901"]


def test_it_rescreens_a_sanction_list_only_for_configs_that_selected_it_and_pep_for_every_config(api, lists, tmp_path, searches):
    with_un = config_with(api, "un_security_council")
    without_un = config_with(api)
    for config in (with_un, without_un):
        customer_person_screened(api, config["uuid"], NEW_UN_PERSON)
        customer_person_screened(api, config["uuid"], PEP_PERSON)
    searches.clear()

    un_import(tmp_path, "un-v2.xml", un_xml(new_individual=True))
    un_searches = list(searches)
    searches.clear()
    pep_import(tmp_path, "pep-v2.json", url="https://example.org/entities/pep-1-moved")

    assert sorted(un_searches) == sorted([(1, NEW_UN_PERSON), (1, PEP_PERSON)])  # one config's two persons
    # The PEP entry's new URL is nothing the engine reads: only the person with its case is searched, per config.
    assert searches == [(1, PEP_PERSON)] * 2
    assert _sources(api, with_un["uuid"]) == ["KPi.902", "pep-1"]
    assert _sources(api, without_un["uuid"]) == ["pep-1"]
    run = ScreeningRun.objects.get(list_version__category__key="un_security_council", list_version__number=2)
    assert run.finished_timestamp is not None and run.delta_entry_count == 1
    assert [str(c.screening_config_id) for c in run.chunks.all()] == [with_un["uuid"]]
