"""PATCH /v1/screening-config/{uuid}/screening-case/{case_uuid} (extension): assignment."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from service.audit.models import AuditEvent
from service.screening import case_services
from tests.conftest import ApiCaller
from tests.racing import race
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, member_of
from tests.service.screening.helpers import config_url, patch


def _case(api, config_uuid) -> str:
    customer_person_screened(api, config_uuid, UN_PERSON)
    return cases(api, config_uuid)["elements"][0]["screening_case"]["uuid"]


def _assignee(api, config_uuid) -> str | None:
    return cases(api, config_uuid)["elements"][0]["screening_case"]["assignee_app_membership_uuid"]


def test_it_assigns_and_unassigns_a_case(api, lists):
    config = config_with(api, "un_security_council")
    case_uuid = _case(api, config["uuid"])
    member = member_of(api, "analyst@nordbank.no")

    assigned = patch(api, config_url(config["uuid"], f"/screening-case/{case_uuid}"), {"assignee_app_membership_uuid": member})
    assert assigned.status_code == 200, assigned.json()
    assert assigned.json()["screening_case"]["assignee_app_membership_uuid"] == member
    assert _assignee(api, config["uuid"]) == member

    unassigned = patch(api, config_url(config["uuid"], f"/screening-case/{case_uuid}"), {"assignee_app_membership_uuid": None})
    assert unassigned.status_code == 200
    assert _assignee(api, config["uuid"]) is None


def test_it_refuses_a_member_of_another_organisation_or_a_missing_field(api, other_api, lists):
    config = config_with(api, "un_security_council")
    case_uuid = _case(api, config["uuid"])
    path = config_url(config["uuid"], f"/screening-case/{case_uuid}")

    foreign = patch(api, path, {"assignee_app_membership_uuid": member_of(other_api, "x@fjord.no")})
    missing = patch(api, path, {})

    for response in (foreign, missing):
        assert response.status_code == 400
        assert response.json()["errors"][0]["loc"] == ["body", "assignee_app_membership_uuid"]
    assert _assignee(api, config["uuid"]) is None


def test_it_is_404_for_a_case_of_another_organisation(api, other_api, lists):
    config = config_with(api, "un_security_council")
    case_uuid = _case(api, config["uuid"])
    other_config = config_with(other_api)

    response = patch(other_api, config_url(other_config["uuid"], f"/screening-case/{case_uuid}"),
                     {"assignee_app_membership_uuid": member_of(other_api, "x@fjord.no")})

    assert response.status_code == 404
    assert _assignee(api, config["uuid"]) is None


def test_it_refuses_a_deactivated_assignee_or_assigner_and_records_nothing(api, lists):
    from service.audit.models import AuditEvent
    from service.auth.models import AppMembership

    config = config_with(api, "un_security_council")
    case_uuid = _case(api, config["uuid"])
    path = config_url(config["uuid"], f"/screening-case/{case_uuid}")
    active, gone = member_of(api, "analyst@nordbank.no"), member_of(api, "left@nordbank.no")
    AppMembership.objects.filter(uuid=gone).update(active_flag=False)

    as_assignee = patch(api, path, {"assignee_app_membership_uuid": gone})
    as_assigner = patch(api, path, {"assignee_app_membership_uuid": active, "app_membership_uuid": gone})

    assert as_assignee.status_code == 400 and as_assignee.json()["errors"][0]["loc"] == ["body", "assignee_app_membership_uuid"]
    assert as_assigner.status_code == 400 and as_assigner.json()["errors"][0]["loc"] == ["body", "app_membership_uuid"]
    assert {e["code"] for e in (as_assignee.json(), as_assigner.json())} == {"membership_deactivated"}
    assert _assignee(api, config["uuid"]) is None
    assert not AuditEvent.objects.filter(action_key="screening_case.assign").exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
def test_two_assignments_at_once_record_a_chain_of_assignees(api, lists, monkeypatch):
    config = config_with(api, "un_security_council")
    case_uuid = _case(api, config["uuid"])
    path = config_url(config["uuid"], f"/screening-case/{case_uuid}")
    anna, ola = member_of(api, "anna@nordbank.no"), member_of(api, "ola@nordbank.no")

    def assign(member):
        return lambda: patch(ApiCaller(Client(), api.credentials), path, {"assignee_app_membership_uuid": member})

    # The first is held after its update, uncommitted, until the second waits for the case's lock.
    first, second = race(monkeypatch, case_services, "audit_record", assign(anna), assign(ola))

    assert (first.status_code, second.status_code) == (200, 200)
    records = AuditEvent.objects.filter(action_key="screening_case.assign", object_uuid=case_uuid).order_by("created_timestamp")
    assert [(r.before["assignee_email"], r.after["assignee_email"]) for r in records] == [
        (None, "anna@nordbank.no"),
        ("anna@nordbank.no", "ola@nordbank.no"),  # not None again: the second read the case after the first
    ]
    assert _assignee(api, config["uuid"]) == ola
