"""Legal holds on screening records (extension): an investigation keeps a former customer's
records past the retention period until the hold is released. Every call needs `aml`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from portal.service.common import Area, moment, path_segment


@dataclass(frozen=True, slots=True)
class RecordsHold:
    uuid: UUID
    entity_key: str  # customer_person, person or company
    entity_uuid: UUID
    entity_label: str
    reason: str
    placed_by: str | None  # the member's email
    placed_at: datetime | None
    in_force: bool
    released_at: datetime | None
    released_by: str | None

    @classmethod
    def from_json(cls, data: dict) -> RecordsHold:
        return cls(
            uuid=UUID(str(data["uuid"])),
            entity_key=data["entity_key"],
            entity_uuid=UUID(str(data["entity_uuid"])),
            entity_label=data.get("entity_label") or "",
            reason=data.get("reason") or "",
            placed_by=data.get("app_membership_email"),
            placed_at=moment(data.get("create_timestamp")),
            in_force=bool(data.get("in_force_flag")),
            released_at=moment(data.get("released_timestamp")),
            released_by=data.get("released_by_app_membership_email"),
        )


class HoldsArea(Area):
    def of_entity(self, config_uuid, *, entity_key: str, entity_uuid, limit: int = 20) -> list[RecordsHold]:
        """The entity's holds in the config, newest first (the one in force, if any, among them)."""
        params = {"entity_key": entity_key, "entity_uuid": str(entity_uuid), "limit": limit}
        rows = self.client.get("analysis", _path(config_uuid), params=params)
        return [RecordsHold.from_json(row) for row in rows]

    def place(self, config_uuid, *, entity_key: str, entity_uuid, reason: str) -> RecordsHold:
        """A 404 when the config has no records of the entity; a 400 naming `reason` or `entity_uuid`
        (`already_held`) otherwise refused."""
        body = {"entity_key": entity_key, "entity_uuid": str(entity_uuid), "reason": reason, **self.acting_body()}
        return RecordsHold.from_json(self.client.post("analysis", _path(config_uuid), json=body))

    def release(self, hold_uuid) -> RecordsHold:
        path = f"v1/records-hold/{path_segment(hold_uuid)}/release"
        return RecordsHold.from_json(self.client.post("analysis", path, json=self.acting_body()))


def _path(config_uuid) -> str:
    return f"v1/screening-config/{path_segment(config_uuid)}/records-hold"
