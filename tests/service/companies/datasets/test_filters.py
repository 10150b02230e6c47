"""Dot-notation filters with every operator, typed values and bad values (docs/datasets.md)."""

import datetime as dt

import pytest
from django.utils import timezone

from service.companies import models as m
from service.companies.datasets.filters import like_to_regex
from tests.service.companies.datasets.builders import DATASETS, a_company, a_flag, a_person, a_role, an_accounts
from tests.service.companies.datasets.responses import elements_of, error_of

ACCOUNTS = f"{DATASETS}/accounts"
COMPOSITE = f"{DATASETS}/accounts-composite"
COMPANIES = f"{DATASETS}/company"


@pytest.fixture
def years(db) -> dict[int, m.Accounts]:
    """Accounts of one company for 2019..2022; 2020 has no statements."""
    company = a_company(name="Fjordkraft AS")
    return {
        2019: an_accounts(company=company, year=2019, return_on_assets="0.010000"),
        2020: an_accounts(company=company, year=2020, statements=False),
        2021: an_accounts(company=company, year=2021, return_on_assets="0.100000"),
        2022: an_accounts(company=company, year=2022, return_on_assets="0.250000", audited_flag=False),
    }


def _years_of(response) -> list[int]:
    """Accounting years of a plain accounts or accounts-composite response, sorted."""
    return sorted(
        (element["accounts"] if "accounts" in element else element)["accounting_year"]
        for element in elements_of(response)
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2021", [2021]),
        ("EQ:2021", [2021]),
        ("eq:2021", [2021]),  # operators are case-insensitive
        ("NEQ:2021", [2019, 2020, 2022]),
        ("GT:2020", [2021, 2022]),
        ("GTE:2020", [2020, 2021, 2022]),
        ("LT:2020", [2019]),
        ("LTE:2020", [2019, 2020]),
        ("IN:2019,2022", [2019, 2022]),
    ],
)
def test_it_compares_integers(api, years, value, expected):
    assert _years_of(api.get(ACCOUNTS, {"accounting_year": value})) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("GT:0.1", [2022]),
        ("GTE:0.1", [2021, 2022]),
        ("LT:0.1", [2019]),
        ("EQ:0.10", [2021]),
        ("IN:0.01,0.25", [2019, 2022]),
    ],
)
def test_it_compares_decimals_on_another_entity(api, years, value, expected):
    assert _years_of(api.get(COMPOSITE, {"accounts_highlights.return_on_assets": value})) == expected


def test_neq_keeps_rows_without_a_value(api, years):
    # 2020 has no highlights at all: "not 0.1" includes "no value".
    assert _years_of(api.get(COMPOSITE, {"accounts_highlights.return_on_assets": "NEQ:0.1"})) == [2019, 2020, 2022]


def test_it_compares_dates(api, years):
    assert _years_of(api.get(ACCOUNTS, {"accounting_announcement_date": "GTE:2022-05-31"})) == [2021, 2022]
    assert _years_of(api.get(ACCOUNTS, {"accounting_to_date": "2019-12-31"})) == [2019]


def test_it_takes_a_date_or_a_timestamp_for_a_timestamp_field(api, years):
    m.Accounts.objects.filter(uuid=years[2019].uuid).update(
        update_timestamp=timezone.make_aware(dt.datetime(2021, 4, 30, 12, 0))
    )
    m.Accounts.objects.exclude(uuid=years[2019].uuid).update(
        update_timestamp=timezone.make_aware(dt.datetime(2021, 5, 1, 8, 0))
    )

    assert _years_of(api.get(COMPOSITE, {"update_timestamp": "GTE:2021-05-01"})) == [2020, 2021, 2022]
    assert _years_of(api.get(COMPOSITE, {"update_timestamp": "LT:2021-05-01"})) == [2019]
    # 08:00 in Oslo on 1 May is 06:00 UTC; a timestamp without an offset is Oslo time.
    assert _years_of(api.get(ACCOUNTS, {"update_timestamp": "GT:2021-05-01T07:30:00"})) == [2020, 2021, 2022]
    assert _years_of(api.get(ACCOUNTS, {"update_timestamp": "GT:2021-05-01T07:30:00+02:00"})) == [2020, 2021, 2022]
    assert _years_of(api.get(ACCOUNTS, {"update_timestamp": "GT:2021-05-01T05:30:00Z"})) == [2020, 2021, 2022]
    assert _years_of(api.get(ACCOUNTS, {"update_timestamp": "GT:2021-05-01T06:30:00Z"})) == []


def test_it_compares_booleans(api, years):
    assert _years_of(api.get(ACCOUNTS, {"audited_flag": "false"})) == [2022]
    assert _years_of(api.get(ACCOUNTS, {"audited_flag": "EQ:true"})) == [2019, 2020, 2021]


def test_it_compares_uuids(api, years):
    other = an_accounts(company=a_company(name="Other AS"), year=2019)

    assert _years_of(api.get(ACCOUNTS, {"uuid": str(years[2021].uuid)})) == [2021]
    assert _years_of(api.get(ACCOUNTS, {"uuid": f"IN:{years[2021].uuid},{other.uuid}"})) == [2019, 2021]
    assert _years_of(api.get(COMPOSITE, {"company.uuid": str(other.company_id)})) == [2019]


def test_isnull_finds_rows_with_and_without_a_joined_entity(api, years):
    assert _years_of(api.get(COMPOSITE, {"accounts_balance_sheet.uuid": "ISNULL:true"})) == [2020]
    assert _years_of(api.get(COMPOSITE, {"accounts_balance_sheet.uuid": "ISNULL:false"})) == [2019, 2021, 2022]
    assert _years_of(api.get(ACCOUNTS, {"replaced_by_accounts_uuid": "ISNULL:true"})) == [2019, 2020, 2021, 2022]


def test_isnull_counts_empty_text_as_null(api):
    with_site = a_company(name="Nettsted AS", website="https://nettsted.no")
    a_company(name="Uten AS")

    listed = elements_of(api.get(COMPANIES, {"website": "ISNULL:false"}))
    empty = elements_of(api.get(COMPANIES, {"website": "ISNULL:true"}))

    assert [company["uuid"] for company in listed] == [str(with_site.uuid)]
    assert [company["name"] for company in empty] == ["Uten AS"]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("LIKE:%kraft%", ["Fjordkraft AS", "Kraftverk Øst AS"]),
        ("LIKE:KRAFT%", ["Kraftverk Øst AS"]),
        ("LIKE:%øst as", ["Kraftverk Øst AS"]),  # case folding beyond ASCII
        ("LIKE:fjordkr_ft as", ["Fjordkraft AS"]),
        ("LIKE:100\\% as", ["100% AS"]),  # \% is a literal percent sign
        ("LIKE:fjordkraft", []),  # no wildcard: the whole value must match
    ],
)
def test_like_matches_sql_patterns_case_insensitively(api, pattern, expected):
    for name in ("Fjordkraft AS", "Kraftverk Øst AS", "100% AS", "Bergen Bil AS"):
        a_company(name=name)

    names = sorted(company["name"] for company in elements_of(api.get(COMPANIES, {"name": pattern})))

    assert names == expected


def test_repeated_parameters_must_all_hold(api, years):
    response = api.get(f"{ACCOUNTS}?accounting_year=GTE:2020&accounting_year=LTE:2021")

    assert _years_of(response) == [2020, 2021]


def test_conditions_on_several_entities_must_all_hold(api, years):
    other = a_company(name="Annen AS")
    an_accounts(company=other, year=2022, return_on_assets="0.300000")

    response = api.get(
        COMPOSITE, {"company.name": "LIKE:fjord%", "accounts_highlights.return_on_assets": "GT:0.05"}
    )

    assert _years_of(response) == [2021, 2022]


def test_it_filters_json_flag_composites_by_their_type(api):
    company = a_company()
    a_flag(company=company, key="negative_total_equity")
    a_flag(company=company, key="bankrupt", ended=True)

    response = api.get(
        f"{DATASETS}/company-flag-composite",
        {"company_flag_type.company_flag_type_key": "bankrupt", "company_flag.flag_end_date": "ISNULL:false"},
    )

    [element] = elements_of(response)
    assert element["company_flag_type"]["company_flag_type_key"] == "bankrupt"


# --- bad values ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parameter", "value", "reason"),
    [
        ("accounting_year", "GT:twenty", "not an integer"),
        ("accounting_year", "2021.5", "not an integer"),
        ("accounting_year", "IN:2021,x", "not an integer"),
        ("accounting_year", "IN:", "IN needs a comma-separated list of values"),
        ("accounting_to_date", "LT:31.12.2021", "not a date"),
        ("update_timestamp", "GTE:yesterday", "not a date or an ISO 8601 timestamp"),
        ("audited_flag", "perhaps", "not a boolean"),
        ("uuid", "not-a-uuid", "not a UUID"),
        ("accounts_type_uuid", "ISNULL:maybe", "not a boolean"),
        ("accounting_year", "LIKE:20%", "LIKE matches text"),
        ("audited_flag", "GT:false", "GT compares numbers, dates and text"),
    ],
)
def test_a_bad_value_is_a_400_naming_the_parameter(api, parameter, value, reason):
    body = error_of(api.get(ACCOUNTS, {parameter: value}), 400)

    assert parameter in body["detail"]
    assert reason in body["detail"]
    assert body["errors"][0]["loc"] == ["query", parameter]


def test_an_empty_in_list_says_what_it_needs(api):
    body = error_of(api.get(ACCOUNTS, {"accounting_year": "IN:,"}), 400)

    assert body["errors"] == [{"loc": ["query", "accounting_year"], "msg": "IN needs a comma-separated list of values"}]


@pytest.mark.parametrize("value", ["GT:NaN", "Infinity", "GT:1,5"])
def test_a_bad_decimal_is_a_400(api, value):
    body = error_of(api.get(COMPOSITE, {"accounts_highlights.return_on_assets": value}), 400)

    assert body["errors"][0]["loc"] == ["query", "accounts_highlights.return_on_assets"]


@pytest.mark.parametrize(
    ("url", "parameter", "why"),
    [
        (ACCOUNTS, "app_url", "derived from another field"),
        (f"{DATASETS}/company-flag-composite", "company_flag.flag_context", "a JSON object"),
        (f"{DATASETS}/company-flag-composite", "company_flag_type.app_role_uuid", "always null"),
    ],
)
def test_derived_json_and_always_null_fields_cannot_be_filtered(api, url, parameter, why):
    body = error_of(api.get(url, {parameter: "x"}), 400)

    assert body["code"] == "unfilterable_field"
    assert body["errors"] == [{"loc": ["query", parameter], "msg": f"{parameter} cannot be filtered on (it is {why})"}]


def test_like_to_regex_escapes_regex_characters():
    assert like_to_regex("a.b%c_d") == r"^a\.b.*c.d$"
    assert like_to_regex(r"50\%\_") == r"^50%_$"
    assert like_to_regex("50\\") == r"^50\\$"  # a lone trailing backslash is itself


def test_isnull_on_text_matches_an_absent_entity_as_well_as_empty_text(api):
    company = a_company(name="Fjordkraft AS")
    by_person = a_role(company=company, person=a_person())
    by_company = a_role(company=company, type_key="shareholder", holder=a_company(name="Eier AS"))
    url = f"{DATASETS}/company-role-composite"

    absent = elements_of(api.get(url, {"holder_company.name": "ISNULL:true"}))
    present = elements_of(api.get(url, {"holder_company.name": "ISNULL:false"}))

    assert [element["company_role"]["uuid"] for element in absent] == [str(by_person.uuid)]
    assert [element["company_role"]["uuid"] for element in present] == [str(by_company.uuid)]


def test_an_unknown_parameter_lists_the_entities_and_root_fields(api):
    body = error_of(api.get(COMPOSITE, {"nonsense": "1"}), 400)

    assert body["code"] == "unknown_field"
    assert body["errors"][0]["loc"] == ["query", "nonsense"]
    assert (
        "Filter other entities as <entity>.<field> (accounts, accounts_highlights, accounts_income_statement, "
        "accounts_balance_sheet, company, accounts_type); root fields: uuid, company_uuid, accounting_year,"
    ) in body["detail"]
    entity = error_of(api.get(COMPOSITE, {"company": "1"}), 400)
    assert entity["code"] == "unknown_field"
    assert entity["detail"] == "Filter 'company' names an entity; filter one of its fields as company.<field>."


def test_paging_parameters_before_a_filter_leave_the_filter_in_force(years, api):
    # Query order is the caller's: a limit first must not end the reading of the filters.
    response = api.get(ACCOUNTS, {"limit": "100", "offset": "0", "accounting_year": "2021"})

    assert _years_of(response) == [2021]
