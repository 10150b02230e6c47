"""Monitorings the watchlist sync creates active (auto-approve) are screened at once: the
company's own name and its beneficial owner."""

from __future__ import annotations

from tests.service.companies.factories import company_make, person_make
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import cases, config_with
from tests.service.screening.helpers import AML, config_url, patch
from tests.service.screening.watchlists.helpers import attach, owns, watchlist_make


def test_it_raises_cases_for_a_listed_company_and_its_listed_owner(api, lists):
    config = config_with(api, "un_security_council")
    assert patch(api, config_url(config["uuid"]), {"auto_approve_monitoring_flag": True}, roles=AML).status_code == 200
    company = company_make(name="Koryo Fjord Trading AS")
    owns(person_make(full_name=UN_PERSON), company, 60)

    assert attach(api, config["uuid"], watchlist_make(api, companies=[company])).status_code == 201

    elements = cases(api, config["uuid"], related_company_uuid=str(company.uuid))["elements"]
    found = {
        (c["screening_case_match"]["list_entry"]["source_id"], c["entity_inquiry"]["inquiry_entity_key"]) for c in elements
    }
    assert found == {("KPe.901", "company"), ("KPi.901", "person")}
    assert all(c["screening_case"]["sanction_flag"] for c in elements)
