"""Sector benchmarking (spec §4.3): GET /v1/sector-measure-yearly-aggregate-composite.

Thin: parse the query, resolve it, compute, return. The definitions live in
`service.companies.sector` and docs/sector-benchmarking.md.
"""

from __future__ import annotations

from typing import Literal

from django.http import HttpRequest
from ninja import Query, Router

from service.companies.sector.aggregate import sector_aggregate
from service.companies.sector.parameters import LIMITS, SectorParameters, sector_query_resolve
from service.companies.sector.schemas import SectorMeasureYearlyAggregateComposite

router = Router(tags=["Sector benchmarking"])

AGGREGATE_DESCRIPTION = """\
Where companies stand among their peers on one yearly measure: statistics, percentile
buckets, and the top and bottom companies. Returns a one-element array.

**Filtered set.** Companies whose *primary* NACE code (`nace_code_1`) is one of
`nace_code_identifiers` or below it in the NACE tree (a code matches its descendants),
whose organisation type is one of `organization_type_identifiers` (default: NO-AS and
NO-ASA), and whose business address lies in the given geo areas (every level given must
match; within a level any identifier may). `total_count` counts them all; a company
without a value for the year counts as null.

**Benchmark company.** With `benchmark_company_identifier` and no geo identifiers of any
level, the area is the company's business address at `benchmark_geo_level_entity_key`;
without `nace_code_identifiers` the sector is the ancestor of the company's primary NACE
code at `benchmark_nace_code_hierarchy_level` (the code itself when it is coarser).
Explicit parameters always win.

**Definitions.**
- Values are compared and averaged as doubles. Percentiles use linear interpolation
  between the closest ranks (numpy `linear` = PostgreSQL `percentile_cont`), over non-null
  values. Standard deviations are population ones (ddof 0): the filtered set is the whole
  peer group. Zero-imputed statistics count every company without a value as 0.
- `round_digits` rounds every statistic half away from zero (2: hundredths, 0: whole
  numbers, -3: thousands) and sets the finest bucket width, 10^-round_digits. The records
  in the top and bottom lists keep their stored values.
- Bucket width: the smallest of 1, 2, 2.5 and 5 times a power of ten (a multiple of
  10^-round_digits) for which buckets starting at the lower percentile rounded down to a
  multiple of the width reach the upper percentile in at most `max_number_of_buckets`
  buckets. `lower_percentile` and `upper_percentile` in the aggregate are those bucket
  edges. Each numbered bucket includes its lower bound and excludes its upper bound,
  except the last, which includes both; underflow is strictly below the first edge,
  overflow strictly above the last. (With one bucket allowed and zero strictly inside the
  range, that bucket spans the range rounded outward to 10^-round_digits.)
- When both percentiles give the same value (for example identical data points) the
  response is the same layout with one numbered bucket, of width 10^-round_digits from the
  value rounded down; the statistics are exact as always.
- Without any value: null boundaries, no numbered buckets (null, underflow with id 0 and
  overflow with id 1, both empty), `number_of_buckets` null; percentages whose base is 0 are null.
- Top and bottom lists: by value, equal values ordered by company uuid ascending.

Every invalid parameter is a 400 listing each field; an unknown measure type, NACE code,
organisation type, geo identifier or benchmark company is a 400 too.
"""


def _limits(name: str) -> dict:
    low, high = LIMITS[name]
    return {"ge": low, "le": high}


@router.get(
    "/sector-measure-yearly-aggregate-composite",
    response=list[SectorMeasureYearlyAggregateComposite],
    summary="Sector aggregate of a yearly measure: statistics, percentile buckets, top and bottom companies",
    description=AGGREGATE_DESCRIPTION,
    operation_id="sector_measure_yearly_aggregate_composite",
)
def sector_measure_yearly_aggregate_composite(
    request: HttpRequest,
    measure_year: int = Query(
        ..., description="The year of the measure, generally last year for accounts", **_limits("measure_year")
    ),
    company_measure_type_identifier: str = Query(
        ..., description="Measure type uuid or key, e.g. return_on_assets (see GET /v1/company-measure-type)"
    ),
    nace_code_identifiers: str | None = Query(
        None,
        description="Comma-separated NACE code uuids or country-prefixed keys (NO-62.010, NO-62, NO-J); each "
        "matches its descendants. Required unless benchmark_company_identifier is given",
    ),
    benchmark_company_identifier: str | None = Query(
        None, description="Company uuid or schema-prefixed organisation number (NO913748174) to derive filters from"
    ),
    benchmark_nace_code_hierarchy_level: int = Query(
        5,
        description="With a benchmark company and no nace_code_identifiers: the NACE level (1 section .. 5 "
        "subclass) of the company's primary code to use",
        **_limits("benchmark_nace_code_hierarchy_level"),
    ),
    benchmark_geo_level_entity_key: Literal["geo_subdivision", "geo_municipality", "geo_postal_code"] = Query(
        "geo_subdivision",
        description="With a benchmark company and no geo identifiers: the level of its business address to use",
    ),
    organization_type_identifiers: str | None = Query(
        None, description="Comma-separated organisation type uuids or keys; default NO-AS,NO-ASA"
    ),
    geo_country_identifiers: str | None = Query(None, description="Comma-separated countries: uuids or keys (NO)"),
    geo_subdivision_identifiers: str | None = Query(
        None, description="Comma-separated counties: uuids or keys (NO-03)"
    ),
    geo_municipality_identifiers: str | None = Query(
        None, description="Comma-separated municipalities: uuids or country-prefixed codes (NO-0301)"
    ),
    geo_postal_code_identifiers: str | None = Query(
        None, description="Comma-separated postal codes: uuids or country-prefixed codes (NO-0150)"
    ),
    lower_percentile: float = Query(0.10, ge=0, le=1, description="Fraction (0-1) for the lower bucket boundary"),
    upper_percentile: float = Query(
        0.90, ge=0, le=1, description="Fraction (0-1) for the upper bucket boundary; not below lower_percentile"
    ),
    round_digits: int = Query(
        0,
        description="Decimals to round statistics to (negative: tens, hundreds, ...); also the finest bucket "
        "width, 10^-round_digits",
        **_limits("round_digits"),
    ),
    number_of_highest_measures_to_include: int = Query(
        3, description="Length of the top list", **_limits("number_of_highest_measures_to_include")
    ),
    number_of_lowest_measures_to_include: int = Query(
        3, description="Length of the bottom list", **_limits("number_of_lowest_measures_to_include")
    ),
    max_number_of_buckets: int = Query(
        10, description="Most numbered buckets between the boundaries", **_limits("max_number_of_buckets")
    ),
):
    query = sector_query_resolve(
        parameters=SectorParameters(
            measure_year=measure_year,
            company_measure_type_identifier=company_measure_type_identifier,
            nace_code_identifiers=nace_code_identifiers,
            benchmark_company_identifier=benchmark_company_identifier,
            benchmark_nace_code_hierarchy_level=benchmark_nace_code_hierarchy_level,
            benchmark_geo_level_entity_key=benchmark_geo_level_entity_key,
            organization_type_identifiers=organization_type_identifiers,
            geo_country_identifiers=geo_country_identifiers,
            geo_subdivision_identifiers=geo_subdivision_identifiers,
            geo_municipality_identifiers=geo_municipality_identifiers,
            geo_postal_code_identifiers=geo_postal_code_identifiers,
            lower_percentile=lower_percentile,
            upper_percentile=upper_percentile,
            round_digits=round_digits,
            number_of_highest_measures_to_include=number_of_highest_measures_to_include,
            number_of_lowest_measures_to_include=number_of_lowest_measures_to_include,
            max_number_of_buckets=max_number_of_buckets,
        )
    )
    return [sector_aggregate(query=query)]
