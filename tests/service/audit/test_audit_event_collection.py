"""GET /v1/app-customer/{uuid}/audit-event (extension): the organisation's own records only,
behind `app_admin`, and no way to change or remove a record."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.db import DatabaseError, connection, transaction

from service.audit.models import AuditAppendOnly, AuditEvent
from tests.service.audit.helpers import ADMIN, audit_events, audit_url
from tests.service.watchlists.helpers import watchlist_make, watchlist_url
from tests.service.watchlists.helpers import patch as watchlist_patch


def test_it_never_shows_another_organisations_records(api, other_api):
    mine = watchlist_make(api, "Mine")
    theirs = watchlist_make(other_api, "Theirs")
    watchlist_patch(other_api, watchlist_url(theirs), {"watchlist_name": "Theirs renamed"})

    objects = {e["object_uuid"] for e in audit_events(api)}

    assert mine in objects and theirs not in objects
    assert all(e["app_customer_uuid"] == str(api.app_customer_uuid) for e in audit_events(api))
    response = api.get(audit_url(other_api.app_customer_uuid), roles=ADMIN)
    assert response.status_code == 404
    assert "Theirs" not in response.content.decode()
    assert api.get(audit_url(api.app_customer_uuid), {"object_uuid": theirs}, roles=ADMIN).json()[0]["count"] == 0


def test_it_needs_the_app_admin_role(api):
    response = api.get(audit_url(api.app_customer_uuid), roles=["aml"])

    assert response.status_code == 403
    assert response.json()["detail"].startswith("Missing role(s): app_admin.")


def test_it_pages_newest_first_and_refuses_an_unknown_action_naming_it(api):
    for name in ("A", "B", "C"):
        watchlist_make(api, name)

    [page] = api.get(audit_url(api.app_customer_uuid), {"limit": 2, "action_key": "watchlist.create"}, roles=ADMIN).json()

    assert [e["object_label"] for e in page["elements"]] == ["C", "B"]
    assert page["count"] == 3 and page["has_more"] is True
    bad = api.get(audit_url(api.app_customer_uuid), {"action_key": "watchlist.burn"}, roles=ADMIN)
    assert bad.status_code == 400
    assert bad.json()["errors"] == [{"loc": ["query", "action_key"], "msg": "unknown action watchlist.burn"}]


def test_no_endpoint_changes_or_deletes_a_record(api):
    watchlist_make(api, "Kunder")
    [event] = audit_events(api, action_key="watchlist.create")
    url = audit_url(api.app_customer_uuid)
    headers = api.headers(ADMIN)

    for method in ("post", "put", "patch", "delete"):
        for path in (url, f"{url}/{event['uuid']}"):
            response = getattr(api.client, method)(path, "{}", content_type="application/json", **headers)
            assert response.status_code in (404, 405), (method, path, response.status_code)
    assert audit_events(api, action_key="watchlist.create") == [event]


def test_the_model_refuses_updates_and_deletes(api):
    watchlist_make(api, "Kunder")
    event = AuditEvent.objects.get(action_key="watchlist.create")

    event.object_label = "Something else"
    with pytest.raises(AuditAppendOnly):
        event.save()
    with pytest.raises(AuditAppendOnly):
        event.delete()
    with pytest.raises(AuditAppendOnly):
        AuditEvent.objects.filter(pk=event.pk).update(object_label="x")
    with pytest.raises(AuditAppendOnly):
        AuditEvent.objects.filter(pk=event.pk).delete()
    assert AuditEvent.objects.get(pk=event.pk).object_label == "Kunder"


def test_naming_another_organisations_member_as_actor_is_a_400_and_changes_nothing(api, other_api):
    from service.auth.models import AppCustomer
    from service.auth.services import app_membership_create
    from tests.service.screening.helpers import configs_url

    stranger = app_membership_create(app_customer=AppCustomer.objects.get(uuid=other_api.app_customer_uuid), email="x@fjord.no")

    response = api.post(configs_url(api.app_customer_uuid), {"app_membership_uuid": str(stranger.uuid)}, roles=["aml"])

    assert response.status_code == 400
    assert response.json()["errors"] == [{"loc": ["body", "app_membership_uuid"], "msg": "not a member of the calling organisation"}]
    assert audit_events(api, action_key="screening_config.create") == []


def test_it_shows_screening_records_only_with_aml(api):
    # Customer persons, cases and monitorings are screening data (aml); app_admin alone must not read them here.
    from tests.service.screening.helpers import config_make, customer_person_make

    config = config_make(api)
    customer_person_make(api, config["uuid"], full_name="Vladimir Kundesen", birth_date="1961-04-12")
    watchlist_make(api, "Kunder")

    without_aml = api.get(audit_url(api.app_customer_uuid), roles=ADMIN)
    with_aml = api.get(audit_url(api.app_customer_uuid), roles=[*ADMIN, "aml"])

    assert without_aml.status_code == with_aml.status_code == 200
    assert "Vladimir Kundesen" in with_aml.content.decode()
    assert "Vladimir Kundesen" not in without_aml.content.decode()
    assert "1961-04-12" not in without_aml.content.decode()
    [page] = without_aml.json()
    assert "watchlist.create" in {e["action_key"] for e in page["elements"]}
    assert not {e["object_type"] for e in page["elements"]} & {"screening_config", "customer_person"}
    assert page["count"] == len(page["elements"]) == with_aml.json()[0]["count"] - 2  # the count leaks nothing either


def test_it_shows_that_a_customer_person_got_a_national_id_only_with_that_role(api):
    # The record names the person and the number's schema, both behind person_national_identification elsewhere.
    from tests.service.screening.helpers import config_make, customer_person_make, customer_person_url

    person = customer_person_make(api, config_make(api)["uuid"], full_name="Vladimir Kundesen")
    added = api.post(customer_person_url(person["uuid"], "/customer-person-national-identification"),
                     {"national_identification_schema": "NO", "national_identification_number": "15108695088"},
                     roles=["aml", "person_national_identification"])
    assert added.status_code == 201

    def national_id_records(roles):
        response = api.get(audit_url(api.app_customer_uuid), {"action_key": "customer_person.national_id_add"}, roles=roles)
        return response.json()[0]["count"]

    assert national_id_records([*ADMIN, "aml"]) == 0
    assert national_id_records([*ADMIN, "aml", "person_national_identification"]) == 1


def test_it_selects_the_records_of_a_range_of_days_in_oslo_time(api):
    for name, at in (
        ("Before", "2026-03-31T21:59:00+00:00"),  # 31 March 23:59 in Oslo
        ("First", "2026-03-31T22:00:00+00:00"),  # 1 April 00:00 in Oslo
        ("Last", "2026-04-30T21:59:59+00:00"),  # 30 April 23:59:59 in Oslo
        ("After", "2026-04-30T22:00:00+00:00"),  # 1 May in Oslo
    ):
        AuditEvent.objects.create(  # as the service records them, at a chosen moment
            app_customer_id=api.app_customer_uuid, action_key="watchlist.create", object_type="watchlist",
            object_label=name, created_timestamp=datetime.fromisoformat(at),
        )
    params = {"action_key": "watchlist.create", "created_from": "2026-04-01", "created_to": "2026-04-30"}

    [page] = api.get(audit_url(api.app_customer_uuid), params, roles=ADMIN).json()
    [from_only] = api.get(audit_url(api.app_customer_uuid), {"action_key": "watchlist.create", "created_from": "2026-04-01"}, roles=ADMIN).json()

    assert [e["object_label"] for e in page["elements"]] == ["Last", "First"] and page["count"] == 2
    assert [e["object_label"] for e in from_only["elements"]] == ["After", "Last", "First"]


@pytest.mark.parametrize(
    ("params", "loc", "msg"),
    [
        ({"created_from": "2026-05-01", "created_to": "2026-04-01"}, ["query", "created_to"], "2026-04-01 is before created_from 2026-05-01"),
        ({"created_from": "01.04.2026"}, ["query", "created_from"], None),
    ],
)
def test_it_refuses_a_bad_range_of_days_naming_the_field(api, params, loc, msg):
    response = api.get(audit_url(api.app_customer_uuid), params, roles=ADMIN)

    assert response.status_code in (400, 422)
    [error] = response.json()["errors"]
    assert error["loc"] == loc
    if msg:
        assert error["msg"] == msg


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's (docs/organisation.md)")
def test_the_database_refuses_updates_and_deletes_sent_around_the_code(api):
    """What a session in psql with the application's credentials would send."""
    watchlist_make(api, "Kunder")
    event = AuditEvent.objects.get(action_key="watchlist.create")
    table = AuditEvent._meta.db_table

    for sql in (f"UPDATE {table} SET object_label = 'Something else' WHERE uuid = %s", f"DELETE FROM {table} WHERE uuid = %s"):
        with pytest.raises(DatabaseError, match="audit records are append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [event.pk])

    assert AuditEvent.objects.get(pk=event.pk).object_label == "Kunder"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's (docs/organisation.md)")
def test_the_database_lets_through_a_redaction_and_nothing_dressed_as_one(api):
    """A redaction (label emptied, values nulled, keys kept, its time set once) passes the
    trigger; the same with a value rewritten, an actor changed or a second time does not."""
    from service.audit.services import audit_records_redact

    watchlist_make(api, "Kari Nordmann's companies")
    event = AuditEvent.objects.get(action_key="watchlist.create")
    table = AuditEvent._meta.db_table
    assert event.after == {"watchlist_name": "Kari Nordmann's companies"}  # so {"watchlist_name": null} is its redaction
    forged = (
        f"UPDATE {table} SET object_label = '', redacted_timestamp = now(), after = '{{\"watchlist_name\": \"Other\"}}' WHERE uuid = %s",
        f"UPDATE {table} SET object_label = '', redacted_timestamp = now(), after = '{{\"watchlist_name\": null}}', actor_email = 'x@y.no' WHERE uuid = %s",
        f"UPDATE {table} SET object_label = 'Other', redacted_timestamp = now() WHERE uuid = %s",
        f"UPDATE {table} SET object_label = '', after = '{{\"watchlist_name\": null}}', redacted_timestamp = now() - interval '1 year' WHERE uuid = %s",
        f"UPDATE {table} SET object_label = '', after = '{{\"watchlist_name\": null}}', redacted_timestamp = now() + interval '1 day' WHERE uuid = %s",
    )
    for sql in forged:
        with pytest.raises(DatabaseError, match="audit records are append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [event.pk])

    assert audit_records_redact(app_customer_uuid=api.app_customer_uuid, objects={"watchlist": [event.object_uuid]}) == 1

    redacted = AuditEvent.objects.get(pk=event.pk)
    assert (redacted.object_label, redacted.after, redacted.action_key) == ("", {"watchlist_name": None}, "watchlist.create")
    assert redacted.redacted_timestamp is not None
    with pytest.raises(DatabaseError, match="audit records are append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET redacted_timestamp = now() WHERE uuid = %s", [event.pk])  # once only


def test_a_national_id_typed_into_a_reason_is_masked_without_the_national_id_role(api):
    # A member may type a customer's number into a hold's reason or a comment; the number itself is
    # behind person_national_identification, so an admin without that role reads its birth date alone.
    AuditEvent.objects.create(
        app_customer_id=api.app_customer_uuid, action_key="records_hold.place", object_type="records_hold",
        object_label="Hold for 151086-95088",
        after={"entity_key": "customer_person", "reason": "Police request about 15108695088", "notes": ["19861015-0016"]},
    )

    [masked] = audit_events(api, roles=[*ADMIN, "aml"], action_key="records_hold.place")
    [whole] = audit_events(api, roles=[*ADMIN, "aml", "person_national_identification"], action_key="records_hold.place")

    assert masked["after"] == {"entity_key": "customer_person", "reason": "Police request about 151086*****",
                               "notes": ["19861015****"]}
    assert masked["object_label"] == "Hold for 151086*****"
    assert whole["after"]["reason"] == "Police request about 15108695088" and whole["object_label"] == "Hold for 151086-95088"
