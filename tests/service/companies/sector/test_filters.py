"""Who is in the peer group: NACE codes and their descendants, organisation types, geo levels (spec §4.3)."""

from __future__ import annotations

import pytest

from service.companies import models as m

from .builders import MISSING, URL, YEAR, a_world, companies_with_values, params

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    return a_world()


def _aggregate(api, **query) -> dict:
    response = api.get(URL, params(**query))
    assert response.status_code == 200, response.content
    return response.json()[0]


def _sum_of_values(api, **query) -> tuple[int, float]:
    """(total_count, sum of the values) of the filtered set, read back from the average (round_digits 6)."""
    aggregate = _aggregate(api, round_digits=6, **query)["sector_measure_yearly_aggregate"]
    average = aggregate["average_value"] or 0
    return aggregate["total_count"], round(average * aggregate["not_null_count"], 3)


def test_it_matches_a_nace_code_and_its_descendants(api, world):
    companies_with_values(world, [1], nace="62.010")
    companies_with_values(world, [10], nace="62.020")
    companies_with_values(world, [100], nace="63.110")
    companies_with_values(world, [1000], nace="01.110")

    assert _sum_of_values(api, nace_code_identifiers="NO-62.010") == (1, 1)
    assert _sum_of_values(api, nace_code_identifiers="NO-62") == (2, 11)
    assert _sum_of_values(api, nace_code_identifiers="NO-62.0") == (2, 11)
    assert _sum_of_values(api, nace_code_identifiers="NO-J") == (3, 111)
    assert _sum_of_values(api, nace_code_identifiers="NO-62.020,NO-63,NO-01.11") == (3, 1110)


def test_it_does_not_take_a_code_for_its_prefix_sibling(api, world):
    """J.62.0.1 must not match a code whose path merely starts with the same characters."""
    sibling = m.NaceCode.objects.create(
        key="NO-62.011", code="62.011", level=5, path="J.62.0.11", name="not a child", parent=world.nace["62.01"]
    )
    world.nace["62.011"] = sibling
    companies_with_values(world, [1], nace="62.010")
    companies_with_values(world, [10], nace="62.011")

    assert _sum_of_values(api, nace_code_identifiers="NO-62.01") == (1, 1)


def test_it_uses_the_primary_nace_code_only(api, world):
    companies_with_values(world, [1], nace="62.010")
    other = companies_with_values(world, [10], nace="01.110")[0]
    other.nace_code_2 = world.nace["62.010"]
    other.nace_code_3 = world.nace["62.010"]
    other.save()

    assert _sum_of_values(api, nace_code_identifiers="NO-62.010") == (1, 1)


def test_it_accepts_nace_codes_by_uuid_and_recaps_them(api, world):
    companies_with_values(world, [1], nace="62.010")
    companies_with_values(world, [10], nace="63.110")
    identifiers = f"{world.nace['62'].uuid},NO-63"

    body = _aggregate(api, nace_code_identifiers=identifiers)

    assert body["sector_measure_yearly_aggregate"]["total_count"] == 2
    assert body["company_measure_yearly_filters"]["nace_code_uuids"] == [
        str(world.nace["62"].uuid),
        str(world.nace["63"].uuid),
    ]


def test_it_defaults_to_the_norwegian_limited_company_types(api, world):
    companies_with_values(world, [1], organization_type="AS")
    companies_with_values(world, [10], organization_type="ASA")
    companies_with_values(world, [100], organization_type="ENK")
    companies_with_values(world, [1000], organization_type="NUF")
    companies_with_values(world, [10000], organization_type=None)

    body = _aggregate(api, round_digits=6)

    assert body["sector_measure_yearly_aggregate"]["total_count"] == 2
    assert body["sector_measure_yearly_aggregate"]["max_value"] == 10
    assert body["company_measure_yearly_filters"]["organization_type_uuids"] == [
        str(world.organization_types["AS"].uuid),
        str(world.organization_types["ASA"].uuid),
    ]


def test_it_filters_on_given_organisation_types_by_key_or_uuid(api, world):
    companies_with_values(world, [1], organization_type="AS")
    companies_with_values(world, [100], organization_type="ENK")
    companies_with_values(world, [1000], organization_type="NUF")
    nuf = world.organization_types["NUF"].uuid

    assert _sum_of_values(api, organization_type_identifiers=f"NO-ENK,{nuf}") == (2, 1100)


def test_it_counts_companies_without_a_value_for_the_year_as_null(api, world):
    companies_with_values(world, [1, None, MISSING])
    companies_with_values(world, [50], year=YEAR - 1)  # a value for another year only
    other_measure = m.CompanyMeasureType.objects.get(key="equity_ratio")
    company = companies_with_values(world, [MISSING])[0]
    m.CompanyMeasureYearly.objects.create(
        company=company, company_measure_type=other_measure, measure_year=YEAR, measure_value=7
    )

    aggregate = _aggregate(api)["sector_measure_yearly_aggregate"]

    assert (aggregate["total_count"], aggregate["not_null_count"], aggregate["null_count"]) == (5, 1, 4)


def test_it_accepts_the_measure_type_by_uuid(api, world):
    companies_with_values(world, [3])

    body = _aggregate(api, company_measure_type_identifier=str(world.measure_type.uuid))

    assert body["company_measure_type"]["uuid"] == str(world.measure_type.uuid)
    assert body["company_measure_yearly_filters"]["company_measure_type_uuid"] == str(world.measure_type.uuid)


@pytest.fixture
def spread(world):
    """Companies across two counties, three municipalities, four postal codes and two countries."""
    companies_with_values(world, [1], postal_code="0150")  # Oslo (03)
    companies_with_values(world, [10], postal_code="0151")  # Oslo (03)
    companies_with_values(world, [100], postal_code="5003")  # 4601 (46)
    companies_with_values(world, [1000], postal_code="5004")  # 4602 (46)
    companies_with_values(world, [10000], postal_code=None, country="SE")
    return world


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({}, (5, 11111)),
        ({"geo_country_identifiers": "NO"}, (4, 1111)),
        ({"geo_country_identifiers": "NO,SE"}, (5, 11111)),
        ({"geo_subdivision_identifiers": "NO-46"}, (2, 1100)),
        ({"geo_municipality_identifiers": "NO-0301,NO-4602"}, (3, 1011)),
        ({"geo_postal_code_identifiers": "NO-0151"}, (1, 10)),
        ({"geo_subdivision_identifiers": "NO-03", "geo_postal_code_identifiers": "NO-0151,NO-5003"}, (1, 10)),
        ({"geo_subdivision_identifiers": "NO-03", "geo_municipality_identifiers": "NO-4601"}, (0, 0)),
    ],
)
def test_it_filters_on_the_business_address_at_every_geo_level(api, spread, query, expected):
    assert _sum_of_values(api, **query) == expected


def test_it_accepts_geo_identifiers_by_uuid_and_recaps_them(api, spread):
    municipality = spread.municipalities["4601"].uuid
    body = _aggregate(api, geo_country_identifiers="NO", geo_municipality_identifiers=str(municipality))

    assert body["sector_measure_yearly_aggregate"]["total_count"] == 1
    filters = body["company_measure_yearly_filters"]
    assert filters["geo_country_uuid"] == str(spread.countries["NO"].uuid)
    assert filters["geo_country_uuids"] == [str(spread.countries["NO"].uuid)]
    assert filters["geo_municipality_uuids"] == [str(municipality)]
    assert filters["geo_subdivision_uuids"] is None
    assert filters["geo_postal_code_uuids"] is None


def test_it_recaps_every_filter_and_option(api, world):
    companies_with_values(world, [1, 2, 3])

    filters = _aggregate(
        api,
        lower_percentile="0.25",
        upper_percentile="0.75",
        round_digits=1,
        number_of_highest_measures_to_include=2,
        number_of_lowest_measures_to_include=1,
        max_number_of_buckets=4,
        geo_country_identifiers="NO,SE",
    )["company_measure_yearly_filters"]

    assert filters == {
        "measure_year": YEAR,
        "nace_code_uuids": [str(world.nace["62.010"].uuid)],
        "company_measure_type_uuid": str(world.measure_type.uuid),
        "organization_type_uuids": [str(world.organization_types[t].uuid) for t in ("AS", "ASA")],
        "geo_country_uuid": None,
        "geo_country_uuids": [str(world.countries[c].uuid) for c in ("NO", "SE")],
        "geo_subdivision_uuids": None,
        "geo_municipality_uuids": None,
        "geo_postal_code_uuids": None,
        "lower_percentile": 0.25,
        "upper_percentile": 0.75,
        "round_digits": 1,
        "number_of_highest_measures_to_include": 2,
        "number_of_lowest_measures_to_include": 1,
        "number_of_buckets": 2,  # p25 = 1.5, p75 = 2.5: width 0.5 from 1.5 needs 2
        "max_number_of_buckets": 4,
        "benchmark_company_uuid": None,
    }
