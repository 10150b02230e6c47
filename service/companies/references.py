"""Shared output shapes: app URLs and the company reference object (spec §2.2)."""

from __future__ import annotations

import uuid

from django.conf import settings


def app_url(path: str) -> str:
    """A link to the record's page in the dashboard (absolute when VAKT_BASE_URL is set)."""
    return f"{settings.VAKT_BASE_URL}{path}"


def company_app_url(company_uuid: uuid.UUID | str) -> str:
    return app_url(f"/companies/{company_uuid}/")


def company_ref(company) -> dict:
    return {
        "uuid": company.uuid,
        "name": company.name,
        "org_nr": company.org_nr,
        "org_nr_schema": company.org_nr_schema,
        "app_url": company_app_url(company.uuid),
    }


def company_ref_of_row(row: dict) -> dict:
    """The reference object from a hand-written read's row (keys uuid, name, org_nr, org_nr_schema)."""
    return {
        "uuid": row["uuid"],
        "name": row["name"],
        "org_nr": row["org_nr"],
        "org_nr_schema": row["org_nr_schema"],
        "app_url": company_app_url(row["uuid"]),
    }
