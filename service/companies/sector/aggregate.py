"""The sector-measure-yearly-aggregate-composite (spec §2.3, §4.3) for a resolved query.

One database pass fetches every filtered company's value (`columns`), the pure
`statistics` module turns the arrays into the numbers, and one small query
fetches the records of the top and bottom companies.
"""

from __future__ import annotations

import uuid
from functools import reduce
from operator import or_

import numpy as np
from django.db.models import Q, QuerySet

from service.companies import models as m
from service.companies.analysis.schemas import measure_type_out
from service.companies.references import company_app_url, company_ref
from service.companies.sector import statistics as stats
from service.companies.sector.columns import MeasureColumns, measure_columns_fetch
from service.companies.sector.parameters import SectorQuery


def sector_companies(*, query: SectorQuery) -> QuerySet:
    """The filtered set: primary NACE code at or below a given code, organisation type, business address."""
    if not query.nace_codes:
        return m.Company.objects.none()
    nace_match = reduce(or_, (Q(path=code.path) | Q(path__startswith=f"{code.path}.") for code in query.nace_codes))
    # Resolved to uuid lists first, so the big query filters one table without joins.
    nace_uuids = list(m.NaceCode.objects.filter(nace_match).values_list("uuid", flat=True))
    companies = m.Company.objects.filter(
        nace_code_1__in=nace_uuids, organization_type__in=[t.uuid for t in query.organization_types]
    )
    if query.geo_countries is not None:
        companies = companies.filter(business_country__in=[c.uuid for c in query.geo_countries])
    if query.geo_subdivisions is not None:
        municipalities = m.GeoMunicipality.objects.filter(subdivision__in=[s.uuid for s in query.geo_subdivisions])
        companies = companies.filter(business_municipality__in=list(municipalities.values_list("uuid", flat=True)))
    if query.geo_municipalities is not None:
        companies = companies.filter(business_municipality__in=[g.uuid for g in query.geo_municipalities])
    if query.geo_postal_codes is not None:
        companies = companies.filter(business_postal_code__in=[g.uuid for g in query.geo_postal_codes])
    return companies


def sector_aggregate(*, query: SectorQuery) -> dict:
    """The composite: aggregate, buckets, measure type and the filters applied."""
    columns = measure_columns_fetch(
        companies=sector_companies(query=query),
        measure_type_uuid=query.measure_type.uuid,
        measure_year=query.measure_year,
    )
    present = ~np.isnan(columns.values)
    values = columns.values[present]
    summary = stats.summarize(values=values, null_count=int(columns.values.size - values.size))

    layout, percentile_values = None, [None, None]
    if values.size:
        percentile_values = stats.percentiles(values=values, fractions=[query.lower_percentile, query.upper_percentile])
        layout = stats.bucket_layout(
            lower_value=percentile_values[0],
            upper_value=percentile_values[1],
            round_digits=query.round_digits,
            max_number_of_buckets=query.max_number_of_buckets,
        )
    ranked = _ranked_records(query=query, columns=columns, present=present)
    return {
        "sector_measure_yearly_aggregate": _aggregate_out(
            query=query, summary=summary, layout=layout, percentile_values=percentile_values, ranked=ranked
        ),
        "company_measure_yearly_buckets": _buckets_out(summary=summary, layout=layout, values=values),
        "company_measure_type": measure_type_out(query.measure_type),
        "company_measure_yearly_filters": _filters_out(query=query, layout=layout),
    }


# --- top and bottom --------------------------------------------------------------------------------


def _ranked_records(*, query: SectorQuery, columns: MeasureColumns, present: np.ndarray) -> dict[str, list]:
    """The top and bottom records; equal values are ordered by company uuid, ascending."""
    rows = np.flatnonzero(present)
    values, keys = columns.values[rows], columns.company_keys[rows]
    lengths = {
        "highest": query.number_of_highest_measures_to_include,
        "lowest": query.number_of_lowest_measures_to_include,
    }
    company_uuids = {
        name: [
            columns.company_uuid(int(rows[i]))
            for i in stats.ranked_indices(values=values, tie_keys=keys, count=count, highest=name == "highest")
        ]
        for name, count in lengths.items()
    }
    wanted = {u for uuids in company_uuids.values() for u in uuids}
    records = {
        record.company_id: record
        for record in m.CompanyMeasureYearly.objects.select_related("company").filter(
            company_id__in=wanted, company_measure_type=query.measure_type, measure_year=query.measure_year
        )
    }
    # A record deleted since the pass is left out rather than failing the request.
    return {name: [_ranked_out(records[u]) for u in uuids if u in records] for name, uuids in company_uuids.items()}


def _ranked_out(record: m.CompanyMeasureYearly) -> dict:
    return {
        "company_measure_yearly": {
            "uuid": record.uuid,
            "company_uuid": record.company_id,
            "company_measure_type_uuid": record.company_measure_type_id,
            "measure_year": record.measure_year,
            "measure_value": float(record.measure_value),
            "app_url": f"{company_app_url(record.company_id)}#measures-{record.measure_year}",
        },
        "company": company_ref(record.company),
    }


# --- the parts of the composite ----------------------------------------------------------------------


def _aggregate_out(
    *, query: SectorQuery, summary: stats.Summary, layout, percentile_values: list, ranked: dict
) -> dict:
    def rounded(value: float | None) -> float | None:
        return stats.round_value(value, round_digits=query.round_digits)

    return {
        "lower_percentile": float(layout.start) if layout else None,
        "upper_percentile": float(layout.end) if layout else None,
        "lower_percentile_value": rounded(percentile_values[0]),
        "upper_percentile_value": rounded(percentile_values[1]),
        "total_count": summary.total_count,
        "not_null_count": summary.not_null_count,
        "null_count": summary.null_count,
        "average_value": rounded(summary.average_value),
        "median_value": rounded(summary.median_value),
        "average_zero_imputed": rounded(summary.average_zero_imputed),
        "median_zero_imputed": rounded(summary.median_zero_imputed),
        "min_value": rounded(summary.min_value),
        "max_value": rounded(summary.max_value),
        "standard_deviation": rounded(summary.standard_deviation),
        "standard_deviation_zero_imputed": rounded(summary.standard_deviation_zero_imputed),
        "highest_company_measure_yearly_composites": ranked["highest"],
        "lowest_company_measure_yearly_composites": ranked["lowest"],
    }


def _bucket(*, bucket_id: int, name: str, lower, upper, count: int, summary: stats.Summary) -> dict:
    total, not_null = summary.total_count, summary.not_null_count
    return {
        "bucket_id": bucket_id,
        "bucket_name": name,
        "bucket_lower_bound": None if lower is None else float(lower),
        "bucket_upper_bound": None if upper is None else float(upper),
        "company_count": count,
        "company_percentage_of_total": 100.0 * count / total if total else None,
        "company_percentage_of_not_null": 100.0 * count / not_null if not_null else None,
    }


def _buckets_out(*, summary: stats.Summary, layout, values: np.ndarray) -> list[dict]:
    """null (-1), underflow (0), numbered 1..n, overflow (n + 1); without values no numbered buckets."""
    if layout is None:
        underflow, numbered, overflow, edges = 0, [], 0, [None]
    else:
        edges = layout.edges
        underflow, numbered, overflow = stats.bucket_counts(sorted_values=np.sort(values), edges=edges)
    null = _bucket(bucket_id=-1, name="null", lower=None, upper=None, count=summary.null_count, summary=summary)
    null["company_percentage_of_not_null"] = None
    return [
        null,
        _bucket(bucket_id=0, name="underflow", lower=None, upper=edges[0], count=underflow, summary=summary),
        *(
            _bucket(bucket_id=i, name=str(i), lower=edges[i - 1], upper=edges[i], count=count, summary=summary)
            for i, count in enumerate(numbered, start=1)
        ),
        _bucket(
            bucket_id=len(numbered) + 1, name="overflow", lower=edges[-1], upper=None, count=overflow, summary=summary
        ),
    ]


def _uuids(rows: list | None) -> list[uuid.UUID] | None:
    return None if rows is None else [row.uuid for row in rows]


def _filters_out(*, query: SectorQuery, layout) -> dict:
    countries = _uuids(query.geo_countries)
    return {
        "measure_year": query.measure_year,
        "nace_code_uuids": _uuids(query.nace_codes),
        "company_measure_type_uuid": query.measure_type.uuid,
        "organization_type_uuids": _uuids(query.organization_types),
        "geo_country_uuid": countries[0] if countries and len(countries) == 1 else None,
        "geo_country_uuids": countries,
        "geo_subdivision_uuids": _uuids(query.geo_subdivisions),
        "geo_municipality_uuids": _uuids(query.geo_municipalities),
        "geo_postal_code_uuids": _uuids(query.geo_postal_codes),
        "lower_percentile": query.lower_percentile,
        "upper_percentile": query.upper_percentile,
        "round_digits": query.round_digits,
        "number_of_highest_measures_to_include": query.number_of_highest_measures_to_include,
        "number_of_lowest_measures_to_include": query.number_of_lowest_measures_to_include,
        "number_of_buckets": layout.count if layout else None,
        "max_number_of_buckets": query.max_number_of_buckets,
        "benchmark_company_uuid": query.benchmark_company.uuid if query.benchmark_company else None,
    }
