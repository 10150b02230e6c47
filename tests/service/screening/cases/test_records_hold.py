"""A legal hold keeps an entity's screening records past the retention period: an
investigation needs them. POST /screening-config/{uuid}/records-hold places it, GET lists the
holds, POST /records-hold/{uuid}/release ends it; the daily deletion skips what is held."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from service.audit.models import AuditEvent
from service.screening import hold_services, records_retention
from service.screening.models import CustomerPerson, EntityMonitoring, ScreeningConfig, ScreeningRecordsHold
from service.screening.tasks import screening_records_retention
from tests.racing import race
from tests.service.companies.factories import company_make, person_make
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, member_of
from tests.service.screening.helpers import AML, config_url, customer_person_make, customer_person_url, monitoring_make, patch
from tests.service.screening.watchlists.helpers import attach, owns, watchlist_make
from tests.service.screening.cases.test_it_deletes_screening_records_after_the_retention_period import (
    RETENTION,
    _customer,
    _remove,
    _removed_ago,
)

V1 = "/analysis/v1"
REASON = "Reported to Økokrim 12.03.2026; the police asked for the customer's records."


def _hold(api, config_uuid, entity_key, entity_uuid, reason=REASON, **body):
    return api.post(config_url(config_uuid, "/records-hold"),
                    {"entity_key": entity_key, "entity_uuid": str(entity_uuid), "reason": reason, **body}, roles=AML)


def _release(api, hold_uuid, release_reason="The police closed the case.", **body):
    return api.post(f"{V1}/records-hold/{hold_uuid}/release", {"release_reason": release_reason, **body}, roles=AML)


def _locs(response) -> list:
    return [error["loc"] for error in response.json()["errors"]]


def test_it_keeps_a_held_former_customer_past_the_period_and_deletes_it_once_released(api, lists):
    config = config_with(api, "un_security_council")
    former = _customer(api, config["uuid"], UN_PERSON, age=RETENTION * 2)
    anna = member_of(api, "anna@nordbank.no")

    placed = _hold(api, config["uuid"], "customer_person", former["person"], app_membership_uuid=anna)

    assert placed.status_code == 201, placed.json()
    hold = placed.json()
    assert (hold["entity_key"], hold["entity_uuid"], hold["entity_label"], hold["reason"], hold["app_membership_email"],
            hold["in_force_flag"], hold["released_timestamp"]) == (
        "customer_person", former["person"], UN_PERSON, REASON, "anna@nordbank.no", True, None)
    assert screening_records_retention.apply().get() == 0
    read = api.get(customer_person_url(former["person"]), roles=AML).json()
    assert read["customer_person"]["records_held_flag"] is True
    assert read["customer_person"]["retained_until"] is None  # not deleted while held
    assert read["records_hold"]["uuid"] == hold["uuid"]
    listed = api.get(config_url(config["uuid"], "/customer-person"), roles=AML).json()
    assert [(p["records_held_flag"], p["retained_until"]) for p in listed] == [(True, None)]

    released = _release(api, hold["uuid"], app_membership_uuid=anna)

    assert released.status_code == 200, released.json()
    assert (released.json()["in_force_flag"], released.json()["released_by_app_membership_email"],
            released.json()["release_reason"]) == (False, "anna@nordbank.no", "The police closed the case.")
    read = api.get(customer_person_url(former["person"]), roles=AML).json()
    assert read["records_hold"] is None and read["customer_person"]["retained_until"] is not None
    assert screening_records_retention.apply().get() == 1
    assert not CustomerPerson.objects.exists() and not ScreeningRecordsHold.objects.exists()
    assert AuditEvent.objects.get(action_key="screening_records.delete").after["records_hold_count"] == 1
    # The hold's reason can name the person: its records are redacted with the person's.
    holds_log = AuditEvent.objects.filter(object_type="records_hold").order_by("created_timestamp")
    assert [(e.action_key, e.redacted_timestamp is not None, e.object_label, e.after) for e in holds_log] == [
        ("records_hold.place", True, "", {"entity_key": None, "entity_uuid": None, "reason": None}),
        ("records_hold.release", True, "", {"released_flag": None, "release_reason": None}),
    ]
    assert [str(e.actor_app_membership_id) for e in holds_log] == [anna, anna]  # who did it stays


def test_a_hold_on_a_company_keeps_the_persons_screened_for_it_and_one_on_a_person_only_them(api, lists):
    config = config_with(api, "un_security_council")
    assert patch(api, config_url(config["uuid"]), {"auto_approve_monitoring_flag": True}, roles=AML).status_code == 200
    company = company_make(name="Koryo Fjord Trading AS")
    owner = person_make(full_name=UN_PERSON)
    owns(owner, company, 60)
    link = attach(api, config["uuid"], watchlist_make(api, companies=[company])).json()
    assert api.delete(config_url(config["uuid"], f"/screening-config-watchlist/{link['uuid']}"), roles=AML).status_code == 204
    EntityMonitoring.objects.filter(screening_config_id=config["uuid"]).update(
        removed_timestamp=timezone.now() - RETENTION * 2)

    on_company = _hold(api, config["uuid"], "company", company.uuid).json()
    assert screening_records_retention.apply().get() == 0
    assert {c["entity_inquiry"]["inquiry_entity_key"] for c in cases(api, config["uuid"])["elements"]} == {"company", "person"}

    assert _release(api, on_company["uuid"]).status_code == 200
    assert _hold(api, config["uuid"], "person", owner.uuid).status_code == 201
    assert screening_records_retention.apply().get() == 1  # the company's go, the owner's are held
    assert {c["entity_inquiry"]["inquiry_entity_key"] for c in cases(api, config["uuid"])["elements"]} == {"person"}
    assert list(ScreeningRecordsHold.objects.values_list("entity_key", flat=True)) == ["person"]


def test_it_lists_holds_newest_first_and_narrows_them(api, lists):
    config = config_with(api, "un_security_council")
    kari = customer_person_make(api, config["uuid"], full_name="Kari Nordmann")
    ola = customer_person_make(api, config["uuid"], full_name="Ola Nordmann")
    first = _hold(api, config["uuid"], "customer_person", kari["uuid"]).json()
    assert _release(api, first["uuid"]).status_code == 200
    second = _hold(api, config["uuid"], "customer_person", kari["uuid"], reason="A dispute with the customer.").json()
    third = _hold(api, config["uuid"], "customer_person", ola["uuid"]).json()

    def listed(query=""):
        response = api.get(config_url(config["uuid"], f"/records-hold{query}"), roles=AML)
        assert response.status_code == 200, response.json()
        return [h["uuid"] for h in response.json()]

    assert listed() == [third["uuid"], second["uuid"], first["uuid"]]
    assert listed(f"?entity_key=customer_person&entity_uuid={kari['uuid']}") == [second["uuid"], first["uuid"]]
    assert listed("?in_force_flag=false") == [first["uuid"]]
    assert listed("?in_force_flag=true&limit=1&offset=1") == [second["uuid"]]


def test_bad_input_is_refused_naming_the_field_with_nothing_written(api, other_api, lists):
    config = config_with(api, "un_security_council")
    kari = customer_person_make(api, config["uuid"], full_name="Kari Nordmann")
    theirs = customer_person_make(other_api, config_with(other_api, "un_security_council")["uuid"])
    never_screened = person_make(full_name="Per Hansen")

    blank = _hold(api, config["uuid"], "customer_person", kari["uuid"], reason="   ")
    unknown_key = _hold(api, config["uuid"], "beneficial_owner", kari["uuid"])
    too_long = _hold(api, config["uuid"], "customer_person", kari["uuid"], reason="x" * 1001)
    stranger = _hold(api, config["uuid"], "customer_person", theirs["uuid"])
    not_screened = _hold(api, config["uuid"], "person", never_screened.uuid)
    bad_member = _hold(api, config["uuid"], "customer_person", kari["uuid"], app_membership_uuid=str(uuid.uuid4()))
    other_config = other_api.post(config_url(config["uuid"], "/records-hold"),
                                  {"entity_key": "customer_person", "entity_uuid": kari["uuid"], "reason": REASON}, roles=AML)
    no_role = api.post(config_url(config["uuid"], "/records-hold"),
                       {"entity_key": "customer_person", "entity_uuid": kari["uuid"], "reason": REASON}, roles=[])

    assert (blank.status_code, _locs(blank)) == (400, [["body", "reason"]])
    assert (unknown_key.status_code, _locs(unknown_key)) == (400, [["body", "entity_key"]])
    assert (too_long.status_code, _locs(too_long)) == (400, [["body", "reason"]])
    assert (stranger.status_code, _locs(stranger)) == (404, [["body", "entity_uuid"]])  # another organisation's person
    assert (not_screened.status_code, _locs(not_screened)) == (404, [["body", "entity_uuid"]])
    assert (bad_member.status_code, _locs(bad_member)) == (400, [["body", "app_membership_uuid"]])
    assert other_config.status_code == 404 and no_role.status_code == 403
    assert not ScreeningRecordsHold.objects.exists()

    hold = _hold(api, config["uuid"], "customer_person", kari["uuid"]).json()
    again = _hold(api, config["uuid"], "customer_person", kari["uuid"])
    assert (again.status_code, again.json()["code"], _locs(again)) == (400, "already_held", [["body", "entity_uuid"]])
    assert _release(other_api, hold["uuid"]).status_code == 404  # another organisation's hold
    no_reason = _release(api, hold["uuid"], release_reason=" ")
    assert (no_reason.status_code, _locs(no_reason)) == (400, [["body", "release_reason"]])
    assert ScreeningRecordsHold.objects.get().released_timestamp is None
    assert _release(api, hold["uuid"]).status_code == 200
    twice = _release(api, hold["uuid"])
    assert (twice.status_code, twice.json()["code"]) == (400, "already_released")
    assert ScreeningRecordsHold.objects.count() == 1
    assert AuditEvent.objects.filter(object_type="records_hold").count() == 2  # one place, one release


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite runs one writer at a time")
def test_a_hold_placed_while_the_deletion_waits_keeps_the_records(api, lists, monkeypatch):
    """The hold locks the rows the deletion locks first, in its order: a deletion that asks for
    them while the hold is being placed waits, then sees the hold and deletes nothing."""
    config = config_with(api, "un_security_council")
    owner = person_make(full_name=UN_PERSON)
    company = company_make(name="Nordlys AS")
    made = monitoring_make(api, config["uuid"], person=owner.uuid, related_company=company.uuid,
                           type_key="beneficial_owners", decision={"approved_flag": True})
    monitoring_make(api, config["uuid"], company=company.uuid, type_key="company", decision={"approved_flag": True})
    for monitoring in EntityMonitoring.objects.filter(screening_config_id=config["uuid"]):
        _remove(api, config["uuid"], monitoring.uuid)
        _removed_ago(monitoring.uuid, RETENTION * 2)
    expired = {e.entity_uuid: e for e in records_retention.expired_entities(now=timezone.now())}
    assert set(expired) == {owner.uuid, company.uuid}

    def place():
        return hold_services.records_hold_place(
            config=ScreeningConfig.objects.get(uuid=config["uuid"]), entity_key="company", entity_uuid=company.uuid,
            reason=REASON,
        ).uuid

    hold, deleted = race(monkeypatch, hold_services, "entity_label", place,
                         lambda: records_retention.screening_records_delete(expired=expired[owner.uuid]))

    assert ScreeningRecordsHold.objects.filter(uuid=hold).exists()
    assert deleted is False
    assert EntityMonitoring.objects.filter(uuid=made["entity_monitoring"]["uuid"]).exists()


def test_it_says_until_when_a_register_entitys_records_are_kept(api, other_api, lists, settings):
    """GET /screening-config/{uuid}/records-retention: a former owner is kept while the company
    is monitored; once the company's monitoring is removed, five years after; null while held."""
    config = config_with(api, "un_security_council")
    company = company_make(name="Nordlys AS")
    owner = person_make(full_name=UN_PERSON)
    sold = monitoring_make(api, config["uuid"], person=owner.uuid, related_company=company.uuid,
                           type_key="beneficial_owners", decision={"approved_flag": True})
    own = monitoring_make(api, config["uuid"], company=company.uuid, type_key="company", decision={"approved_flag": True})

    def read(key, entity, caller=api):
        return caller.get(config_url(config["uuid"], f"/records-retention?entity_key={key}&entity_uuid={entity}"), roles=AML)

    _remove(api, config["uuid"], sold["entity_monitoring"]["uuid"], "No longer an owner of at least 25%.")
    kept = read("person", owner.uuid).json()
    assert (kept["entity_label"], kept["relationship_ended_timestamp"], kept["retained_until"], kept["records_held_flag"]) == (
        UN_PERSON, None, None, False)  # the company is still a customer

    _remove(api, config["uuid"], own["entity_monitoring"]["uuid"], "No longer a customer.")
    removed = EntityMonitoring.objects.get(uuid=own["entity_monitoring"]["uuid"]).removed_timestamp
    for key, entity in (("person", owner.uuid), ("company", company.uuid)):
        body = read(key, entity).json()
        assert parse_datetime(body["relationship_ended_timestamp"]) == removed.replace(microsecond=removed.microsecond // 1000 * 1000)
        assert parse_datetime(body["retained_until"]) == parse_datetime(body["relationship_ended_timestamp"]) + RETENTION

    hold = _hold(api, config["uuid"], "company", company.uuid).json()
    on_owner, on_company = read("person", owner.uuid).json(), read("company", company.uuid).json()
    assert (on_owner["records_held_flag"], on_owner["retained_until"], on_owner["records_hold"]) == (True, None, None)
    assert [(h["uuid"], h["entity_label"]) for h in on_owner["company_records_holds"]] == [(hold["uuid"], "Nordlys AS")]
    assert on_company["company_records_holds"] == []
    assert (on_company["records_held_flag"], on_company["records_hold"]["uuid"]) == (True, hold["uuid"])
    settings.VAKT_SCREENING_RECORDS_RETENTION_YEARS = 0
    assert _release(api, hold["uuid"]).status_code == 200
    assert read("company", company.uuid).json()["retained_until"] is None  # nothing is deleted by age

    unknown = read("person", person_make(full_name="Per Hansen").uuid)
    bad_key = read("owner", owner.uuid)
    assert (unknown.status_code, _locs(unknown)) == (404, [["query", "entity_uuid"]])
    assert (bad_key.status_code, _locs(bad_key)) == (400, [["query", "entity_key"]])
    assert read("person", owner.uuid, caller=other_api).status_code == 404  # another organisation's config


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite runs one writer at a time")
def test_a_hold_asked_for_while_the_deletion_runs_finds_the_records_gone(api, lists, monkeypatch):
    """The other order: the deletion holds the locks; the hold waits for them, then finds nothing
    left to hold (a 404), and nothing half-written stays."""
    config = config_with(api, "un_security_council")
    former = _customer(api, config["uuid"], UN_PERSON, age=RETENTION * 2)
    [expired] = records_retention.expired_entities(now=timezone.now())

    def place():
        return hold_services.records_hold_place(
            config=ScreeningConfig.objects.get(uuid=config["uuid"]), entity_key="customer_person",
            entity_uuid=former["person"], reason=REASON,
        )

    deleted, placed = race(monkeypatch, records_retention, "audit_records_redact",
                           lambda: records_retention.screening_records_delete(expired=expired), place)

    assert deleted is True
    assert isinstance(placed, Exception) and getattr(placed, "status", None) == 404, placed
    assert not ScreeningRecordsHold.objects.exists() and not CustomerPerson.objects.exists()


def test_the_dry_run_says_how_many_a_hold_keeps(api, lists):
    from io import StringIO

    from django.core.management import call_command

    config = config_with(api, "un_security_council")
    held = _customer(api, config["uuid"], UN_PERSON, age=RETENTION * 2)
    due = customer_person_make(api, config["uuid"], full_name="Ola Ny")
    CustomerPerson.objects.filter(uuid=due["uuid"]).update(create_timestamp=timezone.now() - RETENTION * 2)
    assert _hold(api, config["uuid"], "customer_person", held["person"]).status_code == 201

    dry = StringIO()
    call_command("screening_records_retention", "--dry-run", stdout=dry)

    lines = dry.getvalue().splitlines()
    assert lines[0].endswith(": 1.") and lines[1] == "Kept past the period by a legal hold, and not counted here: 1."
    assert lines[2].startswith("  5 years (ended before ") and lines[2].endswith("1 setup: 1.")
    assert f"({api.app_customer_uuid}), kept 5 years: customer persons 1; cases 0, of them open 0" in lines[3]


def test_a_companys_hold_keeps_a_customer_person_monitored_for_it(api, lists):
    """The API lets a customer person be monitored as a company's beneficial owner: the
    company's hold keeps that person's records too."""
    config = config_with(api, "un_security_council")
    company = company_make(name="Nordlys AS")
    person = customer_person_make(api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    monitoring_make(api, config["uuid"], customer_person=person, related_company=company.uuid,
                    type_key="beneficial_owners", decision={"approved_flag": True})
    monitoring_make(api, config["uuid"], company=company.uuid, type_key="company", decision={"approved_flag": True})
    for monitoring in EntityMonitoring.objects.filter(screening_config_id=config["uuid"]):
        _remove(api, config["uuid"], monitoring.uuid)
        _removed_ago(monitoring.uuid, RETENTION * 2)
    CustomerPerson.objects.filter(uuid=person).update(create_timestamp=timezone.now() - RETENTION * 3)
    assert _hold(api, config["uuid"], "company", company.uuid).status_code == 201

    assert screening_records_retention.apply().get() == 0

    read = api.get(config_url(config["uuid"], f"/records-retention?entity_key=customer_person&entity_uuid={person}"),
                   roles=AML).json()
    assert (read["records_held_flag"], read["retained_until"], len(read["company_records_holds"])) == (True, None, 1)
    assert CustomerPerson.objects.filter(uuid=person).exists()
