"""A case closed as a false positive stays closed when the list comes again unchanged or with
other entries changed; when its own entry changes a new case is raised that links it. An open
case is moved to the changed entry; a confirmed hit is never raised again."""

from __future__ import annotations

from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.list_versions import pep_import, un_import, un_xml
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, review


def _only_case(api, config_uuid) -> dict:
    [composite] = cases(api, config_uuid)["elements"]
    return composite


def test_it_stays_closed_for_an_unchanged_list_or_other_entries_changing(api, lists, tmp_path):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = _only_case(api, config["uuid"])["screening_case"]["uuid"]
    assert review(api, config["uuid"], case_uuid, "false_positive", "no_match").status_code == 201

    un_import(tmp_path, "un-again.xml", un_xml())
    other_changed = un_import(tmp_path, "un-company.xml", un_xml(company_comment="Renamed its vessels."))
    customer_person_screened(api, config["uuid"], "Kari Nordmann")  # an ordinary run meanwhile

    assert other_changed.changed == 1
    composite = _only_case(api, config["uuid"])
    assert composite["screening_case"]["uuid"] == case_uuid
    assert composite["screening_case"]["screening_case_status_key"] == "complete"


def test_it_raises_a_new_case_linking_the_false_positive_when_its_entry_changes(api, lists, tmp_path):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    old = _only_case(api, config["uuid"])
    review(api, config["uuid"], old["screening_case"]["uuid"], "false_positive", "no_match")

    changed = un_import(tmp_path, "un-v2.xml", un_xml(person_comment="Now also uses a Latvian passport."))
    again = un_import(tmp_path, "un-v3.xml", un_xml(person_comment="Now also uses a Latvian passport.", padding=" "))

    assert changed.changed == 1 and (again.added, again.changed) == (0, 0)
    newest, closed = cases(api, config["uuid"])["elements"]
    assert closed["screening_case"]["uuid"] == old["screening_case"]["uuid"]
    assert closed["screening_case"]["previous_screening_case_uuid"] is None
    assert newest["screening_case"]["previous_screening_case_uuid"] == old["screening_case"]["uuid"]
    assert newest["screening_case"]["screening_case_status_key"] == "pending"
    entry = newest["screening_case_match"]["list_entry"]
    assert entry["source_id"] == "KPi.901" and entry["list_version_number"] == 2
    assert entry["remarks"] == "Now also uses a Latvian passport."
    assert entry["content_hash"] != closed["screening_case_match"]["list_entry"]["content_hash"]


def test_it_moves_an_open_case_to_the_changed_entry_and_never_raises_a_confirmed_hit_again(api, lists, tmp_path):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], PEP_PERSON)
    customer_person_screened(api, config["uuid"], UN_PERSON)
    by_source = {c["screening_case_match"]["list_entry"]["source_id"]: c for c in cases(api, config["uuid"])["elements"]}
    review(api, config["uuid"], by_source["pep-1"]["screening_case"]["uuid"], "in_review", "possible_match")
    review(api, config["uuid"], by_source["KPi.901"]["screening_case"]["uuid"], "confirmed_hit", "match")

    pep_import(tmp_path, "pep-v2.json", url="https://example.org/entities/pep-1-moved")
    un_import(tmp_path, "un-v2.xml", un_xml(person_comment="Travel ban extended."))

    after = {c["screening_case_match"]["list_entry"]["source_id"]: c for c in cases(api, config["uuid"])["elements"]}
    assert len(cases(api, config["uuid"])["elements"]) == 2
    moved = after["pep-1"]
    assert moved["screening_case"]["uuid"] == by_source["pep-1"]["screening_case"]["uuid"]
    assert moved["screening_case"]["screening_case_status_key"] == "ongoing"
    assert moved["screening_case_match"]["list_entry"]["source_url"] == "https://example.org/entities/pep-1-moved"
    assert moved["screening_case_match"]["list_entry"]["list_version_number"] == 2
    assert len(moved["screening_case_review_composites"]) == 1  # its review stays
    confirmed = after["KPi.901"]
    assert confirmed["screening_case"]["uuid"] == by_source["KPi.901"]["screening_case"]["uuid"]
    assert confirmed["screening_case_match"]["list_entry"]["list_version_number"] == 1
