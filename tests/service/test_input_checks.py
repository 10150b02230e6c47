"""Input that used to fail inside the database (500, or HTML halfway through a stream).

A NUL character anywhere in a query, path or JSON body, and an integer outside the
64-bit range, are 400s in the one error shape naming the field, before any query runs
(service/input_checks.py). Run on PostgreSQL too: it refuses NUL in text outright.
"""

from __future__ import annotations

import pytest

from tests.service.companies.factories import company_make

SECTOR = "/analysis/v1/sector-measure-yearly-aggregate-composite"
SECTOR_PARAMS = {"measure_year": 2024, "company_measure_type_identifier": "return_on_assets",
                 "nace_code_identifiers": "NO-62"}
DATASET = "/datasets/v1/dataset/company"


def _refused(response, *fields: str) -> dict:
    assert response.status_code == 400, response.content
    assert response["Content-Type"].startswith("application/json")
    assert not response.streaming
    body = response.json()
    assert set(body) == {"detail", "code", "errors", "request_id"}
    named = [error["loc"][-1] for error in body["errors"]]
    for field in fields:
        assert field in named and field in body["detail"], body
    return body


@pytest.mark.parametrize(
    "field",
    ["company_measure_type_identifier", "nace_code_identifiers", "geo_country_identifiers",
     "organization_type_identifiers"],
)
def test_a_nul_in_a_sector_parameter_is_a_400_naming_it(api, field):
    body = _refused(api.get(SECTOR, {**SECTOR_PARAMS, field: "NO\x00X"}), field)

    assert body["errors"] == [{"loc": ["query", field], "msg": "must not contain a NUL character (\\u0000)"}]


def test_a_nul_in_the_measure_types_is_a_400(api, db):
    company = company_make()
    response = api.get(
        "/analysis/v1/company-measure-yearly-composite",
        {"company_identifier": str(company.uuid), "company_measure_type_identifiers": "equity_ratio,a\x00b"},
    )

    _refused(response, "company_measure_type_identifiers")


@pytest.mark.parametrize("response_file_type", ["json", "csv", "jsonl"])
def test_a_nul_in_a_dataset_filter_is_a_400_not_a_broken_stream(api, db, response_file_type):
    company_make()

    response = api.get(DATASET, {"name": "EQ:a\x00b", "response_file_type": response_file_type})

    _refused(response, "name")


def test_a_nul_in_a_path_parameter_or_a_parameter_name_is_a_400(api, db):
    _refused(api.get("/analysis/v1/company/NO\x00913748174"), "company_identifier")
    _refused(api.get(DATASET, {"na\x00me": "x"}), "na\x00me")


def test_every_bad_field_is_named_at_once(api, db):
    body = _refused(
        api.get(DATASET, {"name": "a\x00", "offset": 2**63}), "name", "offset"
    )

    assert len(body["errors"]) == 2


@pytest.mark.parametrize("offset", [2**63, -(2**63) - 1, 10**30])
def test_a_dataset_offset_beyond_bigint_is_a_400(api, db, offset):
    _refused(api.get(DATASET, {"offset": offset}), "offset")


def test_the_largest_offset_is_an_empty_page(api, db):
    company_make()

    response = api.get(DATASET, {"offset": 2**63 - 1})

    assert response.status_code == 200
    assert b"".join(response.streaming_content).strip() == b"[]"


def test_a_measure_year_beyond_bigint_is_a_400(api, db):
    company = company_make()
    response = api.get(
        "/analysis/v1/company-measure-yearly-composite",
        {"company_identifier": str(company.uuid), "measure_year": 2**64},
    )

    _refused(response, "measure_year")


def test_an_unauthenticated_caller_is_told_to_authenticate_first(client, db):
    assert client.get(DATASET, {"name": "a\x00"}).status_code == 401


def test_a_nul_in_a_json_body_string_is_named_by_its_place(rf):
    # No endpoint takes a body yet; the check every operation gets is exercised on a request directly.
    from service.input_checks import input_errors

    request = rf.post(
        "/analysis/v1/anything", '{"name": "ok", "companies": [{"org_nr": "9\\u00001"}], "k\\u0000": 1}',
        content_type="application/json",
    )
    request.resolver_match = None

    errors = input_errors(request, {})

    assert sorted(error["loc"] for error in errors) == [["body", "companies", 0, "org_nr"], ["body", "k\x00"]]


def test_a_body_nested_far_too_deep_is_left_to_the_body_parser_without_a_recursion_error(rf):
    from service.input_checks import input_errors

    request = rf.post("/analysis/v1/anything", "[" * 100_000 + '"\\u0000"' + "]" * 100_000, content_type="application/json")
    request.resolver_match = None

    assert input_errors(request, {}) == []  # not JSON Python can read: ninja's own parsing refuses it


def test_a_multipart_body_without_a_boundary_is_a_400_not_a_500(api, db):
    # A JSON body the endpoint would accept, sent as multipart without its boundary.
    response = api.client.post(
        f"/analysis/v1/app-customer/{api.app_customer_uuid}/watchlist",
        b'{"watchlist_name": "Kunder"}',
        content_type="multipart/form-data",
        **api.headers(),
    )

    body = _refused(response, "body")
    assert body["detail"] == "The multipart body cannot be read."
    assert api.get(f"/analysis/v1/app-customer/{api.app_customer_uuid}/watchlist").json() == []
