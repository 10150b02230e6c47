"""A register import that changes roles or ownership of a watchlisted company re-evaluates
its monitorings: the new owner is monitored (active and screened with auto-approve, pending
otherwise), the former owner's monitoring is removed with a reason naming the update; an
unchanged re-import and a company on no attached watchlist cause no work. Through the
importer commands and the HTTP API."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from service.screening import tasks
from tests.service.companies.factories import company_make, person_make, role_make
from tests.service.screening.cases.conftest import UN_PERSON, lists  # noqa: F401 (a fixture)
from tests.service.screening.cases.steps import cases, config_with
from tests.service.screening.helpers import AML, config_url, monitorings, patch, status_of
from tests.service.screening.watchlists.helpers import attach, watchlist_make

FORMER_OWNER = "Kari Nordmann"
BIRTH = "1966-03-14"


@pytest.fixture
def sync_calls(monkeypatch):
    """Every sync task enqueued (they still run: tests run tasks eagerly)."""
    calls = []
    delay = tasks.screening_config_sync_task.delay

    def recording(*args, **kwargs):
        calls.append(args)
        return delay(*args, **kwargs)

    monkeypatch.setattr(tasks.screening_config_sync_task, "delay", recording)
    return calls


def _jsonl(tmp_path, name, records) -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def _owner(org_nr, full_name, percent, *, birth_date=None, from_date="2020-01-01", to_date=None) -> dict:
    return {
        "type": "role", "org_nr": org_nr, "role_type": "shareholder", "share_percentage": percent,
        "person": {"full_name": full_name, "birth_date": birth_date}, "from_date": from_date, "to_date": to_date,
    }


def _watched_company(api, *, auto_approve: bool):
    """Nordlys AS, 60% owned by Kari Nordmann, on a watchlist attached to a UN config."""
    config = config_with(api, "un_security_council")
    if auto_approve:
        assert patch(api, config_url(config["uuid"]), {"auto_approve_monitoring_flag": True}, roles=AML).status_code == 200
    nordlys = company_make(name="Nordlys AS")
    role_make(company=nordlys, role_key="shareholder", person=person_make(full_name=FORMER_OWNER), share_percentage=60)
    assert attach(api, config["uuid"], watchlist_make(api, companies=[nordlys])).status_code == 201
    return config, nordlys


def _owner_change(tmp_path, nordlys) -> str:
    """The register update: Kari's holding ends today, the listed person holds 60% from today."""
    today = timezone.localdate().isoformat()
    return _jsonl(
        tmp_path,
        "update.jsonl",
        [
            _owner(nordlys.org_nr, FORMER_OWNER, 60, from_date=None, to_date=today),
            _owner(nordlys.org_nr, UN_PERSON, 60, birth_date=BIRTH, from_date=today),
        ],
    )


def _by_name(rows) -> dict:
    return {r["entity_monitoring"]["monitoring_entity_name"]: r for r in rows}


def test_with_auto_approve_the_new_owner_is_screened_and_the_former_removed_with_a_reason(api, lists, tmp_path, sync_calls, stopped_clock):  # noqa: F811
    config, nordlys = _watched_company(api, auto_approve=True)
    before = _by_name(monitorings(api, config["uuid"], approval_status_key="active"))
    assert set(before) == {FORMER_OWNER, "Nordlys AS"}
    assert cases(api, config["uuid"])["count"] == 0

    call_command("import_jsonl", _owner_change(tmp_path, nordlys), "--quiet", "--no-analysis")

    active = _by_name(monitorings(api, config["uuid"], approval_status_key="active"))
    assert set(active) == {UN_PERSON, "Nordlys AS"}
    new_owner = active[UN_PERSON]["entity_monitoring"]
    assert new_owner["monitoring_origin_key"] == "auto_approve"
    assert new_owner["entity_monitoring_type_key"] == "beneficial_owners"
    assert "Owns 60.0% of Nordlys AS directly" in new_owner["monitoring_comment"]
    raised = cases(api, config["uuid"], related_company_uuid=str(nordlys.uuid))["elements"]
    assert [c["screening_case_match"]["list_entry"]["source_id"] for c in raised] == ["KPi.901"]

    [former] = monitorings(api, config["uuid"], approval_status_key="removed")
    assert former["entity_monitoring"]["uuid"] == before[FORMER_OWNER]["entity_monitoring"]["uuid"]
    assert former["entity_monitoring"]["removal_reason"] == (
        f"No longer a beneficial owner of Nordlys AS after the register update of {timezone.localdate().isoformat()}: "
        "no ownership chain from the person has 25% or more at every link."
    )
    assert status_of(former) == "removed"


def test_without_auto_approve_the_new_owner_waits_for_a_decision(api, lists, tmp_path):  # noqa: F811
    config, nordlys = _watched_company(api, auto_approve=False)

    call_command("import_jsonl", _owner_change(tmp_path, nordlys), "--quiet", "--no-analysis")

    pending = _by_name(monitorings(api, config["uuid"], approval_status_key="pending"))
    assert set(pending) == {UN_PERSON, "Nordlys AS"}
    assert pending[UN_PERSON]["entity_monitoring"]["monitoring_origin_key"] == "suggestion"
    assert monitorings(api, config["uuid"], approval_status_key="active") == []
    assert cases(api, config["uuid"])["count"] == 0  # nothing is screened before a decision
    [former] = monitorings(api, config["uuid"], approval_status_key="removed")
    assert former["entity_monitoring"]["monitoring_entity_name"] == FORMER_OWNER
    assert "No longer a beneficial owner of Nordlys AS after the register update of" in former["entity_monitoring"]["removal_reason"]


def test_an_unchanged_reimport_changes_nothing(api, lists, tmp_path, sync_calls):  # noqa: F811
    config, nordlys = _watched_company(api, auto_approve=True)
    update = _owner_change(tmp_path, nordlys)
    call_command("import_jsonl", update, "--quiet", "--no-analysis")
    after_first = monitorings(api, config["uuid"], approval_status_key="removed") + monitorings(api, config["uuid"])
    sync_calls.clear()

    call_command("import_jsonl", update, "--quiet", "--no-analysis")

    assert sync_calls == []
    assert monitorings(api, config["uuid"], approval_status_key="removed") + monitorings(api, config["uuid"]) == after_first


def test_a_company_on_no_attached_watchlist_causes_no_work(api, tmp_path, sync_calls):
    config, _ = _watched_company(api, auto_approve=True)
    elsewhere = company_make(name="Utenfor AS")
    watchlist_make(api, "Not attached", companies=[elsewhere])
    sync_calls.clear()

    call_command(
        "import_jsonl", _jsonl(tmp_path, "other.jsonl", [_owner(elsewhere.org_nr, "Per Utenfor", 80)]), "--quiet", "--no-analysis"
    )

    assert sync_calls == []
    assert "Per Utenfor" not in _by_name(monitorings(api, config["uuid"]))


def test_a_change_of_owners_upstream_reaches_the_watchlisted_company(api, tmp_path, sync_calls):
    """Fjell Holding AS (not watchlisted) owns all of Nordlys AS (watchlisted) through the group
    import; a new owner of Fjell becomes a beneficial owner of Nordlys through the chain."""
    config = config_with(api)
    nordlys, fjell = company_make(name="Nordlys AS"), company_make(name="Fjell Holding AS")
    group = tmp_path / "konsern-roller.csv"
    group.write_text(
        "influencing_tax_ident,influenced_tax_ident,rel_type_code,percentage\n"
        f"{fjell.org_nr},{nordlys.org_nr},HFOR,100\n",
        encoding="utf-8",
    )
    call_command("import_group_ownership", str(group), "--quiet", "--no-analysis")
    attach(api, config["uuid"], watchlist_make(api, companies=[nordlys]))
    sync_calls.clear()

    call_command(
        "import_jsonl", _jsonl(tmp_path, "fjell.jsonl", [_owner(fjell.org_nr, "Siri Fjell", 70)]), "--quiet", "--no-analysis"
    )

    assert len(sync_calls) == 1
    siri = _by_name(monitorings(api, config["uuid"], approval_status_key="pending"))["Siri Fjell"]["entity_monitoring"]
    assert siri["entity_monitoring_type_key"] == "beneficial_owners"
    assert "through Fjell Holding AS" in siri["monitoring_comment"]


def test_the_group_import_closing_a_parent_link_removes_the_owner_behind_it(api, tmp_path, stopped_clock):
    config = config_with(api)
    nordlys, fjell, annen = (company_make(name=n) for n in ("Nordlys AS", "Fjell Holding AS", "Annen Holding AS"))
    role_make(company=fjell, role_key="shareholder", person=person_make(full_name=FORMER_OWNER), share_percentage=100)
    role_make(company=annen, role_key="shareholder", person=person_make(full_name="Ola Annen"), share_percentage=100)
    header = "influencing_tax_ident,influenced_tax_ident,rel_type_code,percentage\n"
    group = tmp_path / "konsern-roller.csv"
    group.write_text(header + f"{fjell.org_nr},{nordlys.org_nr},HFOR,100\n", encoding="utf-8")
    call_command("import_group_ownership", str(group), "--quiet", "--no-analysis")
    attach(api, config["uuid"], watchlist_make(api, companies=[nordlys]))
    assert FORMER_OWNER in _by_name(monitorings(api, config["uuid"], approval_status_key="pending"))

    group.write_text(header + f"{annen.org_nr},{nordlys.org_nr},HFOR,100\n", encoding="utf-8")
    call_command("import_group_ownership", str(group), "--quiet", "--no-analysis")

    assert set(_by_name(monitorings(api, config["uuid"], approval_status_key="pending"))) == {"Ola Annen", "Nordlys AS"}
    [former] = monitorings(api, config["uuid"], approval_status_key="removed")
    assert former["entity_monitoring"]["monitoring_entity_name"] == FORMER_OWNER
    assert former["entity_monitoring"]["removal_reason"].startswith(
        f"No longer a beneficial owner of Nordlys AS after the register update of {timezone.localdate().isoformat()}"
    )
