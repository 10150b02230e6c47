"""A filter value its column cannot hold is a 400 naming the parameter, not an empty result.

Before, an integer beyond the column was an empty answer, a decimal beyond PostgreSQL's
numeric range failed inside the stream and a timestamp at the edge of year 1 or 9999
overflowed on SQLite (service/companies/datasets/fields.py: check_column_range).
"""

from __future__ import annotations

import pytest

from tests.service.companies.datasets.builders import DATASETS, a_company, an_accounts
from tests.service.companies.datasets.responses import elements_of, error_of


@pytest.fixture
def accounts(db):
    return an_accounts(company=a_company(employees=12), year=2023)


@pytest.mark.parametrize("response_file_type", ["json", "csv"])
@pytest.mark.parametrize(
    ("dataset", "parameter", "value", "reason"),
    [
        ("company", "employees", "GT:2147483648", "out of range"),  # an integer column
        ("company", "employees", "IN:1,-2147483649", "out of range"),
        ("accounts", "accounting_year", "99999999999", "out of range"),
        ("accounts-composite", "accounts_income_statement.total_sales", "GT:1E+999999", "digits before the point"),
        ("accounts-composite", "accounts_income_statement.total_sales", "1E-999999", "too many decimals"),
        ("accounts-composite", "accounts_highlights.return_on_assets", "LT:0.1234567", "too many decimals"),
        ("company", "update_timestamp", "GT:9999-12-31T23:59:59-05:00", "out of range"),
        ("company", "update_timestamp", "LT:0001-01-01T00:00:00+05:00", "out of range"),
    ],
)
def test_a_value_beyond_its_column_is_a_400(api, accounts, dataset, parameter, value, reason, response_file_type):
    response = api.get(f"{DATASETS}/{dataset}", {parameter: value, "response_file_type": response_file_type})

    body = error_of(response, 400)
    assert body["errors"][0]["loc"] == ["query", parameter]
    assert reason in body["errors"][0]["msg"]


def test_values_at_the_edges_of_their_columns_still_filter(api, accounts):
    assert elements_of(api.get(f"{DATASETS}/company", {"employees": "LTE:2147483647"}))
    assert elements_of(api.get(f"{DATASETS}/accounts-composite", {"accounts_highlights.return_on_assets": "GT:-99999999999999.999999"}))
    assert not elements_of(api.get(f"{DATASETS}/accounts-composite", {"accounts_income_statement.total_sales": "GT:999999999999999999.99"}))
    assert elements_of(api.get(f"{DATASETS}/company", {"update_timestamp": "GT:0001-01-02"}))
