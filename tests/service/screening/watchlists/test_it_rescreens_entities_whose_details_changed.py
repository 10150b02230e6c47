"""A register import that changes what screening compares of a monitored person (name, birth
date, through a role record that finds the person by national id) or of a monitored company
(its name, through import_enheter) screens those entities again: a hit on the new details is
a case at once, not at the next full re-screen. Only active monitorings are screened; an
unchanged re-import screens nothing. Through the importer commands and the HTTP API."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from service.screening import tasks
from service.screening.monitoring_models import EntityMonitoring
from tests.service.companies.factories import company_make, person_make, role_make
from tests.service.companies.importers.conftest import csv_write, enheter_rows, enheter_sample
from tests.service.screening.cases.conftest import UN_PERSON, lists  # noqa: F401 (a fixture)
from tests.service.screening.cases.steps import cases, config_with
from tests.service.screening.helpers import AML, config_url, monitorings, patch
from tests.service.screening.watchlists.helpers import attach, watchlist_make

NATIONAL_ID = "01017012345"
BIRTH = "1966-03-14"
UN_COMPANY = "KORYO FJORD TRADING"


@pytest.fixture
def screenings(monkeypatch):
    """The monitorings of every screening task enqueued (they still run: tests run tasks eagerly)."""
    calls: list[list[str]] = []
    delay = tasks.screening_run_task.delay

    def recording(monitoring_uuids, *args, **kwargs):
        calls.append(list(monitoring_uuids))
        return delay(monitoring_uuids, *args, **kwargs)

    monkeypatch.setattr(tasks.screening_run_task, "delay", recording)
    return calls


def _watched(api, *, auto_approve: bool = True):
    """Nordlys AS on a watchlist of a UN config, 60% owned by Kari Nordmann (known by her national id)."""
    config = config_with(api, "un_security_council")
    if auto_approve:
        assert patch(api, config_url(config["uuid"]), {"auto_approve_monitoring_flag": True}, roles=AML).status_code == 200
    nordlys = company_make(name="Nordlys AS")
    owner = person_make(full_name="Kari Nordmann", national_id=NATIONAL_ID)
    role_make(company=nordlys, role_key="shareholder", person=owner, share_percentage=60, from_date="2020-01-01")
    assert attach(api, config["uuid"], watchlist_make(api, companies=[nordlys])).status_code == 201
    return config, nordlys, owner


def _role_record(tmp_path, nordlys, *, full_name: str, birth_date: str | None) -> str:
    """The same role (holder found by national id), its person's details as given."""
    record = {
        "type": "role", "org_nr": nordlys.org_nr, "role_type": "shareholder", "share_percentage": 60,
        "from_date": "2020-01-01", "to_date": None,
        "person": {"full_name": full_name, "birth_date": birth_date, "national_id": NATIONAL_ID, "national_id_schema": "NO"},
    }
    path = tmp_path / "roles.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return str(path)


def _renamed(tmp_path, company, name: str) -> str:
    header, rows = enheter_rows(enheter_sample())
    return str(csv_write(tmp_path / "enheter.csv", header, [dict(rows[0], organisasjonsnummer=company.org_nr, navn=name)]))


def _monitoring_of(api, config, name: str, status: str = "active") -> dict:
    [found] = [
        m["entity_monitoring"] for m in monitorings(api, config["uuid"], approval_status_key=status)
        if m["entity_monitoring"]["monitoring_entity_name"] == name
    ]
    return found


def test_a_person_whose_name_and_birth_date_change_is_screened_again(api, lists, tmp_path, screenings, capsys):  # noqa: F811
    config, nordlys, owner = _watched(api)
    monitoring = _monitoring_of(api, config, "Kari Nordmann")
    assert cases(api, config["uuid"])["count"] == 0
    screenings.clear()

    call_command("import_jsonl", _role_record(tmp_path, nordlys, full_name=UN_PERSON, birth_date=BIRTH), "--no-analysis")

    assert "updated 1" in capsys.readouterr().out  # the role is the same; its person changed
    assert screenings == [[monitoring["uuid"]]]
    [case] = cases(api, config["uuid"])["elements"]
    assert case["screening_case_match"]["list_entry"]["source_id"] == "KPi.901"
    assert case["monitoring_person"]["uuid"] == str(owner.uuid)
    assert _monitoring_of(api, config, UN_PERSON)["uuid"] == monitoring["uuid"]  # the same monitoring, not a new one


def test_an_unchanged_person_is_not_screened_again(api, lists, tmp_path, screenings):  # noqa: F811
    config, nordlys, _ = _watched(api)
    call_command("import_jsonl", _role_record(tmp_path, nordlys, full_name=UN_PERSON, birth_date=BIRTH), "--quiet", "--no-analysis")
    screenings.clear()

    call_command("import_jsonl", _role_record(tmp_path, nordlys, full_name=UN_PERSON, birth_date=BIRTH), "--quiet", "--no-analysis")

    assert screenings == []
    assert cases(api, config["uuid"])["count"] == 1


def test_a_pending_monitoring_is_not_screened_when_its_person_changes(api, lists, tmp_path, screenings):  # noqa: F811
    config, nordlys, _ = _watched(api, auto_approve=False)
    assert _monitoring_of(api, config, "Kari Nordmann", status="pending")

    call_command("import_jsonl", _role_record(tmp_path, nordlys, full_name=UN_PERSON, birth_date=BIRTH), "--quiet", "--no-analysis")

    assert screenings == []
    assert cases(api, config["uuid"])["count"] == 0  # nothing is screened before a decision


def test_a_company_renamed_by_the_register_is_screened_again(api, lists, tmp_path, screenings):  # noqa: F811
    config, nordlys, _ = _watched(api)
    company_monitoring = _monitoring_of(api, config, "Nordlys AS")
    screenings.clear()

    call_command("import_enheter", _renamed(tmp_path, nordlys, f"{UN_COMPANY} AS"), "--quiet", "--no-analysis")

    assert screenings == [[company_monitoring["uuid"]]]
    [case] = cases(api, config["uuid"])["elements"]
    assert case["screening_case_match"]["list_entry"]["source_id"] == "KPe.901"
    assert case["monitoring_company"]["uuid"] == str(nordlys.uuid)

    screenings.clear()
    call_command("import_enheter", _renamed(tmp_path, nordlys, f"{UN_COMPANY} AS"), "--quiet", "--no-analysis")
    assert screenings == []  # the same name again: nothing to screen


def test_a_rescreen_whose_message_is_lost_stays_owed_for_the_resume(api, lists, tmp_path, monkeypatch, settings):  # noqa: F811
    config, nordlys, _ = _watched(api)
    monitoring = _monitoring_of(api, config, "Kari Nordmann")
    monkeypatch.setattr(tasks.screening_run_task, "delay", lambda *args, **kwargs: None)  # the broker lost it

    call_command("import_jsonl", _role_record(tmp_path, nordlys, full_name=UN_PERSON, birth_date=BIRTH), "--quiet", "--no-analysis")

    assert cases(api, config["uuid"])["count"] == 0
    assert EntityMonitoring.objects.get(uuid=monitoring["uuid"]).screening_owed_timestamp is not None
    monkeypatch.undo()
    settings.VAKT_RESUME_AFTER_SECONDS = 0
    assert tasks.screening_monitorings_resume() == 1
    [case] = cases(api, config["uuid"])["elements"]
    assert case["screening_case_match"]["list_entry"]["source_id"] == "KPi.901"
