"""GET /analysis/v1/company/{id}/company-employment: head counts over time."""

from datetime import datetime

import pytest
from django.utils import timezone

from service.companies import services
from tests.service.companies.factories import company_make

AUTH_QUERIES = 2


def url(identifier) -> str:
    return f"/analysis/v1/company/{identifier}/company-employment"


def moment(*args) -> datetime:
    return timezone.make_aware(datetime(*args))


def parse(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None


@pytest.fixture
def company(db):
    company = company_make()
    # recorded out of order on purpose
    services.company_employment_add(company=company, employee_count=8, from_date=moment(2021, 1, 1))
    services.company_employment_add(company=company, employee_count=15, from_date=moment(2023, 1, 1))
    services.company_employment_add(company=company, employee_count=11, from_date=moment(2024, 7, 1))
    return company


def test_it_lists_the_periods_ordered_by_from_date_with_their_changes(api, company):
    response = api.get(url(company.uuid))

    assert response.status_code == 200
    rows = response.json()
    assert [r["employee_count"] for r in rows] == [8, 15, 11]
    assert [parse(r["from_date"]) for r in rows] == [moment(2021, 1, 1), moment(2023, 1, 1), moment(2024, 7, 1)]
    assert [parse(r["to_date"]) for r in rows] == [moment(2023, 1, 1), moment(2024, 7, 1), None]
    assert [(r["employee_count_from"], r["employee_count_to"]) for r in rows] == [(None, 15), (8, 11), (15, None)]
    assert all(r["company_uuid"] == str(company.uuid) for r in rows)
    assert set(rows[0]) == {
        "uuid", "company_uuid", "employee_count", "employee_date", "from_date", "to_date",
        "employee_count_from", "employee_count_to",
    }


def test_the_register_count_follows_the_latest_period(company):
    company.refresh_from_db()
    assert company.employees == 11


def test_a_company_without_history_has_an_empty_list(api, db):
    assert api.get(url(company_make().uuid)).json() == []


def test_unknown_and_malformed_identifiers(api, db):
    assert api.get(url("NO923609016")).status_code == 404
    assert api.get(url("12345")).status_code == 400


def test_it_runs_a_fixed_number_of_queries(api, company, django_assert_max_num_queries):
    with django_assert_max_num_queries(AUTH_QUERIES + 2):
        assert api.get(url(f"NO{company.org_nr}")).status_code == 200
