"""A former customer's screening records are deleted five years after the relationship ended
(`VAKT_SCREENING_RECORDS_RETENTION_YEARS`, 5): the daily task
`screening_records_retention` deletes its monitorings, cases and reviews, and a customer
person with its national ids and addresses. Everything still monitored is kept."""

from __future__ import annotations

from datetime import datetime

import pytest
from dateutil.relativedelta import relativedelta
from django.db import connection, transaction
from django.utils import timezone

from service.audit.models import AuditEvent
from service.companies.models import Company, Person
from service.screening.models import (
    CustomerPerson,
    CustomerPersonLocation,
    CustomerPersonNationalIdentification,
    EntityMonitoring,
    EntityMonitoringDecision,
    EntityMonitoringType,
    ScreeningCase,
    ScreeningCaseReview,
    ScreeningConfig,
)
from service.screening import monitoring_services, records_retention
from service.screening.tasks import screening_records_retention
from tests.racing import race
from tests.service.companies.factories import company_make, person_make
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, review
from tests.service.screening.helpers import (
    AML,
    config_url,
    customer_person_make,
    customer_person_url,
    monitoring_make,
    patch,
)
from tests.service.screening.watchlists.helpers import attach, owns, watchlist_make

RETENTION = relativedelta(years=5)
NATIONAL_ID = ["aml", "person_national_identification"]


def _remove(api, config_uuid, monitoring_uuid, reason="The customer left the bank."):
    response = patch(api, config_url(config_uuid, f"/entity-monitoring/{monitoring_uuid}"),
                     {"removed_flag": True, "removal_reason": reason})
    assert response.status_code == 200, response.json()


def _removed_ago(monitoring_uuid, age: relativedelta) -> datetime:
    when = timezone.now() - age
    EntityMonitoring.objects.filter(uuid=monitoring_uuid).update(removed_timestamp=when)
    return when


def _customer(api, config_uuid, name, *, age: relativedelta | None, national_id: str = "") -> dict:
    """A customer person screened (a case on each hit, reviewed), with the national id given
    and an address;
    its monitoring removed `age` ago (None: still monitored)."""
    monitoring = customer_person_screened(api, config_uuid, name)["entity_monitoring"]
    person_uuid = monitoring["monitoring_customer_person_uuid"]
    if national_id:
        added = api.post(customer_person_url(person_uuid, "/customer-person-national-identification"),
                         {"national_identification_schema": "NO", "national_identification_number": national_id},
                         roles=NATIONAL_ID)
        assert added.status_code == 201, added.json()
        address = api.post(customer_person_url(person_uuid, "/customer-person-location"),
                           {"street_address": "Storgata 1", "postal_place": "Oslo", "country_code_two": "NO"}, roles=AML)
        assert address.status_code == 201, address.json()
    for case in _cases_of(api, config_uuid, person_uuid):
        assert review(api, config_uuid, case["uuid"], "escalated", "possible_match").status_code == 201
    if age is not None:
        _remove(api, config_uuid, monitoring["uuid"])
        removed = _removed_ago(monitoring["uuid"], age)
        added = removed - relativedelta(years=1)  # as it was: added, screened, then removed
        CustomerPerson.objects.filter(uuid=person_uuid).update(create_timestamp=added)
        return {"person": person_uuid, "monitoring": monitoring["uuid"], "removed": removed}
    return {"person": person_uuid, "monitoring": monitoring["uuid"]}


def _cases_of(api, config_uuid, entity_uuid) -> list[dict]:
    elements = cases(api, config_uuid, limit=100)["elements"]
    return [c["screening_case"] for c in elements if c["entity_inquiry"]["inquiry_entity_uuid"] == str(entity_uuid)]


def _person_read(api, person_uuid):
    return api.get(customer_person_url(person_uuid), roles=AML)


def test_it_deletes_a_customer_person_five_years_after_its_monitoring_was_removed(api, lists):
    config = config_with(api, "un_security_council")
    former = _customer(api, config["uuid"], UN_PERSON, age=RETENTION + relativedelta(days=1), national_id="15108695088")
    assert len(_cases_of(api, config["uuid"], former["person"])) == 1

    assert screening_records_retention.apply().get() == 1

    assert _person_read(api, former["person"]).status_code == 404
    assert _cases_of(api, config["uuid"], former["person"]) == []
    assert not CustomerPerson.objects.filter(uuid=former["person"]).exists()
    assert not (CustomerPersonNationalIdentification.objects.exists() or CustomerPersonLocation.objects.exists())
    assert not EntityMonitoring.objects.filter(uuid=former["monitoring"]).exists()
    assert not (EntityMonitoringDecision.objects.exists() or ScreeningCase.objects.exists() or ScreeningCaseReview.objects.exists())
    [event] = AuditEvent.objects.filter(action_key="screening_records.delete")
    assert (str(event.object_uuid), event.object_label, event.actor_email, event.actor_api_user_id) == (
        former["person"], "", "", None,  # no name repeated; nobody acted but the retention period
    )
    assert event.app_customer_id == api.app_customer_uuid
    # What the log held of the person, its monitoring and its case is redacted: who did what,
    # when, stays; names, birth dates, places and comments go.
    redacted = AuditEvent.objects.exclude(pk=event.pk).filter(app_customer_id=api.app_customer_uuid)
    kinds = sorted(redacted.filter(redacted_timestamp__isnull=False).values_list("action_key", flat=True))
    assert kinds == ["customer_person.create", "customer_person.location_add", "customer_person.national_id_add",
                     "customer_person.update",  # the birth date the national id gave the person, who had none
                     "entity_monitoring.decide", "entity_monitoring.remove", "screening_case.review"]
    assert redacted.filter(redacted_timestamp__isnull=True, object_uuid__in=[former["person"], former["monitoring"]]).count() == 0
    created = redacted.get(action_key="customer_person.create")
    assert (created.object_label, created.before, created.after) == ("", None, {"full_name": None, "birth_date": None})
    review_record = redacted.get(action_key="screening_case.review")
    assert review_record.object_label == "" and set(review_record.after.values()) == {None}
    assert UN_PERSON not in str(list(AuditEvent.objects.values_list("object_label", "before", "after")))
    assert event.after == {
        "deletion_reason_key": "retention", "monitoring_entity_key": "customer_person",
        "relationship_ended": timezone.localdate(former["removed"]).isoformat(),
        "monitoring_count": 1, "case_count": 1, "open_case_count": 1, "audit_records_redacted": 7, "records_hold_count": 0,
        "retention_years": 5, "retention_cutoff": timezone.localdate(timezone.now() - RETENTION).isoformat(),
    }


def test_it_keeps_who_is_monitored_or_left_less_than_five_years_ago(api, lists):
    config = config_with(api, "un_security_council")
    monitored = _customer(api, config["uuid"], UN_PERSON, age=None)
    CustomerPerson.objects.filter(uuid=monitored["person"]).update(create_timestamp=timezone.now() - 2 * RETENTION)
    recent = _customer(api, config["uuid"], PEP_PERSON, age=RETENTION - relativedelta(days=1))

    assert screening_records_retention.apply().get() == 0

    for kept in (monitored, recent):
        assert _person_read(api, kept["person"]).status_code == 200
        assert len(_cases_of(api, config["uuid"], kept["person"])) == 1
    assert not AuditEvent.objects.filter(action_key="screening_records.delete").exists()


def test_a_customer_monitored_again_is_kept_until_the_new_monitoring_ends(api, lists):
    config = config_with(api, "un_security_council")
    returning = _customer(api, config["uuid"], UN_PERSON, age=RETENTION * 2)
    again = monitoring_make(api, config["uuid"], customer_person=returning["person"], decision={"approved_flag": True})

    assert screening_records_retention.apply().get() == 0
    assert EntityMonitoring.objects.filter(uuid=returning["monitoring"]).exists()  # the old one, kept with the person

    _remove(api, config["uuid"], again["entity_monitoring"]["uuid"])
    _removed_ago(again["entity_monitoring"]["uuid"], RETENTION + relativedelta(hours=1))
    assert screening_records_retention.apply().get() == 1
    assert _person_read(api, returning["person"]).status_code == 404


def test_a_customer_person_never_monitored_counts_from_the_day_it_was_added(api, lists):
    config = config_with(api, "un_security_council")
    old = customer_person_make(api, config["uuid"], full_name="Ola Gammel")
    CustomerPerson.objects.filter(uuid=old["uuid"]).update(create_timestamp=timezone.now() - RETENTION - relativedelta(days=1))
    new = customer_person_make(api, config["uuid"], full_name="Ola Ny")

    assert screening_records_retention.apply().get() == 1

    assert _person_read(api, old["uuid"]).status_code == 404
    assert _person_read(api, new["uuid"]).status_code == 200


def test_a_former_customer_companys_records_go_and_the_register_stays(api, lists):
    """A company screened with its owner through a watchlist: detaching the watchlist ends both
    relationships; five years on their monitorings and cases go, the register's rows stay."""
    config = config_with(api, "un_security_council")
    assert patch(api, config_url(config["uuid"]), {"auto_approve_monitoring_flag": True}, roles=AML).status_code == 200
    company = company_make(name="Koryo Fjord Trading AS")
    owner = person_make(full_name=UN_PERSON)
    owns(owner, company, 60)
    link = attach(api, config["uuid"], watchlist_make(api, companies=[company])).json()
    assert {c["entity_inquiry"]["inquiry_entity_key"] for c in cases(api, config["uuid"])["elements"]} == {"company", "person"}
    detached = api.delete(config_url(config["uuid"], f"/screening-config-watchlist/{link['uuid']}"), roles=AML)
    assert detached.status_code == 204
    monitorings = EntityMonitoring.objects.filter(screening_config_id=config["uuid"])
    assert monitorings.count() == 2 and all(m.removed_flag for m in monitorings)
    monitorings.update(removed_timestamp=timezone.now() - RETENTION - relativedelta(days=3))

    assert screening_records_retention.apply().get() == 2

    assert cases(api, config["uuid"])["elements"] == []
    assert not EntityMonitoring.objects.exists()
    assert Company.objects.filter(uuid=company.uuid).exists() and Person.objects.filter(uuid=owner.uuid).exists()
    labels = dict(AuditEvent.objects.filter(action_key="screening_records.delete").values_list("object_uuid", "object_label"))
    assert labels == {company.uuid: "Koryo Fjord Trading AS", owner.uuid: ""}  # the register's company name; no person's


def test_a_beneficial_owner_who_stopped_qualifying_is_kept_while_the_company_is_a_customer(api, lists):
    """The owner's monitoring was removed years ago (the register said they sold), but the
    company is still screened: the owner's records are part of its due diligence. Five years
    after the company's own monitoring is removed, both go."""
    config = config_with(api, "un_security_council")
    company = company_make(name="Nordlys AS")
    owner = person_make(full_name=UN_PERSON)
    sold = monitoring_make(api, config["uuid"], person=owner.uuid, related_company=company.uuid, type_key="beneficial_owners",
                           decision={"approved_flag": True})
    own = monitoring_make(api, config["uuid"], company=company.uuid, type_key="company", decision={"approved_flag": True})
    _remove(api, config["uuid"], sold["entity_monitoring"]["uuid"], "No longer an owner of at least 25%.")
    _removed_ago(sold["entity_monitoring"]["uuid"], RETENTION * 2)

    assert screening_records_retention.apply().get() == 0
    assert len(_cases_of(api, config["uuid"], owner.uuid)) == 1

    _remove(api, config["uuid"], own["entity_monitoring"]["uuid"], "No longer a customer.")
    _removed_ago(own["entity_monitoring"]["uuid"], RETENTION - relativedelta(days=1))
    assert screening_records_retention.apply().get() == 0  # the company left less than five years ago

    _removed_ago(own["entity_monitoring"]["uuid"], RETENTION + relativedelta(days=1))
    assert screening_records_retention.apply().get() == 2
    assert not EntityMonitoring.objects.exists() and cases(api, config["uuid"])["elements"] == []


def test_a_customer_person_monitored_for_a_company_is_kept_while_the_company_is(api, lists):
    """The API lets a customer person be monitored as a company's beneficial owner: like a
    register person, it is kept while the company is screened, and goes five years after."""
    config = config_with(api, "un_security_council")
    company = company_make(name="Nordlys AS")
    person = customer_person_make(api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    owner = monitoring_make(api, config["uuid"], customer_person=person, related_company=company.uuid,
                            type_key="beneficial_owners", decision={"approved_flag": True})
    own = monitoring_make(api, config["uuid"], company=company.uuid, type_key="company", decision={"approved_flag": True})
    _remove(api, config["uuid"], owner["entity_monitoring"]["uuid"], "No longer an owner of at least 25%.")
    _removed_ago(owner["entity_monitoring"]["uuid"], RETENTION * 2)
    CustomerPerson.objects.filter(uuid=person).update(create_timestamp=timezone.now() - RETENTION * 3)

    assert screening_records_retention.apply().get() == 0
    assert _person_read(api, person).json()["customer_person"]["retained_until"] is None  # the company's due diligence

    _remove(api, config["uuid"], own["entity_monitoring"]["uuid"], "No longer a customer.")
    left = _removed_ago(own["entity_monitoring"]["uuid"], RETENTION - relativedelta(days=1))
    left = left.replace(microsecond=left.microsecond // 1000 * 1000)  # the API gives milliseconds
    assert datetime.fromisoformat(_person_read(api, person).json()["customer_person"]["retained_until"]) == left + RETENTION
    assert screening_records_retention.apply().get() == 0

    _removed_ago(own["entity_monitoring"]["uuid"], RETENTION + relativedelta(days=1))
    assert screening_records_retention.apply().get() == 2
    assert not CustomerPerson.objects.filter(uuid=person).exists()


def test_the_same_person_screened_in_another_config_keeps_its_records_there(api, other_api, lists):
    owner = person_make(full_name=UN_PERSON)
    configs = [config_with(caller, "un_security_council") for caller in (api, api, other_api)]
    made = [
        monitoring_make(caller, c["uuid"], person=owner.uuid, type_key="other", decision={"approved_flag": True})
        for caller, c in zip((api, api, other_api), configs)
    ]
    _remove(api, configs[0]["uuid"], made[0]["entity_monitoring"]["uuid"])
    _removed_ago(made[0]["entity_monitoring"]["uuid"], RETENTION * 2)

    assert screening_records_retention.apply().get() == 1

    assert _cases_of(api, configs[0]["uuid"], owner.uuid) == []
    assert len(_cases_of(api, configs[1]["uuid"], owner.uuid)) == 1
    assert len(_cases_of(other_api, configs[2]["uuid"], owner.uuid)) == 1
    assert EntityMonitoring.objects.filter(person=owner).count() == 2

    # When the second config's go too, the first deletion's record is not redacted with them.
    _remove(api, configs[1]["uuid"], made[1]["entity_monitoring"]["uuid"])
    _removed_ago(made[1]["entity_monitoring"]["uuid"], RETENTION * 2)
    assert screening_records_retention.apply().get() == 1
    deletions = AuditEvent.objects.filter(action_key="screening_records.delete")
    assert [(d.redacted_timestamp, d.after["case_count"]) for d in deletions] == [(None, 1), (None, 1)]


def test_an_owner_is_kept_while_the_company_is_monitored_under_another_related_company(api, lists):
    """A company's own monitoring may name another company as related (the API allows it):
    the company's own monitoring still keeps its former owner."""
    config = config_with(api, "un_security_council")
    company, parent = company_make(name="Nordlys AS"), company_make(name="Nordlys Holding AS")
    owner = person_make(full_name=UN_PERSON)
    sold = monitoring_make(api, config["uuid"], person=owner.uuid, related_company=company.uuid, type_key="beneficial_owners",
                           decision={"approved_flag": True})
    monitoring_make(api, config["uuid"], company=company.uuid, related_company=parent.uuid, type_key="company",
                    decision={"approved_flag": True})
    _remove(api, config["uuid"], sold["entity_monitoring"]["uuid"], "No longer an owner of at least 25%.")
    _removed_ago(sold["entity_monitoring"]["uuid"], RETENTION * 2)

    assert screening_records_retention.apply().get() == 0
    assert len(_cases_of(api, config["uuid"], owner.uuid)) == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite runs one writer at a time")
def test_a_monitoring_made_while_the_deletion_waits_is_kept_with_its_person(api, lists, monkeypatch):
    """The new monitoring's insert holds the person (its foreign key checked at once) when the
    deletion asks for the person's lock: once it commits, the deletion sees it and keeps all."""
    config = config_with(api, "un_security_council")
    former = customer_person_make(api, config["uuid"], full_name="Kari Nordmann")
    CustomerPerson.objects.filter(uuid=former["uuid"]).update(create_timestamp=timezone.now() - RETENTION * 2)
    [expired] = records_retention.expired_entities(now=timezone.now())

    def monitor():
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the foreign key's lock now, not at commit
            made = monitoring_services.monitoring_insert(
                config=ScreeningConfig.objects.get(uuid=config["uuid"]),
                entity=CustomerPerson.objects.get(uuid=former["uuid"]), related_company=None,
                monitoring_type=EntityMonitoringType.objects.get(key="other"), origin_key="api",
                decision=monitoring_services.DecisionSpec(approved_flag=True, origin_key="user"),
            )
        return made.uuid

    made, deleted = race(monkeypatch, monitoring_services, "_decision_insert", monitor,
                         lambda: records_retention.screening_records_delete(expired=expired))

    assert deleted is False
    assert EntityMonitoring.objects.filter(uuid=made, customer_person_id=former["uuid"]).exists()


def test_a_person_still_monitored_for_another_company_is_kept(api, lists):
    config = config_with(api, "un_security_council")
    owner = person_make(full_name=UN_PERSON)
    left, stays = company_make(name="Forlatt AS"), company_make(name="Aktiv AS")
    old = monitoring_make(api, config["uuid"], person=owner.uuid, related_company=left.uuid, type_key="beneficial_owners",
                          decision={"approved_flag": True})
    monitoring_make(api, config["uuid"], person=owner.uuid, related_company=stays.uuid, type_key="beneficial_owners",
                    decision={"approved_flag": True})
    _remove(api, config["uuid"], old["entity_monitoring"]["uuid"])
    _removed_ago(old["entity_monitoring"]["uuid"], RETENTION * 2)

    assert screening_records_retention.apply().get() == 0
    assert EntityMonitoring.objects.filter(person=owner).count() == 2
    assert len(_cases_of(api, config["uuid"], owner.uuid)) == 1


def test_each_customer_person_says_until_when_it_is_kept(api, lists):
    config = config_with(api, "un_security_council")
    monitored = _customer(api, config["uuid"], UN_PERSON, age=None)
    former = _customer(api, config["uuid"], PEP_PERSON, age=relativedelta(days=10))
    ended = EntityMonitoring.objects.get(uuid=former["monitoring"]).removed_timestamp
    ended = ended.replace(microsecond=ended.microsecond // 1000 * 1000)  # the API gives milliseconds

    read = _person_read(api, former["person"]).json()["customer_person"]
    assert datetime.fromisoformat(read["relationship_ended_timestamp"]) == ended
    assert datetime.fromisoformat(read["retained_until"]) == ended + RETENTION
    assert read["monitoring_status_key"] == "removed"
    listed = {p["uuid"]: p for p in api.get(config_url(config["uuid"], "/customer-person"), roles=AML).json()}
    assert (listed[monitored["person"]]["relationship_ended_timestamp"], listed[monitored["person"]]["retained_until"]) == (None, None)
    assert listed[former["person"]]["retained_until"] == read["retained_until"]


def test_with_no_retention_period_nothing_is_deleted(api, lists, settings):
    settings.VAKT_SCREENING_RECORDS_RETENTION_YEARS = 0
    config = config_with(api, "un_security_council")
    former = _customer(api, config["uuid"], UN_PERSON, age=RETENTION * 3)

    assert screening_records_retention.apply().get() == 0
    read = _person_read(api, former["person"]).json()["customer_person"]
    assert read["retained_until"] is None and read["relationship_ended_timestamp"] is not None


def test_one_entity_that_cannot_be_deleted_does_not_keep_the_others(api, lists, monkeypatch):
    from service.screening import records_retention

    config = config_with(api, "un_security_council")
    first = _customer(api, config["uuid"], UN_PERSON, age=RETENTION * 2)
    second = _customer(api, config["uuid"], PEP_PERSON, age=RETENTION * 2)
    delete = records_retention.screening_records_delete

    def failing_for_first(*, expired):
        if str(expired.entity_uuid) == first["person"]:
            raise RuntimeError("a row the database refuses to delete")
        return delete(expired=expired)

    monkeypatch.setattr(records_retention, "screening_records_delete", failing_for_first)

    assert screening_records_retention.apply().get() == 1
    assert _person_read(api, first["person"]).status_code == 200
    assert _person_read(api, second["person"]).status_code == 404


def test_another_organisations_records_are_not_touched(api, other_api, lists):
    mine = config_with(api, "un_security_council")
    theirs = config_with(other_api, "un_security_council")
    former = _customer(api, mine["uuid"], UN_PERSON, age=RETENTION * 2)
    current = _customer(other_api, theirs["uuid"], UN_PERSON, age=None)

    assert screening_records_retention.apply().get() == 1

    assert _person_read(api, former["person"]).status_code == 404
    assert _person_read(other_api, current["person"]).status_code == 200
    assert len(_cases_of(other_api, theirs["uuid"], current["person"])) == 1
    assert AuditEvent.objects.get(action_key="screening_records.delete").app_customer_id == api.app_customer_uuid


def test_beat_runs_the_deletion_daily(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["screening-records-retention"]
    assert (entry["task"], entry["schedule"]) == (screening_records_retention.name, 24 * 3600)


def test_the_command_says_what_would_go_before_it_deletes(api, lists):
    from io import StringIO

    from django.core.management import call_command

    config = config_with(api, "un_security_council")
    former = _customer(api, config["uuid"], UN_PERSON, age=RETENTION * 2)
    customer_person_make(api, config["uuid"], full_name="Ola Ny")

    dry = StringIO()
    call_command("screening_records_retention", "--dry-run", stdout=dry)

    assert "Relationships that ended longer ago than their setup's retention period: 1." in dry.getvalue()
    assert f"({api.app_customer_uuid}), kept 5 years: customer persons 1; cases 1, of them open 1" in dry.getvalue()
    assert "Nothing deleted (--dry-run)." in dry.getvalue()
    assert _person_read(api, former["person"]).status_code == 200

    done = StringIO()
    call_command("screening_records_retention", stdout=done)
    assert done.getvalue().endswith(": 1.\nDeleted the screening records of 1.\n")
    assert _person_read(api, former["person"]).status_code == 404


def _merge(api, kept_uuid, duplicate_uuid) -> None:
    body = {"duplicate_customer_person_uuid": str(duplicate_uuid)}
    response = api.post(customer_person_url(kept_uuid, "/merge"), body, roles=NATIONAL_ID)
    assert response.status_code == 200, response.json()


def test_a_record_merged_into_another_is_kept_as_long_as_that_record_is(api, lists):
    # Its cases are the same customer's due diligence: not deleted five years after the merge while
    # the customer stays, but with the record kept once the relationship ends.
    config = config_with(api, "un_security_council")
    twin = _customer(api, config["uuid"], UN_PERSON, age=None)
    kept = _customer(api, config["uuid"], UN_PERSON, age=None)  # a second record, the one kept
    _merge(api, kept["person"], twin["person"])
    _removed_ago(twin["monitoring"], RETENTION * 2)  # merged long ago
    CustomerPerson.objects.filter(uuid__in=[twin["person"], kept["person"]]).update(create_timestamp=timezone.now() - RETENTION * 3)

    read = _person_read(api, twin["person"]).json()["customer_person"]
    assert (read["relationship_ended_timestamp"], read["retained_until"]) == (None, None)
    assert screening_records_retention.apply().get() == 0
    assert len(_cases_of(api, config["uuid"], twin["person"])) == 1

    _remove(api, config["uuid"], kept["monitoring"])
    ended = _removed_ago(kept["monitoring"], RETENTION + relativedelta(days=1))  # the customer left
    read = _person_read(api, twin["person"]).json()["customer_person"]
    assert datetime.fromisoformat(read["relationship_ended_timestamp"]) == ended.replace(microsecond=ended.microsecond // 1000 * 1000)
    assert screening_records_retention.apply().get() == 2
    assert not CustomerPerson.objects.filter(uuid__in=[twin["person"], kept["person"]]).exists()


def test_a_hold_on_the_record_kept_keeps_the_merged_one(api, lists):
    config = config_with(api, "un_security_council")
    twin = _customer(api, config["uuid"], UN_PERSON, age=None)
    kept = _customer(api, config["uuid"], UN_PERSON, age=None)
    _merge(api, kept["person"], twin["person"])
    hold = api.post(config_url(config["uuid"], "/records-hold"),
                    {"entity_key": "customer_person", "entity_uuid": kept["person"], "reason": "Asked for by the police."}, roles=AML)
    assert hold.status_code == 201, hold.json()
    _remove(api, config["uuid"], kept["monitoring"])
    _removed_ago(kept["monitoring"], RETENTION * 2)
    CustomerPerson.objects.filter(uuid__in=[twin["person"], kept["person"]]).update(create_timestamp=timezone.now() - RETENTION * 3)

    assert _person_read(api, twin["person"]).json()["customer_person"]["records_held_flag"] is True
    assert screening_records_retention.apply().get() == 0
    assert CustomerPerson.objects.filter(uuid__in=[twin["person"], kept["person"]]).count() == 2


def test_a_merge_of_a_record_others_were_merged_into_takes_them_along(api, lists):
    config = config_with(api, "un_security_council")
    first, second, third = (_customer(api, config["uuid"], UN_PERSON, age=None) for _ in range(3))
    _merge(api, second["person"], first["person"])
    _merge(api, third["person"], second["person"])

    assert str(CustomerPerson.objects.get(uuid=first["person"]).merged_into_id) == third["person"]
    read = _person_read(api, first["person"]).json()["customer_person"]
    assert (read["merged_into_customer_person_uuid"], read["relationship_ended_timestamp"]) == (third["person"], None)
