"""response_file_type (json, jsonl, csv), keep_only_fields and ignore_fields."""

import datetime as dt
import json

import pytest
from django.utils import timezone

from service.companies import models as m
from service.companies.datasets.formats import BUFFER_BYTES
from tests.service.companies.datasets.builders import DATASETS, a_company, an_accounts
from tests.service.companies.datasets.responses import body_of, csv_rows_of, elements_of, error_of, lines_of

COMPOSITE = f"{DATASETS}/accounts-composite"
ACCOUNTS = f"{DATASETS}/accounts"


@pytest.fixture
def two_accounts(db):
    company = a_company(name="Ålesund Fisk, \"Havet\" AS")  # a comma, quotes and a non-ASCII letter
    return [an_accounts(company=company, year=2022), an_accounts(company=company, year=2021, statements=False)]


@pytest.mark.parametrize(
    ("file_type", "content_type"),
    [("json", "application/json"), ("jsonl", "application/x-ndjson"), ("csv", "text/csv; charset=utf-8")],
)
def test_it_streams_each_format_with_its_content_type(api, two_accounts, file_type, content_type):
    response = api.get(COMPOSITE, {"response_file_type": file_type})

    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == f'inline; filename="accounts-composite.{file_type}"'


def test_json_is_one_array_and_the_default(api, two_accounts):
    default = body_of(api.get(COMPOSITE))
    explicit = body_of(api.get(COMPOSITE, {"response_file_type": "json"}))

    assert default == explicit
    assert len(elements_of(api.get(COMPOSITE))) == 2


def test_an_empty_result_is_an_empty_array(api):
    assert elements_of(api.get(COMPOSITE)) == []
    assert body_of(api.get(COMPOSITE, {"response_file_type": "jsonl"})) == ""


def test_jsonl_is_one_composite_per_line_equal_to_the_json_elements(api, two_accounts):
    lines = lines_of(api.get(COMPOSITE, {"response_file_type": "jsonl"}))

    assert lines == elements_of(api.get(COMPOSITE))
    assert len(lines) == 2


def test_csv_has_a_header_of_entity_dot_field_columns(api, two_accounts):
    text = body_of(api.get(COMPOSITE, {"response_file_type": "csv"}))
    rows = csv_rows_of(api.get(COMPOSITE, {"response_file_type": "csv"}))

    header = text.splitlines()[0].split(",")
    assert header[:3] == ["accounts.uuid", "accounts.company_uuid", "accounts.accounting_year"]
    assert "accounts_highlights.return_on_assets" in header
    assert "company.name" in header
    assert header[-1] == "accounts_type.app_url"
    assert len(rows) == 2
    by_year = {row["accounts.accounting_year"]: row for row in rows}
    assert by_year["2022"]["company.name"] == 'Ålesund Fisk, "Havet" AS'
    assert by_year["2022"]["accounts_balance_sheet.total_equity"] == "-250.50"
    assert by_year["2022"]["accounts.corporate_group_accounts_flag"] == "false"
    assert by_year["2022"]["accounts_income_statement.other_operating_income"] == ""  # null
    assert by_year["2021"]["accounts_highlights.uuid"] == ""  # no highlights: empty cells
    assert by_year["2021"]["accounts_highlights.accounts_uuid"] == ""


def test_csv_of_a_plain_dataset_has_bare_field_columns(api, two_accounts):
    rows = csv_rows_of(api.get(ACCOUNTS, {"response_file_type": "csv", "keep_only_fields": "uuid,accounting_year"}))

    assert [list(row) for row in rows] == [["uuid", "accounting_year"]] * 2


def test_the_csv_agrees_with_the_json(api, two_accounts):
    [element] = elements_of(api.get(COMPOSITE, {"accounting_year": "2022"}))
    [row] = csv_rows_of(api.get(COMPOSITE, {"accounting_year": "2022", "response_file_type": "csv"}))

    for entity, fields in element.items():
        for field, value in fields.items():
            cell = row[f"{entity}.{field}"]
            expected = "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
            assert cell == expected, f"{entity}.{field}"


def test_a_plain_dataset_is_written_flat(api, two_accounts):
    elements = elements_of(api.get(ACCOUNTS))

    assert {element["accounting_year"] for element in elements} == {2021, 2022}
    assert "accounts" not in elements[0]


def test_an_unknown_file_type_is_a_400(api):
    body = error_of(api.get(COMPOSITE, {"response_file_type": "xlsx"}), 400)

    assert body["errors"][0]["loc"] == ["query", "response_file_type"]
    assert "json, jsonl, csv" in body["detail"]


# --- keep_only_fields / ignore_fields -------------------------------------------------------------


def test_keep_only_whole_entities(api, two_accounts):
    elements = elements_of(api.get(COMPOSITE, {"keep_only_fields": "accounts,company"}))

    assert all(set(element) == {"accounts", "company"} for element in elements)
    assert "accounting_year" in elements[0]["accounts"]


def test_keep_only_single_fields_keeping_the_dataset_order(api, two_accounts):
    elements = elements_of(
        api.get(
            COMPOSITE,
            {"keep_only_fields": "accounts_highlights.return_on_assets,accounts.accounting_year,accounts.uuid"},
        )
    )

    with_highlights = next(element for element in elements if element["accounts_highlights"])
    assert list(with_highlights) == ["accounts", "accounts_highlights"]
    assert list(with_highlights["accounts"]) == ["uuid", "accounting_year"]
    assert list(with_highlights["accounts_highlights"]) == ["return_on_assets"]
    without = next(element for element in elements if element["accounts_highlights"] is None)
    assert without["accounts_highlights"] is None  # absence is still told apart from an empty object


def test_keep_only_bare_names_are_fields_of_the_root_entity(api, two_accounts):
    elements = elements_of(api.get(COMPOSITE, {"keep_only_fields": "uuid, accounting_year"}))

    assert len(elements) == 2
    for element in elements:
        assert list(element) == ["accounts"]
        assert list(element["accounts"]) == ["uuid", "accounting_year"]


def test_ignore_entities_and_fields(api, two_accounts):
    elements = elements_of(
        api.get(
            COMPOSITE,
            {"ignore_fields": "accounts_balance_sheet,accounts_income_statement,company.app_url,update_timestamp"},
        )
    )

    element = elements[0]
    assert set(element) == {"accounts", "accounts_highlights", "company", "accounts_type"}
    assert "app_url" not in element["company"]
    assert "update_timestamp" not in element["accounts"]


def test_ignore_applies_after_keep_only(api, two_accounts):
    elements = elements_of(
        api.get(COMPOSITE, {"keep_only_fields": "accounts,company.name", "ignore_fields": "accounts.app_url"})
    )

    assert set(elements[0]) == {"accounts", "company"}
    assert list(elements[0]["company"]) == ["name"]
    assert "app_url" not in elements[0]["accounts"]


def test_field_selection_shapes_the_csv_too(api, two_accounts):
    rows = csv_rows_of(
        api.get(COMPOSITE, {"response_file_type": "csv", "keep_only_fields": "accounts.accounting_year,company.name"})
    )

    assert list(rows[0]) == ["accounts.accounting_year", "company.name"]


def test_filters_work_on_fields_that_are_not_written(api, two_accounts):
    elements = elements_of(
        api.get(
            COMPOSITE, {"keep_only_fields": "accounts.uuid", "accounts_highlights.return_on_assets": "ISNULL:false"}
        )
    )

    assert elements == [{"accounts": {"uuid": str(two_accounts[0].uuid)}}]


@pytest.mark.parametrize(
    ("parameter", "value", "code"),
    [
        ("keep_only_fields", "accounts.nope", "unknown_field"),
        ("keep_only_fields", "nope.uuid", "unknown_entity"),
        ("ignore_fields", "nope", "unknown_field"),
        ("keep_only_fields", " , ", "invalid_parameter"),
        (
            "ignore_fields",
            "accounts,accounts_highlights,accounts_income_statement,accounts_balance_sheet,company,accounts_type",
            "invalid_parameter",
        ),
    ],
)
def test_bad_field_lists_are_a_400_naming_the_parameter(api, parameter, value, code):
    body = error_of(api.get(COMPOSITE, {parameter: value}), 400)

    assert body["code"] == code
    assert body["errors"][0]["loc"] == ["query", parameter]


def test_a_large_page_is_sent_in_several_buffers_not_one_body(api):
    company = a_company()
    start = timezone.make_aware(dt.datetime(2000, 1, 1))
    m.CompanyEmployment.objects.bulk_create(
        m.CompanyEmployment(company=company, employee_count=n, from_date=start + dt.timedelta(days=n))
        for n in range(3000)
    )

    response = api.get(f"{DATASETS}/company-employment", {"limit": 3000})
    buffers = list(response.streaming_content)

    assert len(buffers) > 3
    assert max(len(buffer) for buffer in buffers) < 2 * BUFFER_BYTES
    assert len(json.loads(b"".join(buffers))) == 3000
