"""The query of a sector aggregate: identifiers resolved, defaults and benchmark rules 1-3 applied.

Every problem is collected and raised as one 400 listing each field (DESIGN:
"every invalid field listed"). Identifiers are uuids or keys (`NO-62.010`,
`NO-AS`, `NO-0301`, `return_on_assets`).

The peer group is chosen on the company's primary NACE code (`nace_code_1`)
only: a company is benchmarked in its main activity, and counting secondary
codes would put one company into several sectors.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Model, Q

from service.companies import models as m
from service.companies.identifiers import company_get
from service.errors import ApiError, BadRequest, field_error

DEFAULT_ORGANIZATION_TYPE_KEYS = ("NO-AS", "NO-ASA")
GEO_LEVEL_KEYS = ("geo_subdivision", "geo_municipality", "geo_postal_code")
# (minimum, maximum) of the integer parameters; the API declares the same bounds.
LIMITS = {
    "measure_year": (1000, 9999),
    "benchmark_nace_code_hierarchy_level": (1, 5),
    "round_digits": (-15, 6),  # measures are stored with 6 decimals and below 10^18
    "number_of_highest_measures_to_include": (0, 100),
    "number_of_lowest_measures_to_include": (0, 100),
    "max_number_of_buckets": (1, 1000),
}
_GEO_LEVELS = {  # parameter: (model, example key)
    "geo_country_identifiers": (m.GeoCountry, "NO"),
    "geo_subdivision_identifiers": (m.GeoSubdivision, "NO-03"),
    "geo_municipality_identifiers": (m.GeoMunicipality, "NO-0301"),
    "geo_postal_code_identifiers": (m.GeoPostalCode, "NO-0150"),
}


@dataclass(frozen=True)
class SectorParameters:
    """The query parameters as given; lists are still comma-separated strings."""

    measure_year: int
    company_measure_type_identifier: str
    nace_code_identifiers: str | None = None
    benchmark_company_identifier: str | None = None
    benchmark_nace_code_hierarchy_level: int = 5
    benchmark_geo_level_entity_key: str = "geo_subdivision"
    organization_type_identifiers: str | None = None
    geo_country_identifiers: str | None = None
    geo_subdivision_identifiers: str | None = None
    geo_municipality_identifiers: str | None = None
    geo_postal_code_identifiers: str | None = None
    lower_percentile: float = 0.10
    upper_percentile: float = 0.90
    round_digits: int = 0
    number_of_highest_measures_to_include: int = 3
    number_of_lowest_measures_to_include: int = 3
    max_number_of_buckets: int = 10


@dataclass(frozen=True)
class SectorQuery:
    """What the aggregate is computed over, and how. A geo level is None when it is not filtered on."""

    measure_year: int
    measure_type: m.CompanyMeasureType
    nace_codes: list[m.NaceCode]
    organization_types: list[m.OrganizationType]
    geo_countries: list[m.GeoCountry] | None
    geo_subdivisions: list[m.GeoSubdivision] | None
    geo_municipalities: list[m.GeoMunicipality] | None
    geo_postal_codes: list[m.GeoPostalCode] | None
    benchmark_company: m.Company | None
    lower_percentile: float
    upper_percentile: float
    round_digits: int
    number_of_highest_measures_to_include: int
    number_of_lowest_measures_to_include: int
    max_number_of_buckets: int


@dataclass
class _Errors:
    errors: list[dict] = field(default_factory=list)

    def add(self, name: str, msg: str) -> None:
        self.errors.append(field_error(["query", name], msg))

    def raise_any(self) -> None:
        if self.errors:
            names = ", ".join(dict.fromkeys(str(error["loc"][-1]) for error in self.errors))
            raise BadRequest(f"Invalid value for {names}.", code="invalid_parameter", errors=self.errors)


def identifiers_split(raw: str | None) -> list[str]:
    """A comma-separated list without blanks or repeats; empty when absent."""
    return list(dict.fromkeys(part.strip() for part in (raw or "").split(",") if part.strip()))


def entities_resolve(
    *, model: type[Model], identifiers: Sequence[str], name: str, example: str, errors: _Errors
) -> list:
    """The rows named by uuid or key (as given or upper-cased), in order; each unknown one is an error."""
    uuids, keys = {}, set()
    for identifier in identifiers:
        try:
            uuids[identifier] = uuid.UUID(identifier)
        except ValueError:
            keys |= {identifier, identifier.upper()}
    found = list(model.objects.filter(Q(uuid__in=uuids.values()) | Q(key__in=keys)))
    by_uuid = {row.uuid: row for row in found}
    by_key = {row.key: row for row in found}
    rows = []
    for identifier in identifiers:
        if identifier in uuids:
            row = by_uuid.get(uuids[identifier])
        else:
            row = by_key.get(identifier) or by_key.get(identifier.upper())
        if row is None:
            errors.add(name, f"unknown identifier {identifier!r}: give a uuid or a key such as {example}")
        else:
            rows.append(row)
    return list(dict.fromkeys(rows))


def _numbers_check(p: SectorParameters, *, errors: _Errors) -> None:
    for name, (low, high) in LIMITS.items():
        if not low <= getattr(p, name) <= high:
            errors.add(name, f"must be between {low} and {high}")
    for name in ("lower_percentile", "upper_percentile"):
        if not 0 <= getattr(p, name) <= 1:  # NaN fails too
            errors.add(name, "must be a fraction between 0 and 1")
    if p.lower_percentile > p.upper_percentile:
        errors.add("lower_percentile", "must not be above upper_percentile")
        errors.add("upper_percentile", "must not be below lower_percentile")
    if p.benchmark_geo_level_entity_key not in GEO_LEVEL_KEYS:
        errors.add("benchmark_geo_level_entity_key", f"must be one of {', '.join(GEO_LEVEL_KEYS)}")


def _measure_type(raw: str, *, errors: _Errors) -> m.CompanyMeasureType | None:
    identifier = (raw or "").strip()
    if not identifier:
        errors.add("company_measure_type_identifier", "a measure type uuid or key (e.g. return_on_assets) is required")
        return None
    found = entities_resolve(
        model=m.CompanyMeasureType,
        identifiers=[identifier],
        name="company_measure_type_identifier",
        example="return_on_assets",
        errors=errors,
    )
    return found[0] if found else None


def _benchmark_company(raw: str, *, errors: _Errors) -> m.Company | None:
    companies = m.Company.objects.select_related(
        "nace_code_1", "business_municipality__subdivision", "business_postal_code"
    )
    try:
        return company_get(raw, loc=["query", "benchmark_company_identifier"], queryset=companies)
    except ApiError as error:  # malformed (400) or unknown (404): here both are a bad parameter
        errors.add("benchmark_company_identifier", error.errors[0]["msg"] if error.errors else error.detail)
        return None


def _nace_at_level(company: m.Company, *, level: int, errors: _Errors) -> list[m.NaceCode]:
    """Rule 2: the ancestor at `level` of the company's primary NACE code (the code itself when coarser)."""
    code = company.nace_code_1
    if code is None:
        errors.add(
            "benchmark_company_identifier",
            "the benchmark company has no NACE code to derive nace_code_identifiers from; give nace_code_identifiers",
        )
        return []
    if code.level <= level:
        return [code]
    ancestor = m.NaceCode.objects.filter(path=".".join(code.path.split(".")[:level])).first()
    return [ancestor or code]


def _geo_from_address(company: m.Company, *, level_key: str, errors: _Errors) -> dict[str, list]:
    """Rule 1: the benchmark company's business address at `level_key`, as that level's identifiers."""
    municipality = company.business_municipality
    derived = {
        "geo_subdivision": municipality.subdivision if municipality else None,
        "geo_municipality": municipality,
        "geo_postal_code": company.business_postal_code,
    }[level_key]
    if derived is None:
        part = "postal code" if level_key == "geo_postal_code" else "municipality"
        errors.add(
            "benchmark_company_identifier",
            f"the benchmark company has no business address {part} to derive {level_key}_identifiers from; "
            "give geo identifiers explicitly",
        )
        return {}
    return {f"{level_key}_identifiers": [derived]}


def sector_query_resolve(*, parameters: SectorParameters) -> SectorQuery:
    """Resolve every identifier, apply the defaults and benchmark rules 1-3, or raise one 400."""
    p = parameters
    errors = _Errors()
    _numbers_check(p, errors=errors)
    measure_type = _measure_type(p.company_measure_type_identifier, errors=errors)

    benchmark_given = bool((p.benchmark_company_identifier or "").strip())
    benchmark_company = _benchmark_company(p.benchmark_company_identifier, errors=errors) if benchmark_given else None

    # Rule 3: what is given explicitly wins over what the benchmark company implies.
    nace_codes: list[m.NaceCode] = []
    if nace_identifiers := identifiers_split(p.nace_code_identifiers):
        nace_codes = entities_resolve(
            model=m.NaceCode,
            identifiers=nace_identifiers,
            name="nace_code_identifiers",
            example="NO-62.010",
            errors=errors,
        )
    elif benchmark_company is not None:
        low, high = LIMITS["benchmark_nace_code_hierarchy_level"]
        if low <= p.benchmark_nace_code_hierarchy_level <= high:  # else already reported
            nace_codes = _nace_at_level(benchmark_company, level=p.benchmark_nace_code_hierarchy_level, errors=errors)
    elif not benchmark_given:
        errors.add("nace_code_identifiers", "required unless benchmark_company_identifier is given")

    if organization_identifiers := identifiers_split(p.organization_type_identifiers):
        organization_types = entities_resolve(
            model=m.OrganizationType,
            identifiers=organization_identifiers,
            name="organization_type_identifiers",
            example="NO-AS",
            errors=errors,
        )
    else:
        organization_types = list(
            m.OrganizationType.objects.filter(key__in=DEFAULT_ORGANIZATION_TYPE_KEYS).order_by("key")
        )

    geo: dict[str, list | None] = {}
    for name, (model, example) in _GEO_LEVELS.items():
        identifiers = identifiers_split(getattr(p, name))
        geo[name] = (
            entities_resolve(model=model, identifiers=identifiers, name=name, example=example, errors=errors)
            if identifiers
            else None
        )
    no_geo_given = all(value is None for value in geo.values())
    if benchmark_company is not None and no_geo_given and p.benchmark_geo_level_entity_key in GEO_LEVEL_KEYS:
        geo.update(_geo_from_address(benchmark_company, level_key=p.benchmark_geo_level_entity_key, errors=errors))

    errors.raise_any()
    return SectorQuery(
        measure_year=p.measure_year,
        measure_type=measure_type,
        nace_codes=nace_codes,
        organization_types=organization_types,
        geo_countries=geo["geo_country_identifiers"],
        geo_subdivisions=geo["geo_subdivision_identifiers"],
        geo_municipalities=geo["geo_municipality_identifiers"],
        geo_postal_codes=geo["geo_postal_code_identifiers"],
        benchmark_company=benchmark_company,
        lower_percentile=p.lower_percentile,
        upper_percentile=p.upper_percentile,
        round_digits=p.round_digits,
        number_of_highest_measures_to_include=p.number_of_highest_measures_to_include,
        number_of_lowest_measures_to_include=p.number_of_lowest_measures_to_include,
        max_number_of_buckets=p.max_number_of_buckets,
    )
