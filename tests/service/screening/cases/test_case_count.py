"""GET /v1/screening-config/{uuid}/screening-case-count (extension)."""

from __future__ import annotations

from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, review
from tests.service.screening.helpers import AML, config_url

PATH = "/screening-case-count"


def counts(caller, config_uuid) -> dict:
    response = caller.get(config_url(config_uuid, PATH), roles=AML)
    assert response.status_code == 200, response.json()
    body = response.json()
    return {c["screening_case_status_key"]: (c["count"], c["pep_count"], c["sanction_count"]) for c in body["screening_case_status_counts"]} | {
        "total": body["count"]
    }


def test_it_counts_cases_per_status_and_hit_kind(api, lists):
    config = config_with(api, "un_security_council")
    assert counts(api, config["uuid"]) == {"pending": (0, 0, 0), "ongoing": (0, 0, 0), "complete": (0, 0, 0), "total": 0}
    customer_person_screened(api, config["uuid"], UN_PERSON)
    customer_person_screened(api, config["uuid"], PEP_PERSON)
    [first, second] = cases(api, config["uuid"])["elements"]

    review(api, config["uuid"], first["screening_case"]["uuid"], "in_review", "possible_match")

    got = counts(api, config["uuid"])
    assert got["total"] == 2 and got["complete"] == (0, 0, 0)
    kinds = {e["screening_case"]["uuid"]: (e["screening_case"]["pep_flag"], e["screening_case"]["sanction_flag"]) for e in (first, second)}
    pep, sanction = kinds[first["screening_case"]["uuid"]]
    assert got["ongoing"] == (1, int(pep), int(sanction))
    pep, sanction = kinds[second["screening_case"]["uuid"]]
    assert got["pending"] == (1, int(pep), int(sanction))
    assert got["pending"][1] + got["ongoing"][1] == 1 and got["pending"][2] + got["ongoing"][2] == 1


def test_it_is_404_for_another_organisations_config_and_403_without_aml(api, other_api, lists):
    config = config_with(api)
    url = config_url(config["uuid"], PATH)

    assert other_api.get(url, roles=AML).status_code == 404
    assert api.get(url).status_code == 403
