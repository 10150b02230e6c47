"""Watchlists: the organisation's lists of companies (spec §2.7, §4.5 and the extension endpoints)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from portal.service.common import Area, CompanyRef, moment, path_segment
from portal.service.errors import ServiceBadRequest


@dataclass(frozen=True, slots=True)
class Watchlist:
    uuid: UUID
    app_customer_uuid: UUID
    name: str
    company_count: int
    created_at: datetime | None
    updated_at: datetime | None
    app_url: str | None

    @classmethod
    def from_json(cls, data: dict) -> Watchlist:
        return cls(
            uuid=UUID(str(data["uuid"])),
            app_customer_uuid=UUID(str(data["app_customer_uuid"])),
            name=data.get("watchlist_name") or "",
            company_count=int(data.get("company_count") or 0),
            created_at=moment(data.get("create_timestamp")),
            updated_at=moment(data.get("update_timestamp")),
            app_url=data.get("app_url"),
        )


@dataclass(frozen=True, slots=True)
class WatchlistCompany:
    """A company on a watchlist, with what a row of the list shows (no further call needed)."""

    uuid: UUID  # the membership, not the company
    watchlist_uuid: UUID
    added_at: datetime | None
    company: CompanyRef
    risk_score: float | None
    risk_class: str | None
    flag_keys: tuple[str, ...]  # active flags; role-protected ones only with the role

    @classmethod
    def from_json(cls, data: dict) -> WatchlistCompany:
        risk = data.get("company_credit_risk") or {}
        return cls(
            uuid=UUID(str(data["uuid"])),
            watchlist_uuid=UUID(str(data["watchlist_uuid"])),
            added_at=moment(data.get("added_timestamp")),
            company=CompanyRef.from_json(data["company"]),
            risk_score=risk.get("risk_score"),
            risk_class=risk.get("risk_class"),
            flag_keys=tuple(data.get("company_flag_type_keys") or ()),
        )


@dataclass(frozen=True, slots=True)
class CompanyNumber:
    """A company as request bodies name it: organisation number and country schema."""

    org_nr: str
    org_nr_schema: str = "NO"

    def as_json(self) -> dict:
        return {"org_nr": self.org_nr, "org_nr_schema": self.org_nr_schema}


@dataclass(frozen=True, slots=True)
class AddResult:
    added_count: int
    ignored_count: int  # already on the list
    company_count: int  # on the list afterwards


@dataclass(frozen=True, slots=True)
class ReplaceResult:
    added_count: int
    removed_count: int  # on the list before, not named
    kept_count: int  # named and already on the list
    company_count: int  # on the list afterwards


def bad_entries(error: ServiceBadRequest) -> dict[int, list[str]]:
    """A refused add's complaints per entry index (`loc` = ["body", index, field]), for showing next to each line."""
    by_index: dict[int, list[str]] = {}
    for item in error.errors:
        loc = item.get("loc") or []
        if len(loc) >= 2 and loc[0] == "body" and isinstance(loc[1], int):
            by_index.setdefault(loc[1], []).append(item.get("msg") or "")
    return by_index


class WatchlistsArea(Area):
    def list(self) -> list[Watchlist]:
        rows = self.client.get("analysis", f"v1/app-customer/{path_segment(self.app_customer_uuid)}/watchlist")
        return [Watchlist.from_json(row) for row in rows]

    def create(self, name: str) -> Watchlist:
        data = self.client.post(
            "analysis",
            f"v1/app-customer/{path_segment(self.app_customer_uuid)}/watchlist",
            json={"watchlist_name": name},
            params=self.acting_params(),
        )
        return Watchlist.from_json(data)

    def get(self, watchlist_uuid) -> Watchlist:
        return Watchlist.from_json(self.client.get("analysis", _path(watchlist_uuid)))

    def rename(self, watchlist_uuid, name: str) -> Watchlist:
        return Watchlist.from_json(self.client.patch("analysis", _path(watchlist_uuid), json={"watchlist_name": name}, params=self.acting_params()))

    def delete(self, watchlist_uuid) -> None:
        self.client.delete("analysis", _path(watchlist_uuid), params=self.acting_params())

    def companies(self, watchlist_uuid) -> list[WatchlistCompany]:
        rows = self.client.get("analysis", f"{_path(watchlist_uuid)}/company")
        return [WatchlistCompany.from_json(row) for row in rows]

    def add(self, watchlist_uuid, numbers: Iterable[CompanyNumber]) -> AddResult:
        """All or nothing: a bad entry raises ServiceBadRequest (see `bad_entries`) and adds none."""
        data = self.client.post(
            "analysis",
            f"{_path(watchlist_uuid)}/company",
            json=[number.as_json() for number in numbers],
            params=self.acting_params(),
        )
        return AddResult(int(data["added_count"]), int(data["ignored_count"]), int(data["company_count"]))

    def remove(self, watchlist_uuid, company_identifier) -> None:
        """One company, by its uuid or schema-prefixed organisation number."""
        self.client.delete(
            "analysis", f"{_path(watchlist_uuid)}/company/{path_segment(company_identifier)}", params=self.acting_params()
        )

    def remove_all(self, watchlist_uuid) -> int:
        data = self.client.delete("analysis", f"{_path(watchlist_uuid)}/company", params=self.acting_params())
        return int((data or {}).get("removed_count") or 0)

    def replace(self, watchlist_uuid, numbers: Iterable[CompanyNumber]) -> ReplaceResult:
        """Make the list exactly `numbers` in one call (the extension PUT), one transaction in the
        service: a refused list (a bad entry: ServiceBadRequest, see `bad_entries`; a removal the
        calls' roles do not allow: ServiceForbidden) changes nothing."""
        data = self.client.put(
            "analysis",
            f"{_path(watchlist_uuid)}/company",
            json=[number.as_json() for number in numbers],
            params=self.acting_params(),
        )
        return ReplaceResult(
            int(data["added_count"]), int(data["removed_count"]), int(data["kept_count"]), int(data["company_count"])
        )


def _path(watchlist_uuid) -> str:
    return f"v1/watchlist/{path_segment(watchlist_uuid)}"
