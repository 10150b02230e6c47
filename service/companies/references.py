"""Shared output shapes: app URLs, numbers and the company reference object (spec §2.2)."""

from __future__ import annotations

from uuid import UUID

from django.conf import settings
from ninja import Field, Schema


def app_url(path: str) -> str:
    """A link to the record's page in the dashboard (absolute when VAKT_BASE_URL is set)."""
    return f"{settings.VAKT_BASE_URL}{path}"


def company_app_url(company_uuid: UUID | str) -> str:
    return app_url(f"/companies/{company_uuid}/")


def company_part_url(company_uuid: UUID | str, part: str) -> str:
    """A link to one part of the company's page (`#accounts-2024`, `#flags`, ...)."""
    return f"{company_app_url(company_uuid)}#{part}"


def number(value) -> float | None:
    """Money, ratios and measures are Decimals in the database and JSON numbers on the wire."""
    return None if value is None else float(value)


class CompanyRef(Schema):
    """The company reference object (spec §2.2)."""

    uuid: UUID
    name: str
    org_nr: str
    org_nr_schema: str = Field(description="Country schema of org_nr, e.g. NO")
    app_url: str | None


def company_ref(company) -> dict:
    return {
        "uuid": company.uuid,
        "name": company.name,
        "org_nr": company.org_nr,
        "org_nr_schema": company.org_nr_schema,
        "app_url": company_app_url(company.uuid),
    }


def company_ref_of_row(row: dict) -> dict:
    """The reference object from a row read with `.values()` (keys uuid, name, org_nr, org_nr_schema)."""
    return {
        "uuid": row["uuid"],
        "name": row["name"],
        "org_nr": row["org_nr"],
        "org_nr_schema": row["org_nr_schema"],
        "app_url": company_app_url(row["uuid"]),
    }
