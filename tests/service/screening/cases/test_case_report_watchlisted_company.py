"""The case report of a watchlisted company's owner and of the company itself: the related
company and why the entity is monitored."""

from __future__ import annotations

from tests.service.companies.factories import company_make, person_make
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import cases, config_with
from tests.service.screening.cases.test_case_report import _report, _text
from tests.service.screening.helpers import AML, config_url, patch
from tests.service.screening.watchlists.helpers import attach, owns, watchlist_make


def test_it_names_the_related_company_and_why_the_owner_is_monitored(api, lists):
    config = config_with(api, "un_security_council")
    assert patch(api, config_url(config["uuid"]), {"auto_approve_monitoring_flag": True}, roles=AML).status_code == 200
    company = company_make(name="Koryo Fjord Trading AS")
    owns(person_make(full_name=UN_PERSON, birth_date="1966-03-14"), company, 60)
    assert attach(api, config["uuid"], watchlist_make(api, companies=[company])).status_code == 201
    by_kind = {c["entity_inquiry"]["inquiry_entity_key"]: c for c in cases(api, config["uuid"])["elements"]}

    owner = _text(_report(api, config["uuid"], screening_case_uuid=by_kind["person"]["screening_case"]["uuid"]).json()[0])
    itself = _text(_report(api, config["uuid"], screening_case_uuid=by_kind["company"]["screening_case"]["uuid"]).json()[0])

    assert "Koryo Fjord Trading AS" in owner and "Beneficial owner" in owner
    assert "Owns 60,0 % of Koryo Fjord Trading AS directly" in owner  # the reason's share as the report's other figures
    assert "Register person" in owner and "14.03.1966" in owner
    assert "Screened as Company" in itself and company.org_nr in itself
    assert "KORYO FJORD TRADING" in itself and "KPe.901" in itself
