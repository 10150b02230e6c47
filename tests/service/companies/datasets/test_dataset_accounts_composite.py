"""GET /datasets/v1/dataset/accounts-composite (spec §2.4, §4.6)."""

from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.service.companies.datasets.builders import DATASETS, a_company, an_accounts
from tests.service.companies.datasets.responses import body_of, elements_of

URL = f"{DATASETS}/accounts-composite"
SPEC_ELEMENT_KEYS = {
    "accounts",
    "accounts_highlights",
    "accounts_income_statement",
    "accounts_balance_sheet",
    "company",
    "accounts_type",
}


def test_it_returns_each_accounts_as_a_composite_of_the_spec_entities(api):
    company = a_company(name="Fjordkraft AS")
    accounts = an_accounts(company=company, year=2022)

    [element] = elements_of(api.get(URL))

    assert set(element) == SPEC_ELEMENT_KEYS
    assert element["accounts"]["uuid"] == str(accounts.uuid)
    assert element["accounts"]["accounting_year"] == 2022
    assert element["accounts"]["accounting_announcement_date"] == "2023-05-31"
    assert element["accounts"]["corporate_group_accounts_flag"] is False
    assert element["company"] == {
        "uuid": str(company.uuid),
        "name": "Fjordkraft AS",
        "org_nr": company.org_nr,
        "org_nr_schema": "NO",
        "app_url": f"/companies/{company.uuid}/",
    }
    assert element["accounts_type"]["accounts_type_key"] == "annual_company_accounts"


def test_every_statement_carries_its_uuid_and_the_accounts_references(api):
    company = a_company()
    accounts = an_accounts(company=company, year=2021)

    [element] = elements_of(api.get(URL))

    for key in ("accounts_highlights", "accounts_income_statement", "accounts_balance_sheet"):
        part = element[key]
        assert part["uuid"] and part["uuid"] != str(accounts.uuid)
        assert part["accounts_uuid"] == str(accounts.uuid)
        assert part["company_uuid"] == str(company.uuid)
        assert part["accounts_type_uuid"] == element["accounts_type"]["uuid"]
        assert part["accounting_year"] == 2021
        assert part["app_url"].startswith(f"/companies/{company.uuid}/")
    assert element["accounts"]["company_uuid"] == str(company.uuid)
    assert element["accounts"]["accounts_type_uuid"] == element["accounts_type"]["uuid"]


def test_it_writes_money_and_ratios_as_exact_json_numbers(api):
    # 15 significant digits: what SQLite (the test default) keeps; PostgreSQL keeps all 20.
    an_accounts(company=a_company(), total_sales="1234567890123.40", return_on_assets="0.123456")

    text = body_of(api.get(URL))
    [element] = elements_of(api.get(URL))

    assert '"total_sales":1234567890123.40,' in text  # the decimal as stored, not a float
    assert '"total_equity":-250.50,' in text
    assert element["accounts_income_statement"]["total_sales"] == Decimal("1234567890123.40")
    assert element["accounts_highlights"]["return_on_assets"] == Decimal("0.123456")
    assert element["accounts_balance_sheet"]["total_equity"] == Decimal("-250.50")
    assert element["accounts_income_statement"]["other_operating_income"] is None


def test_it_writes_missing_statements_as_null(api):
    an_accounts(company=a_company(), statements=False)

    [element] = elements_of(api.get(URL))

    assert element["accounts_highlights"] is None
    assert element["accounts_income_statement"] is None
    assert element["accounts_balance_sheet"] is None
    assert element["accounts"]["uuid"]


def test_it_filters_on_the_accounts_type_key(api):
    company = a_company()
    own = an_accounts(company=company, type_key="annual_company_accounts")
    an_accounts(company=company, type_key="annual_corporate_group_accounts")

    elements = elements_of(api.get(URL, {"accounts_type.accounts_type_key": "EQ:annual_company_accounts"}))

    assert [element["accounts"]["uuid"] for element in elements] == [str(own.uuid)]


def test_it_filters_on_return_on_assets_greater_than(api):
    company = a_company()
    high = an_accounts(company=company, year=2022, return_on_assets="0.200000")
    an_accounts(company=company, year=2021, return_on_assets="0.050000")
    an_accounts(company=company, year=2020, return_on_assets=None)

    elements = elements_of(api.get(URL, {"accounts_highlights.return_on_assets": "GT:0.1"}))

    assert [element["accounts"]["uuid"] for element in elements] == [str(high.uuid)]


def test_it_reads_all_entities_in_one_query_whatever_the_number_of_rows(api):
    company = a_company()
    for year in range(2015, 2023):
        an_accounts(company=company, year=year)

    with CaptureQueriesContext(connection) as queries:
        elements = elements_of(api.get(URL))

    assert len(elements) == 8
    register_queries = [query for query in queries if "service_companies_" in query["sql"]]
    assert len(register_queries) == 1
    assert "JOIN" in register_queries[0]["sql"]
