"""What every area module shares: the area base, the company reference, reading wire values."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any
from urllib.parse import quote
from uuid import UUID

from django.utils.dateparse import parse_date, parse_datetime

if TYPE_CHECKING:
    from portal.service.client import ServiceClient


class Area:
    """One area of the API (companies, watchlists, reports ...): its paths and its typed answers."""

    def __init__(self, client: ServiceClient) -> None:
        self.client = client

    @property
    def app_customer_uuid(self) -> str:
        if not self.client.app_customer_uuid:
            raise ValueError("This client acts for no organisation: build it with app_customer_uuid.")
        return self.client.app_customer_uuid

    @property
    def acting_app_membership_uuid(self) -> str | None:
        """The person the client acts for (a dashboard member), named in writes for the audit log."""
        return self.client.acting_app_membership_uuid

    def acting_params(self) -> dict:
        """`app_membership_uuid` as a query parameter, for writes whose body cannot carry it."""
        return {"app_membership_uuid": self.acting_app_membership_uuid} if self.acting_app_membership_uuid else {}

    def acting_body(self) -> dict:
        """`app_membership_uuid` for a JSON body: the same person as `acting_params`, for the writes that take a body.

        Empty when the client acts for no person (background work), so the service records the API user alone."""
        return self.acting_params()


@dataclass(frozen=True, slots=True)
class CompanyRef:
    """The spec's company reference (§2.2)."""

    uuid: UUID
    name: str
    org_nr: str
    org_nr_schema: str
    app_url: str | None = None

    @property
    def identifier(self) -> str:
        """The schema-prefixed organisation number (`NO923609016`), a company identifier of the API."""
        return f"{self.org_nr_schema}{self.org_nr}"

    @classmethod
    def from_json(cls, data: dict) -> CompanyRef:
        return cls(
            uuid=UUID(str(data["uuid"])),
            name=data.get("name") or "",
            org_nr=data.get("org_nr") or "",
            org_nr_schema=data.get("org_nr_schema") or "",
            app_url=data.get("app_url"),
        )


def path_segment(value: Any) -> str:
    """A value as one path segment: nothing in it can reach another path."""
    return quote(str(value), safe="")


def uuid_or_none(value: Any) -> UUID | None:
    return UUID(str(value)) if value else None


def moment(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


def day(value: str | None) -> date | None:
    """A date, also from a timestamp (the calendar date it names)."""
    if not value:
        return None
    return parse_date(value) or (parse_datetime(value).date() if parse_datetime(value) else None)


def decimal_or_none(value: Any) -> Decimal | None:
    """JSON numbers as Decimal (money and measures are exact in the service; floats would round them)."""
    if value is None or isinstance(value, bool):
        return None
    return Decimal(str(value))
