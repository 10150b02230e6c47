"""Benchmark rules 1-4 of spec §4.3: filters derived from a benchmark company, explicit ones winning,
and the simplified answer when both percentiles give the same boundary."""

from __future__ import annotations

import pytest

from service.companies import models as m

from .builders import URL, a_world, companies_with_values, params
from .reference import assert_matches, expected_aggregate

pytestmark = pytest.mark.django_db

VALID_ORG_NR = "913748174"  # mod-11 valid


@pytest.fixture
def world(db):
    return a_world()


@pytest.fixture
def peers(world):
    """The benchmark company (62.010, Oslo 0150) among peers elsewhere in the tree and the country."""
    benchmark = companies_with_values(world, [5], nace="62.010", postal_code="0150", org_nrs=[VALID_ORG_NR])[0]
    companies_with_values(world, [10], nace="62.010", postal_code="0151")  # same municipality, other postal code
    companies_with_values(world, [100], nace="62.010", postal_code="5003")  # other county
    companies_with_values(world, [1000], nace="62.020", postal_code="0150")  # sibling class
    companies_with_values(world, [10000], nace="63.110", postal_code="0150")  # other division
    return benchmark


def _body(api, **query) -> dict:
    response = api.get(URL, params(**{"nace_code_identifiers": None, **query}))
    assert response.status_code == 200, response.content
    return response.json()[0]


def _peer_values(body) -> list[float]:
    """The values in the peer group, read back through the bottom list."""
    return [
        item["company_measure_yearly"]["measure_value"]
        for item in body["sector_measure_yearly_aggregate"]["lowest_company_measure_yearly_composites"]
    ]


def _query(benchmark, **query) -> dict:
    return {"benchmark_company_identifier": str(benchmark.uuid), "number_of_lowest_measures_to_include": 10, **query}


def test_it_derives_county_and_subclass_from_the_benchmark_company_by_default(api, world, peers):
    body = _body(api, **_query(peers))

    assert _peer_values(body) == [5, 10]
    filters = body["company_measure_yearly_filters"]
    assert filters["geo_subdivision_uuids"] == [str(world.subdivisions["03"].uuid)]
    assert filters["geo_municipality_uuids"] is None and filters["geo_postal_code_uuids"] is None
    assert filters["nace_code_uuids"] == [str(world.nace["62.010"].uuid)]
    assert filters["benchmark_company_uuid"] == str(peers.uuid)


def test_it_finds_the_benchmark_company_by_organisation_number(api, peers):
    assert _peer_values(_body(api, **_query(peers, benchmark_company_identifier=f"NO{VALID_ORG_NR}"))) == [5, 10]


@pytest.mark.parametrize(
    ("level_key", "expected"),
    [("geo_subdivision", [5, 10]), ("geo_municipality", [5, 10]), ("geo_postal_code", [5])],
)
def test_it_derives_geo_at_the_requested_level(api, world, peers, level_key, expected):
    body = _body(api, **_query(peers, benchmark_geo_level_entity_key=level_key))

    assert _peer_values(body) == expected
    derived = {
        "geo_subdivision": world.subdivisions["03"],
        "geo_municipality": world.municipalities["0301"],
        "geo_postal_code": world.postal_codes["0150"],
    }[level_key]
    assert body["company_measure_yearly_filters"][f"{level_key}_uuids"] == [str(derived.uuid)]


@pytest.mark.parametrize(
    ("level", "code", "expected"),
    [(5, "62.010", [5, 10]), (4, "62.01", [5, 10]), (3, "62.0", [5, 10, 1000]), (1, "J", [5, 10, 1000, 10000])],
)
def test_it_derives_the_nace_code_at_the_requested_level(api, world, peers, level, code, expected):
    body = _body(api, **_query(peers, benchmark_nace_code_hierarchy_level=level))

    assert _peer_values(body) == expected
    assert body["company_measure_yearly_filters"]["nace_code_uuids"] == [str(world.nace[code].uuid)]


def test_it_uses_a_coarser_primary_code_as_it_is(api, world, peers):
    peers.nace_code_1 = world.nace["62.0"]
    peers.save()

    body = _body(api, **_query(peers, benchmark_nace_code_hierarchy_level=5))

    assert body["company_measure_yearly_filters"]["nace_code_uuids"] == [str(world.nace["62.0"].uuid)]
    assert _peer_values(body) == [5, 10, 1000]


def test_it_lets_explicit_parameters_win_over_derived_ones(api, world, peers):
    body = _body(api, **_query(peers, nace_code_identifiers="NO-J", geo_country_identifiers="NO"))

    assert _peer_values(body) == [5, 10, 100, 1000, 10000]
    filters = body["company_measure_yearly_filters"]
    assert filters["nace_code_uuids"] == [str(world.nace["J"].uuid)]
    assert filters["geo_subdivision_uuids"] is None  # a geo level was given, so none is derived


def test_it_derives_no_geo_when_any_geo_level_is_given(api, peers):
    body = _body(api, **_query(peers, geo_postal_code_identifiers="NO-5003"))

    assert _peer_values(body) == [100]


@pytest.mark.parametrize(
    ("round_digits", "value", "bucket"),
    [(0, "5", (5.0, 6.0)), (2, "0.123456", (0.12, 0.13)), (-2, "1234.5", (1200.0, 1300.0))],
)
def test_it_answers_identical_values_with_one_bucket_of_the_rounding_unit(api, world, round_digits, value, bucket):
    """Rule 4: equal percentiles are no error; the statistics stay exact."""
    values = [value] * 6 + [None]
    companies = companies_with_values(world, values)

    body = api.get(URL, params(round_digits=round_digits)).json()[0]

    buckets = body["company_measure_yearly_buckets"]
    assert [b["bucket_name"] for b in buckets] == ["null", "underflow", "1", "overflow"]
    assert [b["company_count"] for b in buckets] == [1, 0, 6, 0]
    assert (buckets[2]["bucket_lower_bound"], buckets[2]["bucket_upper_bound"]) == bucket
    aggregate = body["sector_measure_yearly_aggregate"]
    assert (aggregate["lower_percentile"], aggregate["upper_percentile"]) == bucket
    assert aggregate["standard_deviation"] == 0
    measures = {company.uuid: v for company, v in zip(companies, values, strict=True)}
    assert_matches(body, expected_aggregate(measures=measures, round_digits=round_digits), round_digits=round_digits)


def test_it_answers_equal_percentile_fractions_with_one_bucket(api, world):
    companies_with_values(world, [1, 2, 3, 4])

    body = api.get(URL, params(lower_percentile="0.5", upper_percentile="0.5")).json()[0]

    # The median 2.5 at unit 1: one bucket [2, 3]; 1 below, 4 above.
    assert [b["company_count"] for b in body["company_measure_yearly_buckets"]] == [0, 1, 2, 1]
    assert body["sector_measure_yearly_aggregate"]["lower_percentile"] == 2.0


@pytest.mark.parametrize(
    ("level_key", "cleared"),
    [
        ("geo_subdivision", "business_municipality"),
        ("geo_municipality", "business_municipality"),
        ("geo_postal_code", "business_postal_code"),
    ],
)
def test_it_refuses_a_benchmark_company_without_the_address_to_derive_from(api, peers, level_key, cleared):
    setattr(peers, cleared, None)
    peers.save()
    query = _query(peers, benchmark_geo_level_entity_key=level_key)

    response = api.get(URL, params(nace_code_identifiers=None, **query))

    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["query", "benchmark_company_identifier"]
    assert level_key in response.json()["errors"][0]["msg"]


def test_it_needs_no_address_when_geo_is_given(api, peers):
    peers.business_municipality = None
    peers.business_postal_code = None
    peers.save()

    body = _body(api, **_query(peers, geo_country_identifiers="NO"))

    assert _peer_values(body) == [5, 10, 100]


def test_it_refuses_a_benchmark_company_without_a_nace_code_to_derive_from(api, peers):
    m.Company.objects.filter(uuid=peers.uuid).update(nace_code_1=None)

    response = api.get(URL, params(nace_code_identifiers=None, **_query(peers)))

    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["query", "benchmark_company_identifier"]


@pytest.mark.parametrize(
    "identifier",
    ["NO913748175", "NO999999999x", "not-a-company", "0b3b7a6e-3d1c-4a8e-9f43-6a3e2f8c9d10", "NO910000009"],
)
def test_it_refuses_an_unknown_or_malformed_benchmark_company_with_400(api, peers, identifier):
    response = api.get(URL, params(nace_code_identifiers=None, benchmark_company_identifier=identifier))

    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"detail", "code", "errors", "request_id"}
    assert [e["loc"] for e in body["errors"]] == [["query", "benchmark_company_identifier"]]
