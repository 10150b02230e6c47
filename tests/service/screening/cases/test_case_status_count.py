"""GET /v1/screening-config/{uuid}/screening-case-status-count (extension): counts per status."""

from __future__ import annotations

from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, review
from tests.service.screening.helpers import AML, config_url


def _counts(caller, config_uuid, **params) -> dict[str, int]:
    response = caller.get(config_url(config_uuid, "/screening-case-status-count"), params, roles=AML)
    assert response.status_code == 200, response.json()
    return {row["screening_case_status_key"]: row["count"] for row in response.json()}


def test_it_counts_each_status_under_the_other_filters(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")
    customer_person_screened(api, config["uuid"], PEP_PERSON, "1961-09-30")
    assert _counts(api, config["uuid"]) == {"pending": 2, "ongoing": 0, "complete": 0}

    pep_case = cases(api, config["uuid"], pep_flag="true")["elements"][0]["screening_case"]["uuid"]
    review(api, config["uuid"], pep_case, "false_positive")

    assert _counts(api, config["uuid"]) == {"pending": 1, "ongoing": 0, "complete": 1}
    assert _counts(api, config["uuid"], pep_flag="true") == {"pending": 0, "ongoing": 0, "complete": 1}
    assert _counts(api, config["uuid"], sanction_flag="true") == {"pending": 1, "ongoing": 0, "complete": 0}


def test_it_is_404_for_another_organisations_config_and_403_without_aml(api, other_api, lists):
    config = config_with(api, "un_security_council")
    url = config_url(config["uuid"], "/screening-case-status-count")

    assert other_api.get(url, roles=AML).status_code == 404
    assert api.get(url).status_code == 403
