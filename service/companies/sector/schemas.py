"""Output shapes of the sector aggregate (spec §2.3). Names carry `Sector` so they never clash in the OpenAPI.

Fields beyond the spec are marked "Extension" in their description.
"""

from __future__ import annotations

from uuid import UUID

from ninja import Field, Schema

from service.companies.references import CompanyRef

class SectorCompanyMeasureYearly(Schema):
    uuid: UUID
    company_uuid: UUID
    company_measure_type_uuid: UUID
    measure_year: int
    measure_value: float = Field(description="The record's value as stored, not rounded")
    app_url: str | None


class SectorRankedCompanyMeasureYearly(Schema):
    company_measure_yearly: SectorCompanyMeasureYearly
    company: CompanyRef


class SectorMeasureYearlyAggregate(Schema):
    lower_percentile: float | None = Field(
        description="Lower boundary of the numbered buckets: the value at the lower percentile rounded down to a "
        "multiple of the bucket width. Null when no company has a value"
    )
    upper_percentile: float | None = Field(
        description="Upper boundary of the numbered buckets: the first bucket edge at or above the value at the "
        "upper percentile. Null when no company has a value"
    )
    lower_percentile_value: float | None = Field(
        description="Extension: the value at the lower percentile itself (linear interpolation), rounded"
    )
    upper_percentile_value: float | None = Field(
        description="Extension: the value at the upper percentile itself (linear interpolation), rounded"
    )
    total_count: int = Field(description="Companies in the filtered set")
    not_null_count: int = Field(description="Companies with a value for the measure and year")
    null_count: int = Field(description="Companies without a value (no record, or a record without a value)")
    average_value: float | None = Field(description="Mean of the non-null values, rounded")
    median_value: float | None = Field(description="Median of the non-null values, rounded")
    average_zero_imputed: float | None = Field(description="Mean with missing values as zero, rounded")
    median_zero_imputed: float | None = Field(description="Median with missing values as zero, rounded")
    min_value: float | None = Field(description="Smallest value, rounded")
    max_value: float | None = Field(description="Largest value, rounded")
    standard_deviation: float | None = Field(description="Population standard deviation (ddof 0) of the values")
    standard_deviation_zero_imputed: float | None = Field(
        description="Population standard deviation with missing values as zero"
    )
    highest_company_measure_yearly_composites: list[SectorRankedCompanyMeasureYearly] = Field(
        description="Highest values first; equal values by company uuid ascending"
    )
    lowest_company_measure_yearly_composites: list[SectorRankedCompanyMeasureYearly] = Field(
        description="Lowest values first; equal values by company uuid ascending"
    )


class SectorBucket(Schema):
    bucket_id: int = Field(description="-1 null, 0 underflow, 1..n numbered, n + 1 overflow")
    bucket_name: str = Field(description="null, underflow, the number as a string, or overflow")
    bucket_lower_bound: float | None = Field(description="Inclusive; null for the null and underflow buckets")
    bucket_upper_bound: float | None = Field(
        description="Exclusive, except for the last numbered bucket which includes it; null for null and overflow"
    )
    company_count: int
    company_percentage_of_total: float | None = Field(
        description="100 * company_count / total_count; null when the filtered set is empty"
    )
    company_percentage_of_not_null: float | None = Field(
        description="100 * company_count / not_null_count; null for the null bucket and when no company has a value"
    )


class SectorMeasureType(Schema):
    uuid: UUID
    company_measure_type_key: str
    company_measure_type_description: str | None
    unit: str = Field(description="Extension: NOK, ratio or count")
    app_url: str | None


class SectorFilters(Schema):
    measure_year: int
    nace_code_uuids: list[UUID] = Field(
        description="The NACE codes applied (given or derived); each includes its descendants"
    )
    company_measure_type_uuid: UUID
    organization_type_uuids: list[UUID]
    geo_country_uuid: UUID | None = Field(description="The country when exactly one is applied")
    geo_country_uuids: list[UUID] | None = Field(description="Extension: every country applied; null when unset")
    geo_subdivision_uuids: list[UUID] | None
    geo_municipality_uuids: list[UUID] | None
    geo_postal_code_uuids: list[UUID] | None
    lower_percentile: float = Field(description="The requested fraction")
    upper_percentile: float = Field(description="The requested fraction")
    round_digits: int
    number_of_highest_measures_to_include: int
    number_of_lowest_measures_to_include: int
    number_of_buckets: int | None = Field(description="Numbered buckets formed; null when no company has a value")
    max_number_of_buckets: int = Field(description="Extension: the requested maximum")
    benchmark_company_uuid: UUID | None = Field(description="Extension: the benchmark company, when given")


class SectorMeasureYearlyAggregateComposite(Schema):
    sector_measure_yearly_aggregate: SectorMeasureYearlyAggregate
    company_measure_yearly_buckets: list[SectorBucket]
    company_measure_type: SectorMeasureType
    company_measure_yearly_filters: SectorFilters
