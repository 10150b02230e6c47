"""Related companies and case counts (spec §2.10, §4.7 and extensions): a config's screening
state at a glance, for overviews (the related companies page, the home page's work list).

The related-company collection is read with the `aggregate_only_flag` extension: one
element per company with its counts, not every monitoring and case behind them (those are
on the approvals page and in the case queue).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from portal.service.common import Area, CompanyRef, moment, path_segment

CASE_STATUS_KEYS = ("pending", "ongoing", "complete")
# The largest page the API allows: the fewest calls for an organisation's whole list.
PAGE_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class RelatedCompanyState:
    """A watchlisted company and where its screening stands."""

    company: CompanyRef
    active_monitorings: int
    pending_monitorings: int
    open_cases: int
    open_pep_cases: int
    open_sanction_cases: int
    pep_confirmed: bool
    review_status_keys: tuple[str, ...]
    latest_update: datetime | None

    @property
    def needs_attention(self) -> bool:
        return bool(self.open_cases or self.pending_monitorings)

    @classmethod
    def from_json(cls, data: dict) -> RelatedCompanyState:
        state = data.get("related_company_screening_state_aggregate") or {}
        return cls(
            company=CompanyRef.from_json(data["related_company"]),
            active_monitorings=int(state.get("active_entity_monitoring_count") or 0),
            pending_monitorings=int(state.get("pending_entity_monitoring_count") or 0),
            open_cases=int(state.get("open_screening_case_count") or 0),
            open_pep_cases=int(state.get("open_pep_screening_case_count") or 0),
            open_sanction_cases=int(state.get("open_sanction_screening_case_count") or 0),
            pep_confirmed=bool(state.get("pep_confirmed_flag")),
            review_status_keys=tuple(state.get("screening_case_review_status_keys") or ()),
            latest_update=moment(state.get("latest_update_timestamp") or state.get("screening_case_latest_update_timestamp")),
        )


@dataclass(frozen=True, slots=True)
class StatusCount:
    status_key: str  # pending, ongoing, complete
    count: int
    pep_count: int
    sanction_count: int


@dataclass(frozen=True, slots=True)
class CaseCounts:
    """A config's cases per status, with how many are PEP and sanction hits."""

    total: int
    by_status: tuple[StatusCount, ...]

    def of(self, status_key: str) -> StatusCount:
        return next((c for c in self.by_status if c.status_key == status_key), StatusCount(status_key, 0, 0, 0))

    @property
    def open(self) -> int:
        return self.of("pending").count + self.of("ongoing").count

    @property
    def open_pep(self) -> int:
        return self.of("pending").pep_count + self.of("ongoing").pep_count

    @property
    def open_sanction(self) -> int:
        return self.of("pending").sanction_count + self.of("ongoing").sanction_count

    @classmethod
    def from_json(cls, data: dict) -> CaseCounts:
        rows = {r["screening_case_status_key"]: r for r in data.get("screening_case_status_counts") or ()}
        return cls(
            total=int(data.get("count") or 0),
            by_status=tuple(
                StatusCount(
                    status_key=key,
                    count=int(rows.get(key, {}).get("count") or 0),
                    pep_count=int(rows.get(key, {}).get("pep_count") or 0),
                    sanction_count=int(rows.get(key, {}).get("sanction_count") or 0),
                )
                for key in CASE_STATUS_KEYS
            ),
        )


@dataclass(frozen=True, slots=True)
class AttachedWatchlist:
    link_uuid: UUID
    watchlist_uuid: UUID
    name: str

    @classmethod
    def from_json(cls, data: dict) -> AttachedWatchlist:
        return cls(
            link_uuid=UUID(str(data["uuid"])),
            watchlist_uuid=UUID(str(data["watchlist_uuid"])),
            name=data.get("watchlist_name") or "",
        )


class RelatedArea(Area):
    def states(self, config_uuid: UUID) -> list[RelatedCompanyState]:
        """Every related company of the config, by name (needs `aml`)."""
        path = (
            f"v1/screening-config/{path_segment(config_uuid)}"
            "/screening-related-company-status-composite-collection"
        )
        elements = self.client.paginate(
            "analysis", path, params={"aggregate_only_flag": True}, limit=PAGE_LIMIT
        )
        return [RelatedCompanyState.from_json(e) for e in elements]

    def case_counts(self, config_uuid: UUID) -> CaseCounts:
        """The config's cases per status and hit kind, in one call (needs `aml`)."""
        path = f"v1/screening-config/{path_segment(config_uuid)}/screening-case-count"
        return CaseCounts.from_json(self.client.get("analysis", path))

    def attached_watchlists(self, config_uuid: UUID) -> list[AttachedWatchlist]:
        """The watchlists whose companies the config screens (needs `aml`)."""
        path = f"v1/screening-config/{path_segment(config_uuid)}/screening-config-watchlist"
        return [AttachedWatchlist.from_json(link) for link in self.client.get("analysis", path)]
