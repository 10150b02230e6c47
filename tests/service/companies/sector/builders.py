"""Small builders for the sector tests: a NACE tree, organisation types, geo areas, companies with values.

Local to these tests on purpose (keyword-only, sensible defaults); rows are made
with bulk_create so property-based examples stay fast.
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass
from decimal import Decimal

from service.companies import models as m

URL = "/analysis/v1/sector-measure-yearly-aggregate-composite"
YEAR = 2023
MEASURE = "return_on_assets"
MISSING = "missing"  # a company without a row for the year (a row with an empty value is None)

# code: (level, path, parent code)
NACE_TREE = {
    "J": (1, "J", None),
    "62": (2, "J.62", "J"),
    "62.0": (3, "J.62.0", "62"),
    "62.01": (4, "J.62.0.1", "62.0"),
    "62.010": (5, "J.62.0.1.0", "62.01"),
    "62.02": (4, "J.62.0.2", "62.0"),
    "62.020": (5, "J.62.0.2.0", "62.02"),
    "63": (2, "J.63", "J"),
    "63.1": (3, "J.63.1", "63"),
    "63.11": (4, "J.63.1.1", "63.1"),
    "63.110": (5, "J.63.1.1.0", "63.11"),
    "A": (1, "A", None),
    "01": (2, "A.01", "A"),
    "01.1": (3, "A.01.1", "01"),
    "01.11": (4, "A.01.1.1", "01.1"),
    "01.110": (5, "A.01.1.1.0", "01.11"),
}
# municipality: (county, postal codes)
MUNICIPALITIES = {
    "0301": ("03", ["0150", "0151"]),
    "4601": ("46", ["5003"]),
    "4602": ("46", ["5004"]),
}

_org_nrs = itertools.count(910000001)


@dataclass
class World:
    nace: dict[str, m.NaceCode]
    organization_types: dict[str, m.OrganizationType]
    countries: dict[str, m.GeoCountry]
    subdivisions: dict[str, m.GeoSubdivision]
    municipalities: dict[str, m.GeoMunicipality]
    postal_codes: dict[str, m.GeoPostalCode]
    measure_type: m.CompanyMeasureType


def a_world() -> World:
    """The reference rows every sector test needs (the measure types come from the catalogue)."""
    nace: dict[str, m.NaceCode] = {}
    for code, (level, path, parent) in NACE_TREE.items():
        nace[code] = m.NaceCode.objects.create(
            key=f"NO-{code}", code=code, level=level, path=path, name=f"NACE {code}", parent=nace.get(parent)
        )
    organization_types = {
        code: m.OrganizationType.objects.create(key=f"NO-{code}", code=code, name=code)
        for code in ("AS", "ASA", "ENK", "NUF")
    }
    countries = {key: m.GeoCountry.objects.create(key=key, name=key) for key in ("NO", "SE")}
    subdivisions = {
        code: m.GeoSubdivision.objects.create(key=f"NO-{code}", country=countries["NO"], code=code, name=code)
        for code in ("03", "46")
    }
    municipalities, postal_codes = {}, {}
    for code, (county, postals) in MUNICIPALITIES.items():
        municipalities[code] = m.GeoMunicipality.objects.create(
            key=f"NO-{code}", subdivision=subdivisions[county], code=code, name=code
        )
        for postal in postals:
            postal_codes[postal] = m.GeoPostalCode.objects.create(
                key=f"NO-{postal}", country=countries["NO"], municipality=municipalities[code], code=postal
            )
    return World(
        nace=nace,
        organization_types=organization_types,
        countries=countries,
        subdivisions=subdivisions,
        municipalities=municipalities,
        postal_codes=postal_codes,
        measure_type=m.CompanyMeasureType.objects.get(key=MEASURE),
    )


def companies_with_values(
    world: World,
    values: list,
    *,
    nace: str = "62.010",
    organization_type: str | None = "AS",
    postal_code: str | None = "0150",
    country: str = "NO",
    year: int = YEAR,
    org_nrs: list[str] | None = None,
) -> list[m.Company]:
    """One company per entry of `values`: a Decimal-like value, None (a row with no value) or MISSING (no row)."""
    postal = world.postal_codes[postal_code] if postal_code else None
    companies = m.Company.objects.bulk_create(
        [
            m.Company(
                uuid=uuid.uuid4(),
                name=f"Sector company {i}",
                org_nr=org_nrs[i] if org_nrs else str(next(_org_nrs)),
                nace_code_1=world.nace[nace],
                organization_type=world.organization_types[organization_type] if organization_type else None,
                business_country=world.countries[country],
                business_municipality=postal.municipality if postal else None,
                business_postal_code=postal,
            )
            for i in range(len(values))
        ]
    )
    m.CompanyMeasureYearly.objects.bulk_create(
        [
            m.CompanyMeasureYearly(
                company=company,
                company_measure_type=world.measure_type,
                measure_year=year,
                measure_value=None if value is None else Decimal(str(value)),
            )
            for company, value in zip(companies, values, strict=True)
            if value is not MISSING
        ]
    )
    return companies


def params(**overrides) -> dict:
    """The query of the usual test sector (NACE 62.010, the measure, the year), with overrides; None drops one."""
    query = {"measure_year": YEAR, "company_measure_type_identifier": MEASURE, "nace_code_identifiers": "NO-62.010"}
    query.update(overrides)
    return {name: value for name, value in query.items() if value is not None}
