"""POST /v1/screening-config/{uuid}/screening-case-review-batch and .../screening-case-assignment-batch
(extension): the same review or assignee for several cases, each as the one-case endpoint does it,
all or none."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from service.audit.models import AuditEvent
from service.screening import case_services
from service.screening.models import ScreeningCase, ScreeningCaseReview
from tests.conftest import ApiCaller
from tests.racing import race
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import (
    cases, config_with, customer_person_screened, match_decision_uuid, member_of, review, review_status_uuid,
)
from tests.service.screening.helpers import AML, config_url, patch


def _three_cases(api) -> tuple[str, list[str]]:
    config = config_with(api, "un_security_council")
    for name in (UN_PERSON, "Ivan Dragunov", PEP_PERSON):
        customer_person_screened(api, config["uuid"], name)
    page = cases(api, config["uuid"], sort_order="oldest_first")
    assert page["count"] == 3
    return config["uuid"], [c["screening_case"]["uuid"] for c in page["elements"]]


def _reviewed(api, config_uuid, case_uuids, status_key="false_positive", reviewer=None, **fields):
    body = {
        "screening_case_uuids": case_uuids,
        "screening_case_review_status_uuid": review_status_uuid(status_key),
        "entity_match_decision_type_uuid": match_decision_uuid("no_match"),
        "reviewer_app_membership_uuid": reviewer or member_of(api, "anna@nordbank.no"),
        "screening_case_review_comment": "Other persons: birth dates differ by decades.",
        **fields,
    }
    return api.post(config_url(config_uuid, "/screening-case-review-batch"), body, roles=AML)


def _assigned(api, config_uuid, case_uuids, **fields):
    body = {"screening_case_uuids": case_uuids, **fields}
    return api.post(config_url(config_uuid, "/screening-case-assignment-batch"), body, roles=AML)


def test_it_closes_several_cases_as_false_positives_at_once(api, lists):
    config_uuid, case_uuids = _three_cases(api)
    chosen = [case_uuids[2], case_uuids[0]]

    response = _reviewed(api, config_uuid, chosen)

    assert response.status_code == 201, response.json()
    answered = response.json()
    assert [c["screening_case"]["uuid"] for c in answered] == chosen  # in the order sent
    for composite in answered:
        assert composite["screening_case"]["screening_case_status_key"] == "complete"
        [latest] = composite["screening_case_review_composites"]
        assert latest["screening_case_review_status"]["screening_case_review_status_key"] == "false_positive"
        assert latest["screening_case_review"]["screening_case_review_comment"] == "Other persons: birth dates differ by decades."
        assert latest["screening_case_reviewer_email"] == "anna@nordbank.no"
    assert cases(api, config_uuid, screening_case_status_identifiers="pending")["count"] == 1  # the third stays open
    audited = AuditEvent.objects.filter(action_key="screening_case.review")
    assert sorted(str(e.object_uuid) for e in audited) == sorted(chosen)  # one record per case
    assert {e.after["batch_case_count"] for e in audited} == {2}  # each says it was one of a batch of two


def test_an_unknown_or_another_organisations_case_writes_nothing(api, other_api, lists):
    config_uuid, case_uuids = _three_cases(api)
    _, theirs = _three_cases(other_api)

    response = _reviewed(api, config_uuid, [case_uuids[0], theirs[0], case_uuids[1]])

    assert response.status_code == 404
    assert [e["loc"] for e in response.json()["errors"]] == [["body", "screening_case_uuids", 1]]
    assert not ScreeningCaseReview.objects.exists()


def test_a_case_listed_twice_or_a_bad_list_is_a_400_naming_it(api, lists):
    config_uuid, case_uuids = _three_cases(api)

    twice = _reviewed(api, config_uuid, [case_uuids[0], case_uuids[1], case_uuids[0]])
    assert twice.status_code == 400
    assert [e["loc"] for e in twice.json()["errors"]] == [["body", "screening_case_uuids", 2]]
    for bad in ([], case_uuids * 34, ["not-a-uuid"]):
        response = _reviewed(api, config_uuid, bad)
        assert response.status_code == 400, bad
        assert response.json()["errors"][0]["loc"][:2] == ["body", "screening_case_uuids"]
    unknown_status = _reviewed(api, config_uuid, case_uuids, screening_case_review_status_uuid=case_uuids[0])
    assert unknown_status.status_code == 400
    assert unknown_status.json()["errors"][0]["loc"] == ["body", "screening_case_review_status_uuid"]
    assert not ScreeningCaseReview.objects.exists()


def test_a_case_the_four_eyes_rule_refuses_leaves_every_case_unreviewed(api, lists):
    config_uuid, case_uuids = _three_cases(api)
    assert patch(api, config_url(config_uuid), {"four_eyes_review_flag": True}).status_code == 200
    anna = member_of(api, "anna@nordbank.no")
    assert review(api, config_uuid, case_uuids[1], "escalated", "possible_match", reviewer=anna).status_code == 201

    refused = _reviewed(api, config_uuid, case_uuids, reviewer=anna)

    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "four_eyes_required"
    assert [e["loc"] for e in body["errors"]] == [["body", "screening_case_uuids", 1]]
    assert "anna@nordbank.no escalated this case" in body["detail"] and "No case was reviewed." in body["detail"]
    assert ScreeningCaseReview.objects.count() == 1  # the escalation only
    assert set(ScreeningCase.objects.values_list("case_status_key", flat=True)) == {"pending", "ongoing"}

    bjorn = member_of(api, "bjorn@nordbank.no")
    assert _reviewed(api, config_uuid, case_uuids, reviewer=bjorn).status_code == 201


def test_a_complete_case_is_not_reviewed_again_in_a_batch(api, lists):
    config_uuid, case_uuids = _three_cases(api)
    anna = member_of(api, "anna@nordbank.no")
    assert review(api, config_uuid, case_uuids[2], "confirmed_hit", "match", reviewer=anna).status_code == 201

    refused = _reviewed(api, config_uuid, case_uuids, reviewer=anna)

    assert refused.status_code == 409 and refused.json()["code"] == "case_complete"
    assert refused.json()["detail"].startswith(f"The case of {PEP_PERSON} is complete already")
    assert [e["loc"] for e in refused.json()["errors"]] == [["body", "screening_case_uuids", 2]]
    assert ScreeningCaseReview.objects.count() == 1  # the confirmed hit stands, and nothing else was reviewed
    assert _reviewed(api, config_uuid, case_uuids[:2], reviewer=anna).status_code == 201


def test_it_assigns_several_cases_and_unassigns_them(api, lists):
    config_uuid, case_uuids = _three_cases(api)
    anna = member_of(api, "anna@nordbank.no")

    assigned = _assigned(api, config_uuid, case_uuids[:2], assignee_app_membership_uuid=anna)

    assert assigned.status_code == 200, assigned.json()
    assert [c["screening_case"]["assignee_app_membership_uuid"] for c in assigned.json()] == [anna, anna]
    assert cases(api, config_uuid, assignee_app_membership_uuid=anna)["count"] == 2
    assert AuditEvent.objects.filter(action_key="screening_case.assign").count() == 2

    unassigned = _assigned(api, config_uuid, case_uuids[:2], assignee_app_membership_uuid=None)
    assert unassigned.status_code == 200
    assert cases(api, config_uuid, assigned_flag=False)["count"] == 3


def test_a_bad_assignee_assigns_nothing(api, other_api, lists):
    config_uuid, case_uuids = _three_cases(api)
    stranger = member_of(other_api, "x@fjord.no")

    missing = _assigned(api, config_uuid, case_uuids)
    foreign = _assigned(api, config_uuid, case_uuids, assignee_app_membership_uuid=stranger)

    assert missing.status_code == 400 and missing.json()["errors"][0]["loc"] == ["body", "assignee_app_membership_uuid"]
    assert foreign.status_code == 400 and foreign.json()["errors"][0]["loc"] == ["body", "assignee_app_membership_uuid"]
    assert cases(api, config_uuid, assigned_flag=True)["count"] == 0
    assert not AuditEvent.objects.filter(action_key="screening_case.assign").exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite serialises writers")
def test_two_batches_sharing_cases_in_opposite_orders_both_finish(api, lists, monkeypatch):
    config_uuid, case_uuids = _three_cases(api)
    low, high = sorted(case_uuids[:2])
    anna, ola = member_of(api, "anna@nordbank.no"), member_of(api, "ola@nordbank.no")

    def batch(order, reviewer):
        return lambda: _reviewed(ApiCaller(Client(), api.credentials), config_uuid, order, status_key="in_review", reviewer=reviewer)

    # The first holds its first case's lock (uncommitted) until the second waits for a lock: locked in the
    # order sent, the second would hold the other case and the two would deadlock.
    first, second = race(monkeypatch, case_services, "audit_record", batch([low, high], anna), batch([high, low], ola))

    assert (first.status_code, second.status_code) == (201, 201)
    assert ScreeningCaseReview.objects.filter(screening_case__uuid__in=[low, high]).count() == 4
