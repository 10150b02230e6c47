"""Legal holds on screening records (extension): an investigation keeps a former customer's
records past the retention period until the hold is released. Every call needs `aml`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from portal.service.common import Area, moment, path_segment, uuid_or_none


def kept_years(relationship_ended_at: datetime | None, retained_until: datetime | None) -> int | None:
    """How many years after the relationship ended the service keeps an entity's records."""
    if retained_until is None or relationship_ended_at is None:
        return None
    return retained_until.year - relationship_ended_at.year


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
    release_reason: str = ""
    four_eyes: bool = False  # a release is asked for by one member and confirmed by another
    release_requested_at: datetime | None = None  # a release asked for, waiting for another member
    release_requested_by: str | None = None  # the member's email
    release_requested_by_uuid: UUID | None = None
    release_request_reason: str = ""

    @property
    def release_requested(self) -> bool:
        """A release waits for a second member. Only under four-eyes review: switching it off
        withdraws the requests, and one left from a race would not stop a release anyway."""
        return self.four_eyes and self.in_force and self.release_requested_at is not None

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
            release_reason=data.get("release_reason") or "",
            four_eyes=bool(data.get("four_eyes_release_flag")),
            release_requested_at=moment(data.get("release_requested_timestamp")),
            release_requested_by=data.get("release_requested_by_app_membership_email"),
            release_requested_by_uuid=uuid_or_none(data.get("release_requested_by_app_membership_uuid")),
            release_request_reason=data.get("release_request_reason") or "",
        )


@dataclass(frozen=True, slots=True)
class RecordsRetention:
    """Until when an entity's screening records in a config are kept."""

    relationship_ended_at: datetime | None  # None while a monitoring that counts is not removed
    retained_until: datetime | None  # None while monitored, while held, or when nothing is deleted by age
    held: bool  # by its own hold or its company's
    hold: RecordsHold | None  # its own hold in force
    company_holds: tuple[RecordsHold, ...] = ()  # holds on companies it is screened for, which keep it too

    @property
    def kept_years(self) -> int | None:
        return kept_years(self.relationship_ended_at, self.retained_until)

    @classmethod
    def from_json(cls, data: dict) -> RecordsRetention:
        hold = data.get("records_hold")
        return cls(
            relationship_ended_at=moment(data.get("relationship_ended_timestamp")),
            retained_until=moment(data.get("retained_until")),
            held=bool(data.get("records_held_flag")),
            hold=RecordsHold.from_json(hold) if hold else None,
            company_holds=tuple(RecordsHold.from_json(row) for row in data.get("company_records_holds") or ()),
        )


class HoldsArea(Area):
    def retention(self, config_uuid, *, entity_key: str, entity_uuid) -> RecordsRetention:
        """A 404 when the config has no screening records of the entity."""
        params = {"entity_key": entity_key, "entity_uuid": str(entity_uuid)}
        path = f"v1/screening-config/{path_segment(config_uuid)}/records-retention"
        return RecordsRetention.from_json(self.client.get("analysis", path, params=params))

    def page(self, config_uuid, *, limit: int = 50, offset: int = 0) -> list[RecordsHold]:
        """The config's holds, newest first, in force and released."""
        rows = self.client.get("analysis", _path(config_uuid), params={"limit": limit, "offset": offset})
        return [RecordsHold.from_json(row) for row in rows]

    def place(self, config_uuid, *, entity_key: str, entity_uuid, reason: str) -> RecordsHold:
        """A 404 when the config has no records of the entity; a 400 naming `reason` or `entity_uuid`
        (`already_held`) otherwise refused."""
        body = {"entity_key": entity_key, "entity_uuid": str(entity_uuid), "reason": reason, **self.acting_body()}
        return RecordsHold.from_json(self.client.post("analysis", _path(config_uuid), json=body))

    def release(self, hold_uuid, *, release_reason: str, confirm_request: bool | None = None) -> RecordsHold:
        """The hold, released; or, under the config's four-eyes review, still in force with the release
        asked for when no other member asked first. `confirm_request`: False asks, True confirms the
        request waiting, None whichever applies. A 400 naming `release_reason` when it is blank,
        `already_released` when released meanwhile, `release_already_requested` when asking and another
        member asked meanwhile, `no_release_requested` when confirming one withdrawn meanwhile; a 409
        `four_eyes_required` when the caller asked."""
        path = f"v1/records-hold/{path_segment(hold_uuid)}/release"
        body = {"release_reason": release_reason, **self.acting_body()}
        if confirm_request is not None:
            body["confirm_request_flag"] = confirm_request
        return RecordsHold.from_json(self.client.post("analysis", path, json=body))

    def keep(self, hold_uuid, *, keep_reason: str) -> RecordsHold:
        """Turn down (or withdraw) the release asked for; a 400 `no_release_requested` when none waits."""
        path = f"v1/records-hold/{path_segment(hold_uuid)}/keep"
        body = {"keep_reason": keep_reason, **self.acting_body()}
        return RecordsHold.from_json(self.client.post("analysis", path, json=body))


def _path(config_uuid) -> str:
    return f"v1/screening-config/{path_segment(config_uuid)}/records-hold"
