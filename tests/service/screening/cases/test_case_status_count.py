"""GET /v1/screening-config/{uuid}/screening-case-status-count (extension): counts per status,
with how many are PEP and sanction hits, under the case collection's other filters."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, review
from tests.service.screening.helpers import AML, config_url

PATH = "/screening-case-status-count"


def _rows(caller, config_uuid, **params) -> list[dict]:
    response = caller.get(config_url(config_uuid, PATH), params, roles=AML)
    assert response.status_code == 200, response.json()
    return response.json()


def _counts(caller, config_uuid, **params) -> dict[str, int]:
    return {row["screening_case_status_key"]: row["count"] for row in _rows(caller, config_uuid, **params)}


def _hits(caller, config_uuid, **params) -> dict[str, tuple[int, int, int]]:
    """status -> (count, pep_count, sanction_count)"""
    return {
        row["screening_case_status_key"]: (row["count"], row["pep_count"], row["sanction_count"])
        for row in _rows(caller, config_uuid, **params)
    }


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


def test_it_counts_the_pep_and_sanction_hits_of_each_status(api, lists):
    config = config_with(api, "un_security_council")
    assert _hits(api, config["uuid"]) == {"pending": (0, 0, 0), "ongoing": (0, 0, 0), "complete": (0, 0, 0)}
    assert [row["screening_case_status_key"] for row in _rows(api, config["uuid"])] == ["pending", "ongoing", "complete"]
    customer_person_screened(api, config["uuid"], UN_PERSON)
    customer_person_screened(api, config["uuid"], PEP_PERSON)
    [first, second] = cases(api, config["uuid"])["elements"]

    review(api, config["uuid"], first["screening_case"]["uuid"], "in_review", "possible_match")

    got = _hits(api, config["uuid"])
    assert got["complete"] == (0, 0, 0)
    kinds = {e["screening_case"]["uuid"]: (e["screening_case"]["pep_flag"], e["screening_case"]["sanction_flag"]) for e in (first, second)}
    pep, sanction = kinds[first["screening_case"]["uuid"]]
    assert got["ongoing"] == (1, int(pep), int(sanction))
    pep, sanction = kinds[second["screening_case"]["uuid"]]
    assert got["pending"] == (1, int(pep), int(sanction))
    assert got["pending"][1] + got["ongoing"][1] == 1 and got["pending"][2] + got["ongoing"][2] == 1
    # Under a filter the hit counts follow it: only sanction hits, so no PEP hit among them.
    sanction_only = _hits(api, config["uuid"], sanction_flag="true")
    assert sum(c for c, _, _ in sanction_only.values()) == 1
    assert sum(p for _, p, _ in sanction_only.values()) == 0 and sum(s for _, _, s in sanction_only.values()) == 1


def test_it_is_404_for_another_organisations_config_and_403_without_aml(api, other_api, lists):
    config = config_with(api, "un_security_council")
    url = config_url(config["uuid"], PATH)

    assert other_api.get(url, roles=AML).status_code == 404
    assert api.get(url).status_code == 403


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plan")
def test_the_counts_can_be_read_from_the_index_alone(api, lists):
    """The queue asks for these counts on every page: the index on config, status and both flags
    answers them without reading a case row."""
    from service.screening.case_selectors import CaseFilters, case_status_counts
    from service.screening.models import ScreeningConfig

    config = ScreeningConfig.objects.get(uuid=config_with(api, "un_security_council")["uuid"])
    customer_person_screened(api, str(config.uuid), UN_PERSON)
    with connection.cursor() as cursor, CaptureQueriesContext(connection) as queries:
        # Only an index-only scan left allowed: any other plan falls back to a disabled one.
        cursor.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexscan = off")
        assert [c.count for c in case_status_counts(config=config, filters=CaseFilters())] == [1, 0, 0]
        cursor.execute(f"EXPLAIN {queries.captured_queries[-1]['sql']}")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Index Only Scan using case_config_status_flags" in plan, plan
