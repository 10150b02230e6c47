"""Four-eyes review (extension, `four_eyes_review_flag`): an escalated case or a confirmed hit is
closed only by a second member. Refusals are 409 `four_eyes_required` and write nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from service.audit.models import AuditEvent
from service.screening import case_services
from service.screening.models import ScreeningCaseReview
from tests.conftest import ApiCaller
from tests.racing import race
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, member_of, review
from tests.service.screening.helpers import config_url, patch


def _four_eyes_case(api) -> tuple[str, str]:
    config = config_with(api, "un_security_council")
    response = patch(api, config_url(config["uuid"]), {"four_eyes_review_flag": True})
    assert response.status_code == 200, response.json()
    assert response.json()["four_eyes_review_flag"] is True
    customer_person_screened(api, config["uuid"], UN_PERSON)
    [composite] = cases(api, config["uuid"])["elements"]
    return config["uuid"], composite["screening_case"]["uuid"]


def _status(response) -> str:
    return response.json()["screening_case"]["screening_case_status_key"]


def test_it_refuses_the_member_who_escalated_closing_the_case_and_lets_a_second_member_close_it(api, lists):
    config_uuid, case_uuid = _four_eyes_case(api)
    anna, bjorn = member_of(api, "anna@nordbank.no"), member_of(api, "bjorn@nordbank.no")
    assert review(api, config_uuid, case_uuid, "escalated", "possible_match", reviewer=anna).status_code == 201

    refused = review(api, config_uuid, case_uuid, "false_positive", "no_match", reviewer=anna)

    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "four_eyes_required"
    assert "anna@nordbank.no escalated this case" in body["detail"] and "another officer must close it" in body["detail"]
    assert [e["loc"] for e in body["errors"]] == [["body", "reviewer_app_membership_uuid"]]
    assert ScreeningCaseReview.objects.count() == 1
    assert cases(api, config_uuid)["elements"][0]["screening_case"]["screening_case_status_key"] == "ongoing"

    closed = review(api, config_uuid, case_uuid, "false_positive", "no_match", reviewer=bjorn)
    assert closed.status_code == 201, closed.json()
    assert _status(closed) == "complete"


def test_it_keeps_a_confirmed_hit_as_a_proposal_until_a_second_member_confirms_it(api, lists):
    config_uuid, case_uuid = _four_eyes_case(api)
    anna, bjorn = member_of(api, "anna@nordbank.no"), member_of(api, "bjorn@nordbank.no")

    proposal = review(api, config_uuid, case_uuid, "confirmed_hit", "match", reviewer=anna)
    assert proposal.status_code == 201, proposal.json()
    assert _status(proposal) == "ongoing"
    assert proposal.json()["screening_case_review_composites"][0]["screening_case_review"]["complete_timestamp"] is None

    for key in ("confirmed_hit", "false_positive"):  # the proposer can neither confirm nor close it alone
        again = review(api, config_uuid, case_uuid, key, "match" if key == "confirmed_hit" else "no_match", reviewer=anna)
        assert again.status_code == 409, again.json()
        assert "anna@nordbank.no proposed this confirmed hit" in again.json()["detail"]
    assert ScreeningCaseReview.objects.count() == 1

    confirmed = review(api, config_uuid, case_uuid, "confirmed_hit", "match", reviewer=bjorn)
    assert confirmed.status_code == 201
    assert _status(confirmed) == "complete"
    assert confirmed.json()["screening_case_review_composites"][0]["screening_case_review"]["complete_timestamp"] is not None


def test_two_members_close_an_escalated_hit_the_escalator_confirming_the_others_proposal(api, lists):
    """Anna escalates, Bjørn proposes a confirmed hit: Anna confirming it is two members agreeing,
    so a team of two can close a sanction hit. Anna may still not reject it alone."""
    config_uuid, case_uuid = _four_eyes_case(api)
    anna, bjorn = member_of(api, "anna@nordbank.no"), member_of(api, "bjorn@nordbank.no")
    assert review(api, config_uuid, case_uuid, "escalated", "possible_match", reviewer=anna).status_code == 201
    assert review(api, config_uuid, case_uuid, "confirmed_hit", "match", reviewer=bjorn).status_code == 201

    rejected = review(api, config_uuid, case_uuid, "false_positive", "no_match", reviewer=anna)
    assert rejected.status_code == 409
    assert "or confirm the hit another officer proposed" in rejected.json()["detail"]
    confirmed = review(api, config_uuid, case_uuid, "confirmed_hit", "match", reviewer=anna)

    assert confirmed.status_code == 201, confirmed.json()
    assert _status(confirmed) == "complete"


def test_it_lets_one_member_close_alone_when_the_flag_is_off(api, lists):
    config = config_with(api, "un_security_council")
    assert config["four_eyes_review_flag"] is False
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = cases(api, config["uuid"])["elements"][0]["screening_case"]["uuid"]
    anna = member_of(api, "anna@nordbank.no")
    assert review(api, config["uuid"], case_uuid, "escalated", "possible_match", reviewer=anna).status_code == 201

    closed = review(api, config["uuid"], case_uuid, "confirmed_hit", "match", reviewer=anna)

    assert closed.status_code == 201 and _status(closed) == "complete"


def test_it_refuses_a_deactivated_reviewer_naming_the_field(api, lists):
    from service.auth.models import AppMembership

    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = cases(api, config["uuid"])["elements"][0]["screening_case"]["uuid"]
    anna = member_of(api, "anna@nordbank.no")
    AppMembership.objects.filter(uuid=anna).update(active_flag=False)

    refused = review(api, config["uuid"], case_uuid, "in_review", "possible_match", reviewer=anna)

    assert refused.status_code == 400
    assert refused.json()["code"] == "membership_deactivated"
    assert [e["loc"] for e in refused.json()["errors"]] == [["body", "reviewer_app_membership_uuid"]]
    assert not ScreeningCaseReview.objects.exists()


def _racing_reviews(monkeypatch, api, config_uuid, case_uuid, first: tuple, second: tuple) -> list:
    """Two reviews at once, each (status key, decision key, reviewer): the first is held after its
    write, uncommitted, until the second waits for the case's lock."""

    def reviewing(status_key, decision_key, reviewer):
        return lambda: review(ApiCaller(Client(), api.credentials), config_uuid, case_uuid, status_key, decision_key, reviewer=reviewer)

    return race(monkeypatch, case_services, "audit_record", reviewing(*first), reviewing(*second))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
def test_the_proposer_cannot_close_the_case_with_a_review_sent_while_the_proposal_is_written(api, lists, monkeypatch):
    config_uuid, case_uuid = _four_eyes_case(api)
    anna = member_of(api, "anna@nordbank.no")

    proposed, closed = _racing_reviews(
        monkeypatch, api, config_uuid, case_uuid, ("confirmed_hit", "match", anna), ("false_positive", "no_match", anna)
    )

    assert proposed.status_code == 201
    assert closed.status_code == 409, closed.json()  # the second read the case after the proposal
    assert "anna@nordbank.no proposed this confirmed hit" in closed.json()["detail"]
    assert ScreeningCaseReview.objects.count() == 1
    assert cases(api, config_uuid)["elements"][0]["screening_case"]["screening_case_status_key"] == "ongoing"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
def test_a_confirmation_sent_while_the_proposal_is_written_completes_the_case(api, lists, monkeypatch):
    config_uuid, case_uuid = _four_eyes_case(api)
    anna, bjorn = member_of(api, "anna@nordbank.no"), member_of(api, "bjorn@nordbank.no")

    proposed, confirmed = _racing_reviews(
        monkeypatch, api, config_uuid, case_uuid, ("confirmed_hit", "match", anna), ("confirmed_hit", "match", bjorn)
    )

    assert (proposed.status_code, confirmed.status_code) == (201, 201)
    assert _status(confirmed) == "complete"  # not a second proposal
    records = AuditEvent.objects.filter(action_key="screening_case.review", object_uuid=case_uuid).order_by("created_timestamp")
    assert [(r.before, r.after["case_status_key"]) for r in records] == [
        ({"case_status_key": "pending", "review_status_key": None}, "ongoing"),
        ({"case_status_key": "ongoing", "review_status_key": "confirmed_hit"}, "complete"),  # the proposal, not None
    ]
