"""Re-screening runs of the organisation's config (extension): a list update's changes or a full
re-screen, each with the config's part of it (screened, hits, cases raised or moved)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from portal.service.common import Area, moment, path_segment


@dataclass(frozen=True, slots=True)
class ScreeningRun:
    uuid: UUID
    kind_key: str  # list_version or full
    list_key: str  # the list of a list_version run; "" for full
    list_version: int | None
    started_at: datetime | None
    finished: bool
    finished_at: datetime | None
    chunks: int
    chunks_done: int
    screened: int
    hits: int
    cases_created: int
    cases_moved: int

    @classmethod
    def from_json(cls, data: dict) -> ScreeningRun:
        return cls(
            uuid=UUID(str(data["uuid"])),
            kind_key=data["screening_run_kind_key"],
            list_key=data.get("screening_list_category_key") or "",
            list_version=data.get("list_version_number"),
            started_at=moment(data.get("create_timestamp")),
            finished=bool(data.get("finished_flag")),
            finished_at=moment(data.get("finished_timestamp")),
            chunks=data.get("chunk_count") or 0,
            chunks_done=data.get("chunks_done_count") or 0,
            screened=data.get("screened_count") or 0,
            hits=data.get("hit_count") or 0,
            cases_created=data.get("cases_created_count") or 0,
            cases_moved=data.get("cases_moved_count") or 0,
        )


class RunsArea(Area):
    def recent(self, config_uuid, *, limit: int = 10) -> tuple[ScreeningRun, ...]:
        """The config's newest runs, newest first."""
        path = f"v1/screening-config/{path_segment(config_uuid)}/screening-run"
        [collection] = self.client.get("analysis", path, params={"limit": limit})
        return tuple(ScreeningRun.from_json(row) for row in collection["elements"])
