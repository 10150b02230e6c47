"""The calling organisation itself: its overview (name and counts)."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from portal.service.common import Area, path_segment


@dataclass(frozen=True, slots=True)
class Count:
    key: str
    label: str
    value: int


@dataclass(frozen=True, slots=True)
class Overview:
    app_customer_uuid: UUID
    name: str
    counts: tuple[Count, ...]


class OrganisationArea(Area):
    def overview(self) -> Overview:
        data = self.client.get("analysis", f"v1/app-customer/{path_segment(self.app_customer_uuid)}/overview")
        return Overview(
            app_customer_uuid=UUID(str(data["app_customer_uuid"])),
            name=data.get("name") or "",
            counts=tuple(Count(c["key"], c.get("label") or c["key"], int(c.get("value") or 0)) for c in data.get("counts") or []),
        )
