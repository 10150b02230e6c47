"""From config to a reviewed case through the HTTP API only."""

from __future__ import annotations

from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, member_of, review
from tests.service.screening.helpers import decide


def test_it_screens_reviews_and_closes_a_sanction_case_without_raising_it_twice(api, lists):
    config = config_with(api, "un_security_council")
    monitoring = customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")

    [composite] = cases(api, config["uuid"], screening_case_status_identifiers="pending")["elements"]
    assert composite["screening_case"]["sanction_flag"] is True
    closed = review(api, config["uuid"], composite["screening_case"]["uuid"], "false_positive", "no_match", reviewer=member_of(api))
    assert closed.json()["screening_case"]["screening_case_status_key"] == "complete"

    # Another approving decision screens the person again: the same hit makes no second case.
    again = decide(api, config["uuid"], monitoring["entity_monitoring"]["uuid"])
    assert again.status_code == 201
    collection = cases(api, config["uuid"])
    assert collection["count"] == 1
    assert collection["elements"][0]["screening_case"]["screening_case_status_key"] == "complete"
