"""POST /v1/screening-config/{uuid}/screening-case-review and its lookups."""

from __future__ import annotations

from service.screening.models import ScreeningCaseReview
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, member_of, review
from tests.service.screening.helpers import AML, V1


def _case_uuid(api, config_uuid) -> str:
    [composite] = cases(api, config_uuid)["elements"]
    return composite["screening_case"]["uuid"]


def test_it_follows_the_latest_review_to_complete_keeping_every_review(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = _case_uuid(api, config["uuid"])
    reviewer = member_of(api, "reviewer@nordbank.no")

    first = review(api, config["uuid"], case_uuid, "escalated", "possible_match", reviewer=reviewer)
    assert first.status_code == 201, first.json()
    assert first.json()["screening_case"]["screening_case_status_key"] == "ongoing"
    last = review(
        api, config["uuid"], case_uuid, "false_positive", "no_match", reviewer=reviewer,
        screening_case_review_comment="Other birth date and nationality.",
    )

    assert last.status_code == 201
    composite = last.json()
    assert composite["screening_case"]["screening_case_status_key"] == "complete"
    reviews = composite["screening_case_review_composites"]
    assert [r["screening_case_review_status"]["screening_case_review_status_key"] for r in reviews] == ["false_positive", "escalated"]
    assert reviews[0]["screening_case_reviewer_email"] == "reviewer@nordbank.no"
    assert reviews[0]["screening_case_review"]["screening_case_review_comment"] == "Other birth date and nationality."
    assert reviews[0]["screening_case_review"]["complete_timestamp"] is not None
    assert reviews[1]["screening_case_review"]["complete_timestamp"] is None
    state = composite["screening_state_aggregate"]
    assert state["screening_case_review_status_keys"] == ["escalated", "false_positive"]
    assert state["entity_match_decision_type_keys"] == ["no_match", "possible_match"]
    assert [c["screening_case"]["uuid"] for c in cases(api, config["uuid"], screening_case_status_identifiers="complete")["elements"]] == [case_uuid]


def test_it_refuses_a_reviewer_of_another_organisation_naming_the_field_and_writes_nothing(api, other_api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = _case_uuid(api, config["uuid"])

    response = review(api, config["uuid"], case_uuid, "confirmed_hit", "match", reviewer=member_of(other_api, "x@fjord.no"))

    assert response.status_code == 400
    assert [e["loc"] for e in response.json()["errors"]] == [["body", "reviewer_app_membership_uuid"]]
    assert not ScreeningCaseReview.objects.exists()
    assert cases(api, config["uuid"])["elements"][0]["screening_case"]["screening_case_status_key"] == "pending"


def test_it_is_404_for_a_case_or_config_of_another_organisation(api, other_api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = _case_uuid(api, config["uuid"])
    other_config = config_with(other_api)

    in_other_config = review(other_api, other_config["uuid"], case_uuid, "in_review", reviewer=member_of(other_api, "x@fjord.no"))
    in_this_config = review(other_api, config["uuid"], case_uuid, "in_review", reviewer=member_of(other_api, "y@fjord.no"))

    assert in_other_config.status_code == 404
    assert in_other_config.json()["errors"][0]["loc"] == ["body", "screening_case_uuid"]
    assert in_this_config.status_code == 404
    assert not ScreeningCaseReview.objects.exists()


def test_it_lists_the_review_statuses_and_match_decision_types(api):
    statuses = api.get(f"{V1}/screening-case-review-status", roles=AML)
    decisions = api.get(f"{V1}/entity-match-decision-type", roles=AML)

    assert [r["screening_case_review_status_key"] for r in statuses.json()] == [
        "confirmed_hit", "escalated", "false_positive", "in_review",
    ]
    assert [r["entity_match_decision_type_key"] for r in decisions.json()] == ["match", "no_match", "possible_match"]
    assert api.get(f"{V1}/entity-match-decision-type").status_code == 403


def test_a_closing_review_whose_match_decision_contradicts_it_is_refused_naming_the_field(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = _case_uuid(api, config["uuid"])
    reviewer = member_of(api, "reviewer@nordbank.no")

    for status_key, decision_key in (("false_positive", "match"), ("false_positive", "possible_match"),
                                     ("confirmed_hit", "no_match"), ("confirmed_hit", "possible_match")):
        refused = review(api, config["uuid"], case_uuid, status_key, decision_key, reviewer=reviewer)
        assert refused.status_code == 400, (status_key, decision_key)
        assert refused.json()["code"] == "decision_contradicts_status"
        assert [e["loc"] for e in refused.json()["errors"]] == [["body", "entity_match_decision_type_uuid"]]
    assert not ScreeningCaseReview.objects.exists()
    assert review(api, config["uuid"], case_uuid, "in_review", "match", reviewer=reviewer).status_code == 201
    assert review(api, config["uuid"], case_uuid, "false_positive", "no_match", reviewer=reviewer).status_code == 201
