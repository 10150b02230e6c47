"""GET /analysis/v1/company-role?company_identifier=...: role composites."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tests.conftest import make_caller
from tests.service.companies.factories import company_make, person_make, role_make

URL = "/analysis/v1/company-role"
AUTH_QUERIES = 2
NATIONAL_ID = "01017012345"


@pytest.fixture
def company(db):
    company = company_make(name="Datter AS")
    owner = company_make(name="Mor Holding AS")
    kari = person_make(full_name="Kari Nordmann", national_id=NATIONAL_ID, birth_date=date(1970, 1, 1))
    role_make(company=company, role_key="ceo", person=kari, from_date=date(2019, 1, 1))
    role_make(company=company, role_key="board_chair", person=person_make(full_name="Ola Hansen"))
    role_make(company=company, role_key="shareholder", holder_company=owner, share_percentage=Decimal("62.5"))
    role_make(
        company=company, role_key="board_member", person=kari, from_date=date(2015, 1, 1), to_date=date(2018, 12, 31)
    )
    return company


def by_type(response) -> dict[str, dict]:
    return {e["company_role_type"]["company_role_type_key"]: e for e in response.json()}


def test_it_returns_roles_with_their_type_and_holder(api, company):
    response = api.get(URL, {"company_identifier": str(company.uuid)})

    assert response.status_code == 200
    roles = by_type(response)
    assert set(roles) == {"ceo", "board_chair", "shareholder", "board_member"}
    ceo = roles["ceo"]
    assert set(ceo) == {"uuid", "company_role", "company_role_type", "person", "holder_company", "company"}
    assert ceo["person"]["full_name"] == "Kari Nordmann" and ceo["person"]["birth_date"] == "1970-01-01"
    assert ceo["company_role"]["holder_person_uuid"] == ceo["person"]["uuid"]
    assert ceo["company_role"]["active_flag"] is True and ceo["holder_company"] is None
    assert ceo["company"]["uuid"] == str(company.uuid)
    owner = roles["shareholder"]
    assert owner["person"] is None and owner["holder_company"]["name"] == "Mor Holding AS"
    assert owner["company_role"]["share_percentage"] == 62.5
    assert roles["board_member"]["company_role"]["active_flag"] is False


def test_national_ids_are_null_without_the_role(api, company):
    response = api.get(URL, {"company_identifier": str(company.uuid)})

    person = by_type(response)["ceo"]["person"]
    assert person["national_identification_number"] is None
    assert person["national_identification_schema"] is None
    assert NATIONAL_ID.encode() not in response.content


def test_national_ids_are_shown_with_the_role(api, company):
    response = api.get(URL, {"company_identifier": str(company.uuid)}, roles=["person_national_identification"])

    person = by_type(response)["ceo"]["person"]
    assert person["national_identification_number"] == NATIONAL_ID
    assert person["national_identification_schema"] == "NO"


def test_national_ids_stay_null_when_the_role_is_requested_but_not_assigned(company):
    caller = make_caller("Credit Only AS", roles=["credit_check"])

    response = caller.get(URL, {"company_identifier": str(company.uuid)}, roles=["person_national_identification"])

    assert response.status_code == 200
    assert NATIONAL_ID.encode() not in response.content


def test_unknown_malformed_and_missing_identifiers(api, db):
    assert api.get(URL, {"company_identifier": "NO923609016"}).status_code == 404
    malformed = api.get(URL, {"company_identifier": "nope"})
    assert malformed.status_code == 400
    assert malformed.json()["errors"][0]["loc"] == ["query", "company_identifier"]
    assert api.get(URL).status_code == 400


def test_it_runs_a_fixed_number_of_queries(api, company, django_assert_max_num_queries):
    with django_assert_max_num_queries(AUTH_QUERIES + 2):
        assert api.get(URL, {"company_identifier": str(company.uuid)}).status_code == 200


def test_a_role_that_starts_later_is_not_active_yet(api, company, stopped_clock):
    tomorrow = timezone.localdate() + timedelta(days=1)
    role_make(company=company, role_key="auditor", holder_company=company_make(name="Revisor AS"), from_date=tomorrow)

    response = api.get(URL, {"company_identifier": str(company.uuid)})

    auditor = by_type(response)["auditor"]["company_role"]
    assert auditor["from_date"] == tomorrow.isoformat()
    assert auditor["active_flag"] is False
