"""Related companies (spec §2.10, §4.7 and extensions): a config's screening state per
watchlisted company at a glance, for overviews (the related companies page, the home page's
work list). The case counts come from `client.cases.status_counts`, the watchlists attached
from `client.screening.attached_watchlists`.

The related-company collection is read with the `aggregate_only_flag` extension: one
element per company with its counts, not every monitoring and case behind them (those are
on the approvals page and in the case queue).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from portal.service.common import Area, CompanyRef, moment, path_segment

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
    confirmed_pep_cases: int  # closed as a confirmed hit: a standing fact, not work left
    confirmed_sanction_cases: int
    pep_confirmed: bool
    review_status_keys: tuple[str, ...]
    latest_update: datetime | None

    @property
    def needs_attention(self) -> bool:
        return bool(self.open_cases or self.pending_monitorings)

    @property
    def confirmed_hits(self) -> bool:
        return bool(self.confirmed_sanction_cases or self.confirmed_pep_cases)

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
            confirmed_pep_cases=int(state.get("confirmed_pep_screening_case_count") or 0),
            confirmed_sanction_cases=int(state.get("confirmed_sanction_screening_case_count") or 0),
            pep_confirmed=bool(state.get("pep_confirmed_flag")),
            review_status_keys=tuple(state.get("screening_case_review_status_keys") or ()),
            latest_update=moment(state.get("latest_update_timestamp") or state.get("screening_case_latest_update_timestamp")),
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
