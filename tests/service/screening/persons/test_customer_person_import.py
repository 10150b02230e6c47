"""POST /v1/screening-config/{uuid}/customer-person-import: a bank's customers from a CSV file into
continuous screening, all or nothing, each customer once."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from service.audit.models import AuditEvent
from service.auth.models import AppCustomer
from service.auth.services import app_membership_create
from service.screening.models import (
    CustomerPerson,
    CustomerPersonLocation,
    CustomerPersonNationalIdentification,
    EntityMonitoring,
    ScreeningCase,
)
from tests.service.screening.cases.conftest import UN_PERSON, lists  # noqa: F401  (the fixture)
from tests.service.screening.helpers import (
    AML,
    category_uuid,
    config_make,
    config_url,
    customer_person_make,
    customer_person_url,
    decide,
    field_locs,
    monitoring_make,
    monitorings,
    status_of,
)

BOTH = ["aml", "person_national_identification"]
COLUMNS = ["id", "name", "birth_date", "gender", "nationality", "national_id", "national_id_country",
           "street_address", "postal_code", "postal_place", "address_country"]
KARI = {"id": "C-1001", "name": "Kari Nordmann", "birth_date": "15.10.1986", "gender": "female", "nationality": "Norway",
        "national_id": "151086 95088", "national_id_country": "NO", "street_address": "Storgata 1", "postal_code": "0155",
        "postal_place": "Oslo", "address_country": "NO"}
SVEN = {"id": "C-1002", "name": "Sven Svensson", "national_id": "880320-0016", "national_id_country": "SE",
        "nationality": "SE; NO"}
OLA = {"id": "C-1003", "name": "Ola  Nordmann", "birth_date": "1970-01-02"}


def csv_bytes(rows: list[dict], columns=COLUMNS) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=columns, delimiter=";")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode("utf-8-sig")


def post(caller, config_uuid, content: bytes, *, roles=BOTH, name="customers.csv", **params):
    query = "&".join(f"{key}={value}" for key, value in params.items())
    return caller.client.post(
        config_url(config_uuid, "/customer-person-import") + (f"?{query}" if query else ""),
        {"file": SimpleUploadedFile(name, content, content_type="text/csv")}, **caller.headers(roles),
    )


@pytest.fixture
def config(api):
    return config_make(api)


@pytest.fixture
def member(api):
    return app_membership_create(app_customer=AppCustomer.objects.get(uuid=api.app_customer_uuid), email="aml@nordbank.no")


def _nothing_written():
    assert not CustomerPerson.objects.exists()
    assert not EntityMonitoring.objects.exists()
    assert not AuditEvent.objects.filter(object_type__in=("customer_person", "entity_monitoring")).exists()


def test_it_imports_a_file_as_customer_persons_waiting_for_approval(api, config, member, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as queued:
        response = post(api, config["uuid"], csv_bytes([KARI, SVEN, OLA]), app_membership_uuid=member.uuid)

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["dry_run"], body["approved_flag"], body["file_name"]) == (False, False, "customers.csv")
    assert (body["rows_count"], body["created_count"], body["monitored_count"], body["already_monitored_count"]) == (3, 3, 3, 0)
    assert [(r["line"], r["reference"], r["full_name"], r["birth_date"], r["outcome"]) for r in body["rows"]] == [
        (2, "C-1001", "Kari Nordmann", "1986-10-15", "created"),
        (3, "C-1002", "Sven Svensson", "1988-03-20", "created"),  # the number's birth date
        (4, "C-1003", "Ola Nordmann", "1970-01-02", "created"),
    ]
    kari = CustomerPerson.objects.get(uuid=body["rows"][0]["customer_person_uuid"])
    assert (kari.gender.key, kari.nationalities, kari.birth_date) == ("female", ["NO"], dt.date(1986, 10, 15))
    assert body["rows"][0]["app_url"].endswith(f"/screening/customer-persons/{kari.uuid}/")
    sven = CustomerPerson.objects.get(uuid=body["rows"][1]["customer_person_uuid"])
    assert sven.nationalities == ["SE", "NO"]
    assert sorted(CustomerPersonNationalIdentification.objects.values_list(
        "customer_person__full_name", "national_identification_schema", "national_identification_number"
    )) == [("Kari Nordmann", "NO", "15108695088"), ("Sven Svensson", "SE", "198803200016")]
    [address] = CustomerPersonLocation.objects.all()
    assert (address.customer_person, address.person_location_type.key, address.street_address, address.postal_place,
            address.country_code_two) == (kari, "residence", "Storgata 1", "Oslo", "NO")

    # Waiting for a decision: nothing is screened (rule 4).
    listed = monitorings(api, config["uuid"])
    assert sorted(status_of(m) for m in listed) == ["pending"] * 3
    monitoring = EntityMonitoring.objects.get(uuid=body["rows"][0]["entity_monitoring_uuid"])
    assert (monitoring.customer_person, monitoring.entity_monitoring_type.key, monitoring.monitoring_comment,
            monitoring.monitoring_origin_key, monitoring.app_membership) == (
        kari, "other", "Imported from customers.csv.", "user", member)
    assert queued == []

    # The audit log says what one by one would have said, by the member.
    events = AuditEvent.objects.filter(app_customer_id=api.app_customer_uuid, object_type="customer_person")
    assert sorted(events.values_list("action_key", "object_label")) == [
        ("customer_person.create", "Kari Nordmann"), ("customer_person.create", "Ola Nordmann"),
        ("customer_person.create", "Sven Svensson"), ("customer_person.location_add", "Kari Nordmann"),
        ("customer_person.national_id_add", "Kari Nordmann"), ("customer_person.national_id_add", "Sven Svensson"),
    ]
    assert set(events.values_list("actor_email", flat=True)) == {"aml@nordbank.no"}
    assert "15108695088" not in str(list(events.values_list("before", "after")))


def test_approved_they_are_screened_at_once_and_the_approvals_are_audited(api, config, member, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as queued:
        response = post(api, config["uuid"], csv_bytes([KARI, OLA]), approved_flag="true", app_membership_uuid=member.uuid,
                        monitoring_comment="Private banking customers")

    assert response.status_code == 201, response.json()
    assert response.json()["approved_flag"] is True
    listed = monitorings(api, config["uuid"])
    assert sorted(status_of(m) for m in listed) == ["active", "active"]
    decisions = [m["entity_monitoring_decision"][0] for m in listed]
    assert {(d["decision_origin_key"], d["decision_comment"], d["app_membership_uuid"]) for d in decisions} == {
        ("user", "Private banking customers", str(member.uuid))}
    assert len(queued) == 1  # one screening run for the batch, on commit
    decided = AuditEvent.objects.filter(action_key="entity_monitoring.decide")
    assert sorted(decided.values_list("object_label", flat=True)) == ["Kari Nordmann", "Ola Nordmann"]
    assert {str(u) for u in decided.values_list("object_uuid", flat=True)} == {
        r["entity_monitoring_uuid"] for r in response.json()["rows"]}


def test_a_dry_run_answers_what_the_import_would_do_and_writes_nothing(api, config, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as queued:
        response = post(api, config["uuid"], csv_bytes([KARI, SVEN, OLA]), dry_run="true", approved_flag="true")

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["dry_run"], body["created_count"], body["monitored_count"]) == (True, 3, 3)
    assert [(r["outcome"], r["customer_person_uuid"], r["entity_monitoring_uuid"], r["app_url"]) for r in body["rows"]] == [
        ("created", None, None, None)] * 3
    assert queued == []
    _nothing_written()


def test_importing_the_same_file_again_creates_nothing(api, config):
    content = csv_bytes([KARI, SVEN, OLA])
    first = post(api, config["uuid"], content).json()

    again = post(api, config["uuid"], content)

    assert again.status_code == 201
    body = again.json()
    assert (body["created_count"], body["monitored_count"], body["already_monitored_count"]) == (0, 0, 3)
    assert [r["customer_person_uuid"] for r in body["rows"]] == [r["customer_person_uuid"] for r in first["rows"]]
    assert [r["entity_monitoring_uuid"] for r in body["rows"]] == [r["entity_monitoring_uuid"] for r in first["rows"]]
    assert CustomerPerson.objects.count() == 3 and EntityMonitoring.objects.count() == 3
    assert CustomerPersonNationalIdentification.objects.count() == 2


def test_it_recognises_existing_customers_by_national_id_and_by_name_and_birth_date(api, config):
    # Known by number, under another spelling of the name, and screened.
    by_number = customer_person_make(api, config["uuid"], full_name="Kari Nordmann-Hansen", birth_date="1986-10-15")
    api.post(customer_person_url(by_number["uuid"], "/customer-person-national-identification"),
             {"national_identification_schema": "NO", "national_identification_number": "15108695088"}, roles=BOTH)
    monitoring_make(api, config["uuid"], customer_person=by_number["uuid"], decision={"approved_flag": True})
    # Known by name (any case) and birth date, without a number; never monitored.
    by_name = customer_person_make(api, config["uuid"], full_name="SVEN SVENSSON", birth_date="1988-03-20")
    # A namesake the number tells apart: another Norwegian number.
    namesake = customer_person_make(api, config["uuid"], full_name="Ola Nordmann", birth_date="1970-01-02")
    api.post(customer_person_url(namesake["uuid"], "/customer-person-national-identification"),
             {"national_identification_schema": "NO", "national_identification_number": "02017010290"}, roles=BOTH)
    # A former customer: their monitoring removed.
    former = customer_person_make(api, config["uuid"], full_name="Liv Berg", birth_date="1990-02-01")
    removed = monitoring_make(api, config["uuid"], customer_person=former["uuid"], removed_flag=True)
    ola = {"name": "Ola Nordmann", "national_id": "02017010371", "national_id_country": "NO"}  # born 02.01.1970 too

    response = post(api, config["uuid"], csv_bytes([KARI, SVEN, ola, {"name": "liv berg", "birth_date": "1990-02-01"}]))

    assert response.status_code == 201, response.json()
    body = response.json()
    assert [(r["full_name"], r["outcome"], r["national_id_added_flag"]) for r in body["rows"]] == [
        ("Kari Nordmann", "already_monitored", False),
        ("Sven Svensson", "monitored", True),
        ("Ola Nordmann", "created", False),
        ("liv berg", "monitored", False),
    ]
    assert [r["customer_person_uuid"] for r in body["rows"]][:2] == [by_number["uuid"], by_name["uuid"]]
    assert body["rows"][2]["customer_person_uuid"] not in (namesake["uuid"], None)
    assert body["rows"][3]["customer_person_uuid"] == former["uuid"]
    assert body["rows"][3]["entity_monitoring_uuid"] != removed["entity_monitoring"]["uuid"]
    assert (body["created_count"], body["monitored_count"], body["already_monitored_count"], body["national_ids_added_count"]) == (
        1, 3, 1, 1)
    # Existing persons keep their details: the file does not correct them.
    assert CustomerPerson.objects.get(uuid=by_number["uuid"]).full_name == "Kari Nordmann-Hansen"
    assert CustomerPersonNationalIdentification.objects.filter(
        customer_person_id=by_name["uuid"], national_identification_number="198803200016").exists()


def test_it_names_every_bad_row_by_line_and_column_and_writes_nothing(api, config):
    next_year = dt.date.today().year + 1
    rows = [
        KARI,  # 2: good
        {"name": "", "birth_date": "1980-01-01"},  # 3
        {"name": "Per Olsen", "birth_date": "1980", "nationality": "Atlantis"},  # 4: a year alone
        {"name": "Liv Berg", "birth_date": f"01.01.{next_year}", "gender": "x"},  # 5
        {"name": "Eva Berg", "national_id": "15108695087", "national_id_country": "NO"},  # 6: check digit
        {"name": "Per Berg", "birth_date": "1970-01-03", "national_id": "02017010290", "national_id_country": "NO"},  # 7
        {"name": "Ane Dahl", "national_id": "02017010290"},  # 8: no country
        {"name": "Kari Hansen", "national_id": "15108695088", "national_id_country": "NO"},  # 9: line 2's number
        {"name": "kari nordmann", "birth_date": "1986-10-15"},  # 10: line 2 by name and birth date
        {"name": "Tor Lie", "address_country": "Narnia", "postal_code": "1" * 21},  # 11
    ]
    response = post(api, config["uuid"], csv_bytes(rows))

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_file" and "nothing was imported" in body["detail"]
    messages = {tuple(e["loc"][2:]): e["msg"] for e in body["errors"]}
    assert list(messages) == [
        ("line 3", "name"), ("line 4", "birth_date"), ("line 4", "nationality"), ("line 5", "birth_date"),
        ("line 5", "gender"), ("line 6", "national_id"), ("line 7", "national_id"), ("line 8", "national_id_country"),
        ("line 9", "national_id"), ("line 10", "name"), ("line 11", "postal_code"), ("line 11", "address_country"),
    ]
    assert messages[("line 4", "birth_date")] == "'1980' is not a whole date: give YYYY-MM-DD or DD.MM.YYYY"
    assert messages[("line 6", "national_id")] == "the check digits do not match: probably a mistyped digit"
    assert messages[("line 7", "national_id")] == "is of someone born 02.01.1970; the person's birth date is 03.01.1970"
    assert messages[("line 9", "national_id")] == "the same national id as line 2"
    assert messages[("line 10", "name")].startswith("the same name and birth date as line 2")
    _nothing_written()


def test_two_rows_that_are_one_existing_customer_are_refused(api, config):
    existing = customer_person_make(api, config["uuid"], full_name="Kari Nordmann", birth_date="1986-10-15")
    api.post(customer_person_url(existing["uuid"], "/customer-person-national-identification"),
             {"national_identification_schema": "NO", "national_identification_number": "15108695088"}, roles=BOTH)
    rows = [{"name": "Kari Nordmann", "birth_date": "1986-10-15"},
            {"name": "Kari Hansen", "national_id": "15108695088", "national_id_country": "NO"}]

    response = post(api, config["uuid"], csv_bytes(rows))

    assert response.status_code == 400
    assert field_locs(response) == [["body", "file", "line 3", "name"]]
    assert "that line 2 is" in response.json()["errors"][0]["msg"]
    assert CustomerPerson.objects.count() == 1 and not EntityMonitoring.objects.exists()


def test_national_ids_need_their_role_even_when_invalid(api, config):
    bad_number = {"name": "Eva Berg", "national_id": "123", "national_id_country": "NO"}
    for rows in ([KARI], [bad_number]):
        response = post(api, config["uuid"], csv_bytes(rows), roles=AML)
        assert response.status_code == 403
        assert response.json()["detail"].startswith("Missing role(s): person_national_identification.")
    _nothing_written()

    without_numbers = post(api, config["uuid"], csv_bytes([OLA]), roles=AML)
    assert without_numbers.status_code == 201


def test_bad_requests_are_named(api, other_api, config, settings):
    content = csv_bytes([OLA])
    assert post(api, config["uuid"], content, roles=[]).status_code == 403
    assert post(other_api, config["uuid"], content).status_code == 404  # another organisation's config
    no_file = api.client.post(config_url(config["uuid"], "/customer-person-import"), {}, **api.headers(BOTH))
    assert (no_file.status_code, field_locs(no_file)) == (400, [["body", "file"]])
    long_comment = post(api, config["uuid"], content, monitoring_comment="x" * 501)
    assert (long_comment.status_code, field_locs(long_comment)) == (400, [["query", "monitoring_comment"]])
    stranger = post(api, config["uuid"], content, app_membership_uuid="00000000-0000-4000-8000-000000000000")
    assert stranger.status_code in (400, 404) and field_locs(stranger) == [["query", "app_membership_uuid"]]
    no_name = post(api, config["uuid"], b"birth_date\n1980-01-01\n")
    assert (no_name.status_code, field_locs(no_name)) == (400, [["body", "file", "line 1"]])
    empty = post(api, config["uuid"], b"name\n\n")
    assert (empty.status_code, field_locs(empty)) == (400, [["body", "file"]])
    settings.VAKT_BATCH_MAX_ROWS = 2
    too_many = post(api, config["uuid"], csv_bytes([KARI, SVEN, OLA]))
    assert (too_many.status_code, too_many.json()["code"]) == (400, "too_many_rows")
    _nothing_written()


def test_an_imported_customer_on_a_list_gets_a_case(api, transactional_db, lists):  # noqa: F811
    config = config_make(api)
    api.post(config_url(config["uuid"], "/screening-config-screening-list-category"),
             {"screening_list_category_uuid": category_uuid("un_security_council")}, roles=AML)
    listed = {"name": UN_PERSON, "birth_date": "14.03.1966", "nationality": "RU"}

    response = post(api, config["uuid"], csv_bytes([listed, OLA]), approved_flag="true")

    assert response.status_code == 201, response.json()
    [case] = ScreeningCase.objects.all()
    assert str(case.entity_inquiry.customer_person_id) == response.json()["rows"][0]["customer_person_uuid"]


def test_importing_again_with_approval_approves_the_monitorings_still_waiting(api, config, member, django_capture_on_commit_callbacks):
    first = post(api, config["uuid"], csv_bytes([KARI, SVEN, OLA])).json()  # all waiting for a decision
    kari, sven, ola = (row["entity_monitoring_uuid"] for row in first["rows"])
    decide(api, config["uuid"], sven, approved=False, decision_comment="Not our customer any more")  # a human's decline

    dry = post(api, config["uuid"], csv_bytes([KARI, SVEN, OLA]), approved_flag="true", dry_run="true").json()
    assert ([r["approved_now_flag"] for r in dry["rows"]], dry["approved_now_count"]) == ([True, False, True], 2)
    assert EntityMonitoring.objects.filter(latest_decision__isnull=True).count() == 2  # a dry run decides nothing
    with django_capture_on_commit_callbacks() as queued:
        again = post(api, config["uuid"], csv_bytes([KARI, SVEN, OLA]), approved_flag="true", app_membership_uuid=member.uuid)

    assert again.status_code == 201, again.json()
    body = again.json()
    assert [(r["outcome"], r["approved_now_flag"]) for r in body["rows"]] == [
        ("already_monitored", True), ("already_monitored", False), ("already_monitored", True)]
    assert (body["created_count"], body["monitored_count"], body["approved_now_count"]) == (0, 0, 2)
    statuses = {m["entity_monitoring"]["uuid"]: status_of(m) for m in monitorings(api, config["uuid"])}
    assert statuses == {kari: "active", sven: "declined", ola: "active"}
    assert len(queued) == 1
    decided = AuditEvent.objects.filter(action_key="entity_monitoring.decide", actor_email="aml@nordbank.no")
    assert sorted(str(u) for u in decided.values_list("object_uuid", flat=True)) == sorted([kari, ola])


def test_a_file_longer_than_a_write_chunk_is_written_whole(api, config, member, monkeypatch, django_capture_on_commit_callbacks):
    # The import writes WRITE_CHUNK rows at a time in its one transaction; here two, so each
    # kind of row (new, an existing one given a reference and a number, one already monitored)
    # falls in another chunk than some of the others.
    monkeypatch.setattr("service.screening.person_import.WRITE_CHUNK", 2)
    known = customer_person_make(api, config["uuid"], full_name="Sven Svensson", birth_date="1988-03-20")
    screened = customer_person_make(api, config["uuid"], full_name="Liv Berg", birth_date="1990-02-01")
    monitoring_make(api, config["uuid"], customer_person=screened["uuid"], decision={"approved_flag": True})
    liv = {"id": "C-1004", "name": "Liv Berg", "birth_date": "1990-02-01"}
    eva = {"id": "C-1005", "name": "Eva Lund", "birth_date": "1975-06-30", "postal_place": "Bergen", "address_country": "NO"}

    with django_capture_on_commit_callbacks() as queued:
        response = post(api, config["uuid"], csv_bytes([KARI, SVEN, OLA, liv, eva]), approved_flag="true",
                        app_membership_uuid=member.uuid)

    assert response.status_code == 201, response.json()
    body = response.json()
    assert [(r["full_name"], r["outcome"], r["national_id_added_flag"], r["customer_reference_added_flag"])
            for r in body["rows"]] == [
        ("Kari Nordmann", "created", False, False),
        ("Sven Svensson", "monitored", True, True),
        ("Ola Nordmann", "created", False, False),
        ("Liv Berg", "already_monitored", False, True),
        ("Eva Lund", "created", False, False),
    ]
    assert (body["created_count"], body["monitored_count"], body["already_monitored_count"]) == (3, 4, 1)
    assert [r["customer_person_uuid"] for r in body["rows"]][1::2] == [known["uuid"], screened["uuid"]]
    people = {p.full_name: p for p in CustomerPerson.objects.all()}
    assert {name: p.customer_reference for name, p in people.items()} == {
        "Kari Nordmann": "C-1001", "Sven Svensson": "C-1002", "Ola Nordmann": "C-1003", "Liv Berg": "C-1004",
        "Eva Lund": "C-1005"}
    assert sorted(CustomerPersonNationalIdentification.objects.values_list("customer_person__full_name", flat=True)) == [
        "Kari Nordmann", "Sven Svensson"]
    assert sorted(CustomerPersonLocation.objects.values_list("customer_person__full_name", "postal_place")) == [
        ("Eva Lund", "Bergen"), ("Kari Nordmann", "Oslo")]
    # Every new monitoring approved and its screening queued, chunk by chunk; the audit is whole.
    statuses = {m["entity_monitoring"]["uuid"]: status_of(m) for m in monitorings(api, config["uuid"])}
    new = [r["entity_monitoring_uuid"] for r in body["rows"] if r["outcome"] != "already_monitored"]
    assert len(statuses) == 5 and all(statuses[uuid] == "active" for uuid in new)
    assert len(queued) == 3  # one screening batch per chunk holding new monitorings
    events = AuditEvent.objects.filter(actor_email="aml@nordbank.no")
    assert sorted(events.filter(action_key="entity_monitoring.decide").values_list("object_label", flat=True)) == [
        "Eva Lund", "Kari Nordmann", "Ola Nordmann", "Sven Svensson"]
    assert sorted(events.filter(object_type="customer_person").values_list("action_key", "object_label")) == [
        ("customer_person.create", "Eva Lund"), ("customer_person.create", "Kari Nordmann"),
        ("customer_person.create", "Ola Nordmann"), ("customer_person.location_add", "Eva Lund"),
        ("customer_person.location_add", "Kari Nordmann"), ("customer_person.national_id_add", "Kari Nordmann"),
        ("customer_person.national_id_add", "Sven Svensson"), ("customer_person.update", "Liv Berg"),
        ("customer_person.update", "Sven Svensson"),
    ]
