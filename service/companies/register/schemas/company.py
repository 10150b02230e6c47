"""Basic company info (spec §4.2 `company/{id}`): register data, reference entities and addresses."""

from __future__ import annotations

from datetime import date, datetime
from uuid import UUID

from ninja import Field, Schema

from service.companies import models as m
from service.companies.references import company_ref
from service.companies.register.selectors import Address, CompanyDetail


class OrganizationTypeOut(Schema):
    uuid: UUID
    organization_type_key: str = Field(description="Country-prefixed key, e.g. NO-AS")
    code: str = Field(description="The register's code, e.g. AS")
    name: str


class NaceCodeOut(Schema):
    uuid: UUID
    nace_code_key: str = Field(description="Country-prefixed key, e.g. NO-62.010")
    code: str = Field(description="SN2007/NACE code, e.g. 62.010")
    name: str
    level: int = Field(description="1 section .. 5 subclass")
    rank: int = Field(description="1 for the company's main activity, then 2 and 3")


class GeoCountryOut(Schema):
    uuid: UUID
    geo_country_key: str = Field(description="ISO 3166-1 alpha-2, e.g. NO")
    name: str


class GeoSubdivisionOut(Schema):
    uuid: UUID
    geo_subdivision_key: str = Field(description="e.g. NO-11")
    code: str
    name: str


class GeoMunicipalityOut(Schema):
    uuid: UUID
    geo_municipality_key: str = Field(description="e.g. NO-1101")
    code: str
    name: str


class GeoPostalCodeOut(Schema):
    uuid: UUID
    geo_postal_code_key: str = Field(description="e.g. NO-1425")
    code: str
    place_name: str


class AddressOut(Schema):
    address_type_key: str = Field(description="business or postal")
    address: str = Field(description="Street address as registered")
    geo_postal_code: GeoPostalCodeOut | None
    geo_municipality: GeoMunicipalityOut | None
    geo_subdivision: GeoSubdivisionOut | None
    geo_country: GeoCountryOut | None


class CompanyRiskStatusOut(Schema):
    """A register status period; active while to_date is null."""

    uuid: UUID
    company_uuid: UUID
    company_risk_status_type_uuid: UUID
    company_risk_status_type_key: str = Field(
        description="bankrupt, under_liquidation, forced_dissolution, liquidated or deleted"
    )
    company_risk_status_type_description: str
    from_date: date
    to_date: date | None
    active_flag: bool


class CompanyOut(Schema):
    """Basic company info: the reference fields plus register data."""

    uuid: UUID
    name: str
    org_nr: str
    org_nr_schema: str
    app_url: str | None
    organization_type: OrganizationTypeOut | None
    nace_codes: list[NaceCodeOut] = Field(description="The company's NACE codes, main activity first")
    addresses: list[AddressOut] = Field(description="Business and postal address with their geo entities")
    website: str
    employees: int | None = Field(description="Employees as last reported to the register")
    registration_date: date | None
    founded_date: date | None
    last_submitted_accounts_year: int | None
    parent_org_nr: str = Field(description="Org nr of the parent unit (for sub-units), or empty")
    is_bankrupt: bool
    bankrupt_date: date | None
    is_under_liquidation: bool
    under_liquidation_date: date | None
    is_under_forced_dissolution: bool
    forced_dissolution_date: date | None
    has_company_risk_status: bool = Field(description="True when a risk status is active")
    company_risk_statuses: list[CompanyRiskStatusOut] = Field(description="The active risk statuses")
    update_timestamp: datetime



def _geo_out(entity, key_field: str, *, code: bool = True, name_field: str = "name") -> dict | None:
    """A geo reference, fields in the schema's order."""
    if entity is None:
        return None
    out = {"uuid": entity.uuid, key_field: entity.key}
    if code:
        out["code"] = entity.code
    out[name_field] = getattr(entity, name_field)
    return out


def address_out(address: Address) -> dict:
    return {
        "address_type_key": address.kind,
        "address": address.address,
        "geo_postal_code": _geo_out(address.postal_code, "geo_postal_code_key", name_field="place_name"),
        "geo_municipality": _geo_out(address.municipality, "geo_municipality_key"),
        "geo_subdivision": _geo_out(address.subdivision, "geo_subdivision_key"),
        "geo_country": _geo_out(address.country, "geo_country_key", code=False),
    }


def risk_status_out(status: m.CompanyRiskStatus, status_type: m.CompanyRiskStatusType) -> dict:
    return {
        "uuid": status.uuid,
        "company_uuid": status.company_id,
        "company_risk_status_type_uuid": status.company_risk_status_type_id,
        "company_risk_status_type_key": status_type.key,
        "company_risk_status_type_description": status_type.description,
        "from_date": status.from_date,
        "to_date": status.to_date,
        "active_flag": status.to_date is None,
    }


def company_out(detail: CompanyDetail) -> dict:
    company, organization_type = detail.company, detail.organization_type
    statuses = [risk_status_out(status, status_type) for status, status_type in detail.active_statuses]
    return {
        **company_ref(company),
        "organization_type": None
        if organization_type is None
        else {
            "uuid": organization_type.uuid,
            "organization_type_key": organization_type.key,
            "code": organization_type.code,
            "name": organization_type.name,
        },
        "nace_codes": [
            {"uuid": nace.uuid, "nace_code_key": nace.key, "code": nace.code, "name": nace.name, "level": nace.level,
             "rank": rank}
            for rank, nace in enumerate(detail.nace_codes, start=1)
        ],
        "addresses": [address_out(address) for address in detail.addresses],
        "website": company.website,
        "employees": company.employees,
        "registration_date": company.registration_date,
        "founded_date": company.founded_date,
        "last_submitted_accounts_year": company.last_submitted_accounts_year,
        "parent_org_nr": company.parent_org_nr,
        "is_bankrupt": company.is_bankrupt,
        "bankrupt_date": company.bankrupt_date,
        "is_under_liquidation": company.is_under_liquidation,
        "under_liquidation_date": company.under_liquidation_date,
        "is_under_forced_dissolution": company.is_under_forced_dissolution,
        "forced_dissolution_date": company.forced_dissolution_date,
        "has_company_risk_status": bool(statuses),
        "company_risk_statuses": statuses,
        "update_timestamp": company.update_timestamp,
    }
