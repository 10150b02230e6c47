"""Batch screening (the service's extension endpoints): a CSV file of persons and companies
screened once against a config's lists as a background job, its progress and its result."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from uuid import UUID

from portal.service.common import Area, moment, path_segment, uuid_or_none
from portal.service.explanation import Explanation
from portal.service.screening_records import ListScreening

RESULT_TYPES = ("csv", "json", "pdf")


@dataclass(frozen=True, slots=True)
class Batch:
    uuid: UUID
    config_uuid: UUID
    file_name: str
    uploader_uuid: UUID | None  # the member who uploaded it, when the upload named one
    status_key: str  # pending, running, complete, failed, deleted
    rows_total: int
    rows_done: int
    rows_with_hits: int
    hit_count: int
    failure_reason: str
    created_at: datetime | None
    completed_at: datetime | None
    screened_against: tuple[ListScreening, ...]  # the list versions its rows were screened against, once complete
    retained_until: datetime | None  # when the retention period deletes its file and result; None: kept
    deleted_at: datetime | None
    deletion_reason_key: str  # request or retention, once deleted

    @property
    def is_finished(self) -> bool:
        return self.status_key in ("complete", "failed", "deleted")

    @property
    def is_deleted(self) -> bool:
        return self.status_key == "deleted"

    @property
    def label(self) -> str:
        """The file's name; a deleted job has none left (it can name a person), so what it was."""
        if self.file_name:
            return self.file_name
        return "A name checked" if self.rows_total == 1 else f"A file of {self.rows_total} rows"

    @property
    def percent_done(self) -> int:
        return int(100 * self.rows_done / self.rows_total) if self.rows_total else 0

    @classmethod
    def from_json(cls, data: dict) -> Batch:
        return cls(
            uuid=UUID(str(data["uuid"])),
            config_uuid=UUID(str(data["screening_config_uuid"])),
            file_name=data.get("file_name") or "",
            uploader_uuid=uuid_or_none(data.get("app_membership_uuid")),
            status_key=data["screening_batch_status_key"],
            rows_total=data.get("rows_total") or 0,
            rows_done=data.get("rows_done") or 0,
            rows_with_hits=data.get("rows_with_hits_count") or 0,
            hit_count=data.get("hit_count") or 0,
            failure_reason=data.get("failure_reason") or "",
            created_at=moment(data.get("create_timestamp")),
            completed_at=moment(data.get("complete_timestamp")),
            screened_against=tuple(ListScreening.from_json(e) for e in data.get("screened_against") or ()),
            retained_until=moment(data.get("retained_until")),
            deleted_at=moment(data.get("deleted_timestamp")),
            deletion_reason_key=data.get("deletion_reason_key") or "",
        )


@dataclass(frozen=True, slots=True)
class BatchPage:
    batches: tuple[Batch, ...]
    count: int


@dataclass(frozen=True, slots=True)
class BatchHit:
    list_key: str  # the list category: un_security_council, pep ...
    list_type: str  # pep or sanction
    source_id: str
    matched_name: str
    score: Decimal
    explanation: str  # the engine's one-sentence summary
    detail: Explanation | None  # the same in full: aligned name parts, adjustments (as a case stores it)


@dataclass(frozen=True, slots=True)
class BatchResultRow:
    """One row of the file as screened, with its best hits (best first)."""

    line: int
    type_key: str  # person or company
    reference: str  # the file's `id`
    name: str
    birth_date: str
    nationality: str
    country: str
    hits: tuple[BatchHit, ...]

    @classmethod
    def from_json(cls, data: dict) -> BatchResultRow:
        hits = tuple(
            BatchHit(hit["list"], hit["list_type"], hit["source_id"], hit["matched_name"], Decimal(str(hit["score"])),
                     hit["explanation"], Explanation.from_json(detail) if (detail := hit.get("explanation_detail")) else None)
            for hit in data.get("hits") or ()
        )
        return cls(int(data["line"]), data.get("type") or "person", data.get("id") or "", data.get("name") or "",
                   data.get("birth_date") or "", data.get("nationality") or "", data.get("country") or "", hits)


class BatchesArea(Area):
    def page(self, config_uuid, *, limit: int = 50, offset: int = 0) -> BatchPage:
        """The config's jobs, newest first."""
        [collection] = self.client.get("analysis", _path(config_uuid), params={"limit": limit, "offset": offset})
        return BatchPage(tuple(Batch.from_json(row) for row in collection["elements"]), collection["count"])

    def get(self, config_uuid, batch_uuid) -> Batch:
        return Batch.from_json(self.client.get("analysis", _path(config_uuid, batch_uuid)))

    def upload(self, config_uuid, *, file_name: str, content: bytes) -> Batch:
        """A new job; the service checks the whole file first (ServiceBadRequest naming each bad line)."""
        files = {"file": (file_name, content, "text/csv")}
        return Batch.from_json(self.client.post("analysis", _path(config_uuid), files=files, params=self.acting_params()))

    def delete(self, config_uuid, batch_uuid) -> None:
        """Delete the job's file and result (the names in it); the job stays, deleted, with its counts."""
        self.client.delete("analysis", _path(config_uuid, batch_uuid), params=self.acting_params())

    def result(self, config_uuid, batch_uuid, *, file_type: str = "csv") -> bytes:
        """A complete job's result file (csv, json, or pdf: the record of the check to file); a job not complete
        yet is a ServiceError (409, not_ready)."""
        if file_type not in RESULT_TYPES:
            raise ValueError(f"file_type is one of {RESULT_TYPES}")
        path = _path(config_uuid, batch_uuid, "result")
        return self.client.request("GET", "analysis", path, params={"response_file_type": file_type}, accept="*/*").content

    def result_rows(self, config_uuid, batch_uuid) -> tuple[BatchResultRow, ...]:
        """A complete job's rows with their hits, in file order (read from the JSON result)."""
        content = self.result(config_uuid, batch_uuid, file_type="json")
        return tuple(BatchResultRow.from_json(row) for row in json.loads(content))


def _path(config_uuid, batch_uuid=None, tail: str = "") -> str:
    path = f"v1/screening-config/{path_segment(config_uuid)}/screening-batch"
    if batch_uuid is not None:
        path += f"/{path_segment(batch_uuid)}"
    return f"{path}/{tail}" if tail else path

