"""Companies on an attached watchlist get monitorings for themselves and the persons the
suggestion setting names: pending suggestions, or active with auto-approve; leaving the
watchlist (or detaching it) removes them with a reason. All through the HTTP API."""

from __future__ import annotations

import json

from service.screening import subscription
from tests.service.companies.factories import company_make, person_make, role_make
from tests.service.screening.helpers import (
    AML,
    category_uuid,
    config_make,
    config_url,
    decide,
    monitorings,
    patch,
    status_of,
)
from tests.service.screening.watchlists.helpers import (
    attach,
    nordlys_owned_by_kari,
    owns,
    watchlist_add,
    watchlist_make,
    watchlist_remove,
)


def _by_name(rows):
    return {r["entity_monitoring"]["monitoring_entity_name"]: r for r in rows}


def test_it_suggests_the_beneficial_owner_and_the_company_then_an_approval_makes_them_active(api):
    config = config_make(api)
    api.post(config_url(config["uuid"], "/screening-config-screening-list-category"), {"screening_list_category_uuid": category_uuid()}, roles=AML)
    watchlist = watchlist_make(api)
    assert attach(api, config["uuid"], watchlist).status_code == 201
    nordlys, kari = nordlys_owned_by_kari()

    watchlist_add(api, watchlist, nordlys)

    pending = _by_name(monitorings(api, config["uuid"], approval_status_key="pending"))
    assert set(pending) == {"Kari Nordmann", "Nordlys AS"}
    owner = pending["Kari Nordmann"]["entity_monitoring"]
    assert owner["entity_monitoring_type_key"] == "beneficial_owners"
    assert owner["monitoring_person_uuid"] == str(kari.uuid)
    assert owner["related_company_uuid"] == str(nordlys.uuid)
    assert owner["monitoring_origin_key"] == "suggestion"
    assert "31.0% of Nordlys AS through Fjell Holding AS" in owner["monitoring_comment"]
    assert pending["Nordlys AS"]["entity_monitoring"]["entity_monitoring_type_key"] == "company"
    assert monitorings(api, config["uuid"], approval_status_key="active") == []

    approved = decide(api, config["uuid"], owner["uuid"], decision_comment="Checked the register")
    assert status_of(approved.json()) == "active"
    active = monitorings(api, config["uuid"], approval_status_key="active", related_company_uuid=str(nordlys.uuid))
    assert [r["entity_monitoring"]["uuid"] for r in active] == [owner["uuid"]]


def test_it_creates_active_monitorings_with_auto_approve(api):
    config = config_make(api, auto_approve_monitoring_flag=True)
    watchlist = watchlist_make(api)
    attach(api, config["uuid"], watchlist)
    nordlys, _ = nordlys_owned_by_kari()

    watchlist_add(api, watchlist, nordlys)

    active = _by_name(monitorings(api, config["uuid"], approval_status_key="active"))
    assert set(active) == {"Kari Nordmann", "Nordlys AS"}
    kari = active["Kari Nordmann"]
    assert kari["entity_monitoring"]["monitoring_origin_key"] == "auto_approve"
    assert [d["decision_origin_key"] for d in kari["entity_monitoring_decision"]] == ["auto_approve"]
    assert monitorings(api, config["uuid"], approval_status_key="pending") == []


def test_attaching_a_watchlist_covers_the_companies_already_on_it(api):
    config = config_make(api)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist = watchlist_make(api, companies=[nordlys])
    attach(api, config["uuid"], watchlist)
    assert set(_by_name(monitorings(api, config["uuid"]))) == {"Kari Nordmann", "Nordlys AS"}


def test_the_board_stands_in_when_nobody_owns_a_quarter(api):
    config = config_make(api)
    watchlist = watchlist_make(api)
    attach(api, config["uuid"], watchlist)
    company = company_make(name="Spredt AS")
    owns(person_make(full_name="Liten Eier"), company, 10)
    role_make(company=company, role_key="board_chair", person=person_make(full_name="Styre Leder"))
    watchlist_add(api, watchlist, company)
    rows = _by_name(monitorings(api, config["uuid"]))
    assert set(rows) == {"Styre Leder", "Spredt AS"}
    assert rows["Styre Leder"]["entity_monitoring"]["entity_monitoring_type_key"] == "alternative_beneficial_owners"


def test_leaving_the_watchlist_removes_the_monitorings_and_says_why(api):
    config = config_make(api, auto_approve_monitoring_flag=True)
    watchlist = watchlist_make(api)
    attach(api, config["uuid"], watchlist)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist_add(api, watchlist, nordlys)

    watchlist_remove(api, watchlist, nordlys)

    assert monitorings(api, config["uuid"], approval_status_key="active") == []
    removed = monitorings(api, config["uuid"], approval_status_key="removed")
    assert len(removed) == 2
    assert {r["entity_monitoring"]["removal_reason"] for r in removed} == {
        "The company is no longer on a watchlist attached to this screening config."
    }


def test_a_company_on_two_attached_watchlists_stays_until_it_is_on_neither(api):
    config = config_make(api, auto_approve_monitoring_flag=True)
    first, second = watchlist_make(api, "A"), watchlist_make(api, "B")
    nordlys, _ = nordlys_owned_by_kari()
    watchlist_add(api, first, nordlys)
    watchlist_add(api, second, nordlys)
    attach(api, config["uuid"], first)
    link = attach(api, config["uuid"], second).json()

    watchlist_remove(api, first, nordlys)
    assert len(monitorings(api, config["uuid"], approval_status_key="active")) == 2

    assert api.delete(config_url(config["uuid"], f"/screening-config-watchlist/{link['uuid']}"), roles=AML).status_code == 204
    assert monitorings(api, config["uuid"], approval_status_key="active") == []
    assert len(monitorings(api, config["uuid"], approval_status_key="removed")) == 2


def test_deleting_the_watchlist_removes_its_monitorings(api):
    config = config_make(api)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist = watchlist_make(api, companies=[nordlys])
    attach(api, config["uuid"], watchlist)
    assert api.delete(f"/analysis/v1/watchlist/{watchlist}", roles=AML).status_code == 204
    assert {status_of(r) for r in monitorings(api, config["uuid"])} == {"removed"}


def test_rejoining_gives_new_pending_monitorings_not_the_old_approval(api):
    config = config_make(api)
    watchlist = watchlist_make(api)
    attach(api, config["uuid"], watchlist)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist_add(api, watchlist, nordlys)
    for row in monitorings(api, config["uuid"]):
        decide(api, config["uuid"], row["entity_monitoring"]["uuid"])
    watchlist_remove(api, watchlist, nordlys)
    watchlist_add(api, watchlist, nordlys)
    assert len(monitorings(api, config["uuid"], approval_status_key="pending")) == 2
    assert monitorings(api, config["uuid"], approval_status_key="active") == []


def test_turning_auto_approve_on_approves_the_pending_suggestions_but_not_a_decline(api):
    config = config_make(api)
    watchlist = watchlist_make(api)
    attach(api, config["uuid"], watchlist)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist_add(api, watchlist, nordlys)
    company_row = _by_name(monitorings(api, config["uuid"]))["Nordlys AS"]
    decide(api, config["uuid"], company_row["entity_monitoring"]["uuid"], approved=False)

    assert patch(api, config_url(config["uuid"]), {"auto_approve_monitoring_flag": True}).status_code == 200

    statuses = {name: status_of(r) for name, r in _by_name(monitorings(api, config["uuid"])).items()}
    assert statuses == {"Kari Nordmann": "active", "Nordlys AS": "declined"}


def test_the_extended_setting_adds_the_board(api):
    config = config_make(api)
    watchlist = watchlist_make(api)
    attach(api, config["uuid"], watchlist)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist_add(api, watchlist, nordlys)
    assert "Ola Styre" not in _by_name(monitorings(api, config["uuid"]))

    extended = next(
        s["uuid"]
        for s in api.get("/analysis/v1/screening-config-system-suggestion-setting", roles=AML).json()
        if s["screening_config_system_suggestion_setting_key"] == "enin_calculated_extended_beneficial_owners"
    )
    patch(api, config_url(config["uuid"]), {"screening_config_system_suggestion_setting_uuid": extended})

    assert {"Kari Nordmann", "Nordlys AS", "Ola Styre"} <= set(_by_name(monitorings(api, config["uuid"], approval_status_key="pending")))


def test_other_organisations_configs_do_not_follow_my_watchlists(api, other_api):
    mine, theirs = config_make(api), config_make(other_api, auto_approve_monitoring_flag=True)
    watchlist = watchlist_make(api)
    attach(api, mine["uuid"], watchlist)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist_add(api, watchlist, nordlys)
    assert len(monitorings(api, mine["uuid"])) == 2
    assert monitorings(other_api, theirs["uuid"]) == []


def test_a_replace_reevaluates_each_config_once_for_the_added_and_the_removed(api, monkeypatch):
    config = config_make(api, auto_approve_monitoring_flag=True)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist = watchlist_make(api, companies=[nordlys])
    attach(api, config["uuid"], watchlist)
    newcomer = company_make(name="Havbris AS")
    syncs = []

    def recorded(**kwargs):
        syncs.append(kwargs)
        return enqueue(**kwargs)

    enqueue = subscription.companies_sync_on_commit
    monkeypatch.setattr(subscription, "companies_sync_on_commit", recorded)

    body = [{"org_nr": newcomer.org_nr, "org_nr_schema": "NO"}]
    response = api.client.put(f"/analysis/v1/watchlist/{watchlist}/company", json.dumps(body), content_type="application/json", **api.headers(AML))

    assert response.status_code == 200, response.json()
    assert [(str(s["config_uuid"]), s["company_uuids"]) for s in syncs] == [(config["uuid"], [newcomer.uuid, nordlys.uuid])]
    statuses = {name: status_of(r) for name, r in _by_name(monitorings(api, config["uuid"])).items()}
    assert statuses == {"Havbris AS": "active", "Nordlys AS": "removed", "Kari Nordmann": "removed"}
