"""With the config's four-eyes review, releasing a legal hold takes two members: POST
/records-hold/{uuid}/release by one asks for it (202, the hold stays in force), the same call
by another confirms it; POST /records-hold/{uuid}/keep turns the request down (or withdraws it)."""

from __future__ import annotations

import pytest
from django.db import connection

from service.audit.models import AuditEvent
from service.auth.models import AppMembership
from service.screening import hold_services
from service.screening.models import ScreeningConfig, ScreeningRecordsHold
from service.screening.tasks import screening_records_retention
from tests.racing import race
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import config_with, member_of
from tests.service.screening.cases.test_it_deletes_screening_records_after_the_retention_period import (
    RETENTION,
    _customer,
)
from tests.service.screening.cases.test_records_hold import V1, _hold, _locs, _release
from tests.service.screening.helpers import AML, config_url, customer_person_url, patch

WHY_KEEP = "Økokrim has not closed the case yet."


def _keep(api, hold_uuid, keep_reason=WHY_KEEP, **body):
    return api.post(f"{V1}/records-hold/{hold_uuid}/keep", {"keep_reason": keep_reason, **body}, roles=AML)


@pytest.fixture
def held(api, lists):
    """A former customer past its period, held, in a config with four-eyes review; anna and bob, members."""
    config = config_with(api, "un_security_council")
    ScreeningConfig.objects.filter(uuid=config["uuid"]).update(four_eyes_review_flag=True)
    former = _customer(api, config["uuid"], UN_PERSON, age=RETENTION * 2)
    anna, bob = member_of(api, "anna@nordbank.no"), member_of(api, "bob@nordbank.no")
    hold = _hold(api, config["uuid"], "customer_person", former["person"], app_membership_uuid=anna).json()
    return {"hold": hold["uuid"], "person": former["person"], "anna": anna, "bob": bob, "config": config["uuid"]}


def _actions() -> list[str]:
    return list(AuditEvent.objects.filter(object_type="records_hold").order_by("created_timestamp")
                .values_list("action_key", flat=True))


def test_a_release_asked_for_by_one_member_takes_effect_when_another_confirms_it(api, held):
    asked = _release(api, held["hold"], "Case 2026-114 closed.", app_membership_uuid=held["anna"])

    assert asked.status_code == 202, asked.json()
    hold = asked.json()
    assert (hold["in_force_flag"], hold["four_eyes_release_flag"], hold["release_requested_by_app_membership_email"],
            hold["release_request_reason"]) == (True, True, "anna@nordbank.no", "Case 2026-114 closed.")
    assert screening_records_retention.apply().get() == 0  # still held
    assert api.get(customer_person_url(held["person"]), roles=AML).json()["records_hold"]["release_requested_timestamp"]

    own = _release(api, held["hold"], "Closed, I said.", app_membership_uuid=held["anna"])
    assert (own.status_code, own.json()["code"], _locs(own)) == (409, "four_eyes_required", [["body", "app_membership_uuid"]])
    assert "anna@nordbank.no asked for this release, so another admin must confirm it" in own.json()["detail"]
    assert ScreeningRecordsHold.objects.get().in_force

    confirmed = _release(api, held["hold"], "Checked: the case is closed.", app_membership_uuid=held["bob"])

    assert confirmed.status_code == 200, confirmed.json()
    hold = confirmed.json()
    assert (hold["in_force_flag"], hold["released_by_app_membership_email"], hold["release_reason"],
            hold["release_requested_by_app_membership_email"]) == (
        False, "bob@nordbank.no", "Checked: the case is closed.", "anna@nordbank.no")
    assert _actions() == ["records_hold.place", "records_hold.release_request", "records_hold.release"]
    release = AuditEvent.objects.get(action_key="records_hold.release")
    assert release.after["release_requested_by"] == "anna@nordbank.no" and str(release.actor_app_membership_id) == held["bob"]
    assert screening_records_retention.apply().get() == 1


def test_a_second_member_can_turn_the_request_down_and_the_asker_withdraw_it(api, held):
    assert _release(api, held["hold"], app_membership_uuid=held["anna"]).status_code == 202

    kept = _keep(api, held["hold"], app_membership_uuid=held["bob"])

    assert kept.status_code == 200, kept.json()
    assert (kept.json()["in_force_flag"], kept.json()["release_requested_timestamp"], kept.json()["release_request_reason"]) == (
        True, None, "")
    event = AuditEvent.objects.get(action_key="records_hold.keep")
    assert event.after == {"keep_reason": WHY_KEEP, "release_requested_by": "anna@nordbank.no"}

    # Asked for again, now by bob: anna may confirm it; bob, who asked, may withdraw it.
    assert _release(api, held["hold"], app_membership_uuid=held["bob"]).status_code == 202
    assert _keep(api, held["hold"], "Asked too early.", app_membership_uuid=held["bob"]).status_code == 200
    assert _release(api, held["hold"], app_membership_uuid=held["bob"]).status_code == 202
    assert _release(api, held["hold"], app_membership_uuid=held["anna"]).status_code == 200
    assert not ScreeningRecordsHold.objects.get().in_force


def test_bad_input_is_refused_naming_the_field_with_nothing_written(api, other_api, held):
    nobody = _release(api, held["hold"])
    assert (nobody.status_code, nobody.json()["code"], _locs(nobody)) == (400, "member_required", [["body", "app_membership_uuid"]])
    nothing_waits = _keep(api, held["hold"], app_membership_uuid=held["bob"])
    assert (nothing_waits.status_code, nothing_waits.json()["code"]) == (400, "no_release_requested")
    assert _release(api, held["hold"], app_membership_uuid=held["anna"]).status_code == 202
    blank = _keep(api, held["hold"], "  ", app_membership_uuid=held["bob"])
    assert (blank.status_code, _locs(blank)) == (400, [["body", "keep_reason"]])
    assert _keep(other_api, held["hold"]).status_code == 404  # another organisation's hold
    assert ScreeningRecordsHold.objects.get().release_requested_timestamp is not None

    assert _release(api, held["hold"], app_membership_uuid=held["bob"]).status_code == 200
    late = _keep(api, held["hold"], app_membership_uuid=held["anna"])
    assert (late.status_code, late.json()["code"]) == (400, "already_released")
    assert _actions() == ["records_hold.place", "records_hold.release_request", "records_hold.release"]


def test_without_four_eyes_one_member_releases_and_a_waiting_request_does_not_stop_it(api, held):
    assert _release(api, held["hold"], app_membership_uuid=held["anna"]).status_code == 202
    ScreeningConfig.objects.update(four_eyes_review_flag=False)

    released = _release(api, held["hold"], app_membership_uuid=held["anna"])

    assert (released.status_code, released.json()["in_force_flag"], released.json()["four_eyes_release_flag"]) == (200, False, False)


def test_a_page_read_before_another_member_acted_does_not_do_the_other_step(api, held):
    """`confirm_request_flag` says which the caller means: asking when another member asked
    meanwhile does not confirm that request, and confirming one withdrawn meanwhile does not ask."""
    withdrawn = _release(api, held["hold"], app_membership_uuid=held["bob"], confirm_request_flag=True)
    assert (withdrawn.status_code, withdrawn.json()["code"], _locs(withdrawn)) == (
        400, "no_release_requested", [["body", "confirm_request_flag"]])
    assert _actions() == ["records_hold.place"]

    assert _release(api, held["hold"], app_membership_uuid=held["anna"], confirm_request_flag=False).status_code == 202
    asked_meanwhile = _release(api, held["hold"], app_membership_uuid=held["bob"], confirm_request_flag=False)

    assert (asked_meanwhile.status_code, asked_meanwhile.json()["code"], _locs(asked_meanwhile)) == (
        400, "release_already_requested", [["body", "confirm_request_flag"]])
    assert "anna@nordbank.no asked for this release already" in asked_meanwhile.json()["detail"]
    hold = ScreeningRecordsHold.objects.get()
    assert (hold.in_force, hold.release_requested_by.email) == (True, "anna@nordbank.no")

    confirmed = _release(api, held["hold"], app_membership_uuid=held["bob"], confirm_request_flag=True)
    assert (confirmed.status_code, confirmed.json()["in_force_flag"]) == (200, False)


def test_switching_four_eyes_off_withdraws_the_waiting_requests_so_they_do_not_come_back(api, held):
    assert _release(api, held["hold"], "Case closed.", app_membership_uuid=held["anna"]).status_code == 202

    assert patch(api, config_url(held["config"]), {"four_eyes_review_flag": False}).status_code == 200

    hold = api.get(customer_person_url(held["person"]), roles=AML).json()["records_hold"]
    assert (hold["in_force_flag"], hold["four_eyes_release_flag"], hold["release_requested_timestamp"]) == (True, False, None)
    event = AuditEvent.objects.get(action_key="records_hold.keep")
    assert event.after == {"keep_reason": hold_services.FOUR_EYES_OFF_REASON, "release_requested_by": "anna@nordbank.no"}

    # Switched on again, anna's old request is not there for her colleague to confirm alone.
    assert patch(api, config_url(held["config"]), {"four_eyes_review_flag": True}).status_code == 200
    confirm = _release(api, held["hold"], app_membership_uuid=held["bob"], confirm_request_flag=True)
    assert (confirm.status_code, confirm.json()["code"]) == (400, "no_release_requested")
    assert ScreeningRecordsHold.objects.get().in_force


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite runs one writer at a time")
def test_a_double_click_on_ask_does_not_release_the_hold(api, held, monkeypatch):
    """The second ask waits for the first's lock, then reads the hold and who asked as they are
    now: the asker's second call is a 409, not a confirmation by nobody."""
    hold = ScreeningRecordsHold.objects.get()
    anna = AppMembership.objects.get(uuid=held["anna"])

    def ask():
        return hold_services.records_hold_release(
            hold=hold, release_reason="Case closed.", actor=hold_services.Actor(app_membership=anna))[1]

    first, second = race(monkeypatch, hold_services, "_audit", ask, ask)

    assert first is False
    assert getattr(second, "code", None) == "four_eyes_required"
    hold = ScreeningRecordsHold.objects.get()
    assert (hold.in_force, hold.release_requested_by.email) == (True, "anna@nordbank.no")
    assert _actions() == ["records_hold.place", "records_hold.release_request"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite runs one writer at a time")
def test_two_members_confirming_at_once_release_it_once(api, held, monkeypatch):
    """The release locks the hold's row and reads it again: the second waits, then finds it released."""
    carl = member_of(api, "carl@nordbank.no")
    assert _release(api, held["hold"], app_membership_uuid=held["anna"]).status_code == 202
    hold = ScreeningRecordsHold.objects.get()
    members = {m.email: m for m in AppMembership.objects.filter(uuid__in=[held["bob"], carl])}

    def confirm(email):
        return lambda: hold_services.records_hold_release(
            hold=hold, release_reason=f"Confirmed by {email}.",
            actor=hold_services.Actor(app_membership=members[email]))[1]

    first, second = race(monkeypatch, hold_services, "_audit", confirm("bob@nordbank.no"), confirm("carl@nordbank.no"))

    assert first is True
    assert getattr(second, "code", None) == "already_released"
    assert ScreeningRecordsHold.objects.get().released_by.email == "bob@nordbank.no"
    assert _actions().count("records_hold.release") == 1
