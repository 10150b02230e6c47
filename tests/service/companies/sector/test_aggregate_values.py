"""Every number of the sector aggregate against numpy on the raw measures (spec §2.3, §4.3)."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .builders import MISSING, URL, a_world, companies_with_values, params
from .reference import assert_matches, expected_aggregate

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    return a_world()


def _composite(api, **query) -> dict:
    response = api.get(URL, params(**query))
    assert response.status_code == 200, response.content
    body = response.json()
    assert isinstance(body, list) and len(body) == 1
    return body[0]


def _measures(companies, values) -> dict[uuid.UUID, object]:
    return {company.uuid: value for company, value in zip(companies, values, strict=True)}


def test_it_computes_every_field_of_a_small_sector(api, world):
    values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, None, MISSING]
    companies = companies_with_values(world, values)

    body = _composite(api)

    aggregate = body["sector_measure_yearly_aggregate"]
    # p10 = 1.9 and p90 = 9.1 (linear); width 1 from 1 gives 9 buckets, the last one [9, 10].
    assert aggregate["lower_percentile"] == 1.0
    assert aggregate["upper_percentile"] == 10.0
    assert aggregate["lower_percentile_value"] == 2.0
    assert aggregate["upper_percentile_value"] == 9.0
    assert (aggregate["total_count"], aggregate["not_null_count"], aggregate["null_count"]) == (12, 10, 2)
    # 5.5 rounds half away from zero; zero-imputed: 55 / 12 = 4.58, median of 0, 0, 1..10 = 4.5.
    assert aggregate["average_value"] == 6.0
    assert aggregate["median_value"] == 6.0
    assert aggregate["min_value"] == 1.0
    assert aggregate["max_value"] == 10.0
    assert aggregate["standard_deviation"] == 3.0  # sqrt(8.25) = 2.87, population
    assert aggregate["average_zero_imputed"] == 5.0
    assert aggregate["median_zero_imputed"] == 5.0
    assert aggregate["standard_deviation_zero_imputed"] == 3.0  # sqrt(11.08) = 3.33
    buckets = body["company_measure_yearly_buckets"]
    assert [(b["bucket_id"], b["bucket_name"]) for b in buckets] == [
        (-1, "null"), (0, "underflow"), *((i, str(i)) for i in range(1, 10)), (10, "overflow")
    ]  # fmt: skip
    assert [b["company_count"] for b in buckets] == [2, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0]
    assert buckets[0] == {
        "bucket_id": -1,
        "bucket_name": "null",
        "bucket_lower_bound": None,
        "bucket_upper_bound": None,
        "company_count": 2,
        "company_percentage_of_total": pytest.approx(100 * 2 / 12),
        "company_percentage_of_not_null": None,
    }
    assert buckets[1]["bucket_lower_bound"] is None and buckets[1]["bucket_upper_bound"] == 1.0
    assert (buckets[10]["bucket_lower_bound"], buckets[10]["bucket_upper_bound"]) == (9.0, 10.0)
    assert buckets[10]["company_percentage_of_not_null"] == 20.0
    assert buckets[11]["bucket_lower_bound"] == 10.0 and buckets[11]["bucket_upper_bound"] is None
    top = aggregate["highest_company_measure_yearly_composites"]
    assert [item["company_measure_yearly"]["measure_value"] for item in top] == [10.0, 9.0, 8.0]
    assert top[0]["company"] == {
        "uuid": str(companies[9].uuid),
        "name": companies[9].name,
        "org_nr": companies[9].org_nr,
        "org_nr_schema": "NO",
        "app_url": f"/companies/{companies[9].uuid}/",
    }
    record = top[0]["company_measure_yearly"]
    assert record["company_uuid"] == str(companies[9].uuid)
    assert record["company_measure_type_uuid"] == str(world.measure_type.uuid)
    assert record["measure_year"] == 2023
    bottom = aggregate["lowest_company_measure_yearly_composites"]
    assert [item["company_measure_yearly"]["measure_value"] for item in bottom] == [1.0, 2.0, 3.0]
    assert body["company_measure_type"]["company_measure_type_key"] == "return_on_assets"
    assert_matches(body, expected_aggregate(measures=_measures(companies, values)), round_digits=0)


@pytest.mark.parametrize("round_digits", [2, 1, 0, -1, -3])
def test_it_rounds_statistics_and_bucket_edges_at_round_digits(api, world, round_digits):
    values = ["1234.5678", "5678.125", "9012.5", "15000", "22222.2222", "-310.75", None]
    companies = companies_with_values(world, values)

    body = _composite(api, round_digits=round_digits)

    expected = expected_aggregate(measures=_measures(companies, values), round_digits=round_digits)
    assert_matches(body, expected, round_digits=round_digits)
    unit = Decimal(1).scaleb(-round_digits)
    for bucket in body["company_measure_yearly_buckets"]:
        for bound in (bucket["bucket_lower_bound"], bucket["bucket_upper_bound"]):
            assert bound is None or Decimal(repr(bound)) % unit == 0


def test_it_rounds_to_thousands_with_negative_round_digits(api, world):
    companies_with_values(world, [1234, 5678, 9012, 15000, 22222])

    aggregate = _composite(api, round_digits=-3)["sector_measure_yearly_aggregate"]

    # p10 = 3011.6, p90 = 19333.2: width 1000 needs 17 buckets, width 2000 needs 9, from 2000 to 20000.
    assert (aggregate["lower_percentile"], aggregate["upper_percentile"]) == (2000.0, 20000.0)
    assert aggregate["average_value"] == 11000.0  # 10629.2
    assert aggregate["median_value"] == 9000.0
    assert (aggregate["min_value"], aggregate["max_value"]) == (1000.0, 22000.0)


def test_it_puts_a_value_on_an_inner_edge_in_the_upper_bucket_and_the_last_edge_in_the_last(api, world):
    companies_with_values(world, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])

    body = _composite(api, lower_percentile=0, upper_percentile=1, max_number_of_buckets=5)

    # Width 2 from 0: [0, 2) [2, 4) [4, 6) [6, 8) [8, 10].
    counts = {b["bucket_name"]: b["company_count"] for b in body["company_measure_yearly_buckets"]}
    assert counts == {"null": 0, "underflow": 0, "1": 2, "2": 2, "3": 2, "4": 2, "5": 3, "overflow": 0}


def test_it_chooses_the_smallest_nice_width_within_the_bucket_limit(api, world):
    companies_with_values(world, ["0.03", "0.41", "0.77", "0.98"])

    body = _composite(api, lower_percentile=0, upper_percentile=1, round_digits=2, max_number_of_buckets=4)

    # 0.1 needs 10 buckets, 0.2 needs 5, 0.25 covers [0, 1] in 4.
    bounds = [(b["bucket_lower_bound"], b["bucket_upper_bound"]) for b in body["company_measure_yearly_buckets"][2:-1]]
    assert bounds == [(0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.0)]


@pytest.mark.parametrize("values", [[], [None, MISSING]], ids=["no companies", "no values"])
def test_it_answers_a_sector_without_values(api, world, values):
    companies = companies_with_values(world, values)

    body = _composite(api)

    aggregate = body["sector_measure_yearly_aggregate"]
    assert aggregate["lower_percentile"] is None and aggregate["upper_percentile"] is None
    assert aggregate["total_count"] == len(values)
    assert aggregate["average_value"] is None and aggregate["standard_deviation"] is None
    assert aggregate["highest_company_measure_yearly_composites"] == []
    assert [b["bucket_name"] for b in body["company_measure_yearly_buckets"]] == ["null", "underflow", "overflow"]
    assert body["company_measure_yearly_filters"]["number_of_buckets"] is None
    assert_matches(body, expected_aggregate(measures=_measures(companies, values)), round_digits=0)


def test_it_breaks_ties_by_company_uuid(api, world):
    values = [5, 5, 5, 5, 1, 1, 1]
    companies = companies_with_values(world, values)

    aggregate = _composite(api, number_of_highest_measures_to_include=2, number_of_lowest_measures_to_include=5)[
        "sector_measure_yearly_aggregate"
    ]

    fives = sorted(c.uuid for c, v in zip(companies, values) if v == 5)
    ones = sorted(c.uuid for c, v in zip(companies, values) if v == 1)
    highest = [item["company"]["uuid"] for item in aggregate["highest_company_measure_yearly_composites"]]
    lowest = [item["company"]["uuid"] for item in aggregate["lowest_company_measure_yearly_composites"]]
    assert highest == [str(u) for u in fives[:2]]
    assert lowest == [str(u) for u in ones + fives[:2]]


# --- property-based: random data sets against the oracle ------------------------------------------------

value = st.one_of(
    st.just(MISSING),
    st.none(),
    st.integers(min_value=-20, max_value=20),  # ties, zeros and negatives
    st.decimals(min_value=-(10**6), max_value=10**6, places=6, allow_nan=False, allow_infinity=False),
)
fraction = st.one_of(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.9, 1.0]), st.floats(min_value=0, max_value=1))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    values=st.one_of(st.lists(value, max_size=3), st.lists(value, max_size=25)),
    fractions=st.tuples(fraction, fraction).map(sorted),
    round_digits=st.integers(min_value=-3, max_value=4),
    max_number_of_buckets=st.integers(min_value=1, max_value=12),
    number_of_highest=st.integers(min_value=0, max_value=4),
    number_of_lowest=st.integers(min_value=0, max_value=4),
)
def test_it_matches_numpy_on_random_sets(
    api, world, values, fractions, round_digits, max_number_of_buckets, number_of_highest, number_of_lowest
):
    with transaction.atomic():  # each example's rows are rolled back
        companies = companies_with_values(world, values)
        companies_with_values(world, [10**6], nace="01.110")  # another sector
        companies_with_values(world, [-(10**6)], organization_type="ENK")  # another organisation type

        body = _composite(
            api,
            lower_percentile=repr(fractions[0]),
            upper_percentile=repr(fractions[1]),
            round_digits=round_digits,
            max_number_of_buckets=max_number_of_buckets,
            number_of_highest_measures_to_include=number_of_highest,
            number_of_lowest_measures_to_include=number_of_lowest,
        )

        expected = expected_aggregate(
            measures=_measures(companies, values),
            lower_percentile=fractions[0],
            upper_percentile=fractions[1],
            round_digits=round_digits,
            max_number_of_buckets=max_number_of_buckets,
            number_of_highest=number_of_highest,
            number_of_lowest=number_of_lowest,
        )
        assert_matches(body, expected, round_digits=round_digits)
        transaction.set_rollback(True)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    values=st.lists(st.one_of(st.integers(min_value=-12, max_value=12), st.just(MISSING)), min_size=1, max_size=15),
    fractions=st.tuples(st.sampled_from([0.0, 0.5, 1.0]), st.sampled_from([0.0, 0.5, 1.0])).map(sorted),
    round_digits=st.integers(min_value=-1, max_value=1),
    max_number_of_buckets=st.integers(min_value=1, max_value=30),
)
def test_it_matches_numpy_on_values_sitting_on_bucket_edges(
    api, world, values, fractions, round_digits, max_number_of_buckets
):
    """Small integers and extreme percentiles put values exactly on edges, where the bound rules show."""
    with transaction.atomic():
        companies = companies_with_values(world, values)

        body = _composite(
            api,
            lower_percentile=fractions[0],
            upper_percentile=fractions[1],
            round_digits=round_digits,
            max_number_of_buckets=max_number_of_buckets,
        )

        expected = expected_aggregate(
            measures=_measures(companies, values),
            lower_percentile=fractions[0],
            upper_percentile=fractions[1],
            round_digits=round_digits,
            max_number_of_buckets=max_number_of_buckets,
        )
        assert_matches(body, expected, round_digits=round_digits)
        transaction.set_rollback(True)
