"""GET /analysis/v1/company/{id}/accounts-auditor-note-composite."""

import pytest

from tests.service.companies.factories import accounts_make, company_make

AUTH_QUERIES = 2


def url(identifier) -> str:
    return f"/analysis/v1/company/{identifier}/accounts-auditor-note-composite"


@pytest.fixture
def company(db):
    company = company_make()
    accounts_make(company=company, year=2023, notes=[("unqualified_opinion", "Clean report.")])
    accounts_make(
        company=company,
        year=2024,
        notes=[("emphasis_of_matter", "Note 7 on the lawsuit."), ("going_concern", "Material uncertainty.")],
    )
    accounts_make(company=company, year=2024, type_key="annual_corporate_group_accounts",
                  notes=[("qualified_opinion", "Group inventory not verified.")])
    return company


def test_it_returns_each_note_with_its_accounts_and_types_newest_year_first(api, company):
    response = api.get(url(company.uuid))

    assert response.status_code == 200
    elements = response.json()
    assert [
        (e["accounts"]["accounting_year"], e["accounts_type"]["accounts_type_key"],
         e["accounts_auditor_note_type"]["accounts_auditor_note_type_key"])
        for e in elements
    ] == [
        (2024, "annual_company_accounts", "emphasis_of_matter"),
        (2024, "annual_company_accounts", "going_concern"),
        (2024, "annual_corporate_group_accounts", "qualified_opinion"),
        (2023, "annual_company_accounts", "unqualified_opinion"),
    ]
    element = elements[-1]
    assert set(element) == {"accounts", "accounts_type", "accounts_auditor_note", "accounts_auditor_note_type"}
    note = element["accounts_auditor_note"]
    assert note["auditor_note"] == "Clean report."
    assert note["accounts_uuid"] == element["accounts"]["uuid"]
    assert note["accounting_year"] == 2023
    assert note["accounts_auditor_note_type_uuid"] == element["accounts_auditor_note_type"]["uuid"]
    assert element["accounts_auditor_note_type"]["description"]
    assert element["accounts"]["company_uuid"] == str(company.uuid)


def test_a_company_without_notes_has_an_empty_list(api, db):
    company = company_make()
    accounts_make(company=company, year=2024)

    assert api.get(url(company.uuid)).json() == []


def test_unknown_and_malformed_identifiers(api, db):
    assert api.get(url("NO923609016")).status_code == 404
    assert api.get(url("NO 12 34")).status_code == 400


def test_it_runs_a_fixed_number_of_queries(api, company, django_assert_max_num_queries):
    with django_assert_max_num_queries(AUTH_QUERIES + 2):
        assert api.get(url(company.uuid)).status_code == 200
