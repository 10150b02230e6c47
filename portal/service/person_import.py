"""The answer of a customer person import (extension): a CSV file of private customers made customer
persons of a config and put under monitoring, or, in a dry run, what that would do
(`client.screening.import_customer_persons` sends the file); and a larger file's import job, run in the
background (`client.screening.import_job_start`, `import_job`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from uuid import UUID

from portal.service.common import day, moment, uuid_or_none

OUTCOMES = ("created", "monitored", "already_monitored")


@dataclass(frozen=True, slots=True)
class ImportedRow:
    """One row of the file and what became (or would become) of it."""

    line: int
    reference: str  # the file's `id`: the organisation's customer reference, a new person's `customer_reference`
    full_name: str
    birth_date: date | None
    outcome: str  # created (a new customer person), monitored (an existing one, put under monitoring), already_monitored
    customer_person_uuid: UUID | None  # None for a person a dry run would create
    monitoring_uuid: UUID | None  # the monitoring made, or the one the person is already under; None in a dry run's new ones
    national_id_added: bool  # an existing person's: the row's national id, which they lacked, is (would be) recorded
    reference_added: bool = False  # an existing person's: the row's reference, as they had none, is (would be) theirs
    approved_now: bool = False  # an approving import: the existing person's monitoring, waiting for a decision, approved

    @classmethod
    def from_json(cls, data: dict) -> ImportedRow:
        return cls(
            line=int(data["line"]),
            reference=data.get("reference") or "",
            full_name=data.get("full_name") or "",
            birth_date=day(data.get("birth_date")),
            outcome=data["outcome"],
            customer_person_uuid=uuid_or_none(data.get("customer_person_uuid")),
            monitoring_uuid=uuid_or_none(data.get("entity_monitoring_uuid")),
            national_id_added=bool(data.get("national_id_added_flag")),
            reference_added=bool(data.get("customer_reference_added_flag")),
            approved_now=bool(data.get("approved_now_flag")),
        )


class _Counts:
    """What an import's counts say beyond themselves (`CustomerPersonImport` and `CustomerPersonImportJob` count alike)."""

    __slots__ = ()

    @property
    def existing_monitored_count(self) -> int:
        """Existing customer persons who were not under monitoring and are now."""
        return self.monitored_count - self.created_count


@dataclass(frozen=True, slots=True)
class CustomerPersonImport(_Counts):
    dry_run: bool  # nothing was written: what the import would do
    approved: bool  # the monitorings made are approved at once (else they wait under Pending)
    file_name: str
    rows_count: int
    created_count: int  # new customer persons, each with a new monitoring
    monitored_count: int  # monitorings made in all: the new persons' and existing persons' not under monitoring
    already_monitored_count: int  # existing customer persons already under a monitoring that is not removed
    national_ids_added_count: int
    rows: tuple[ImportedRow, ...]  # in file order
    approved_now_count: int = 0  # existing persons' monitorings that waited for a decision, approved by this import

    @property
    def changes_anything(self) -> bool:
        """Whether importing (this dry run's file) writes anything at all."""
        return bool(self.monitored_count or self.national_ids_added_count or self.approved_now_count
                    or any(row.reference_added for row in self.rows))

    @classmethod
    def from_json(cls, data: dict) -> CustomerPersonImport:
        return cls(
            dry_run=bool(data.get("dry_run")),
            approved=bool(data.get("approved_flag")),
            file_name=data.get("file_name") or "",
            rows_count=int(data.get("rows_count") or 0),
            created_count=int(data.get("created_count") or 0),
            monitored_count=int(data.get("monitored_count") or 0),
            already_monitored_count=int(data.get("already_monitored_count") or 0),
            national_ids_added_count=int(data.get("national_ids_added_count") or 0),
            rows=tuple(ImportedRow.from_json(row) for row in data.get("rows") or ()),
            approved_now_count=int(data.get("approved_now_count") or 0),
        )


@dataclass(frozen=True, slots=True)
class CustomerPersonImportJob(_Counts):
    """A file imported (or, `dry_run`, checked) in the background: one larger than the synchronous import takes.

    Its counts mean what `CustomerPersonImport`'s mean, so one text says both; it keeps no rows. A failed job
    wrote nothing: `failure_code` says why, `failure_errors` are the file's problems in the shape of the
    synchronous import's 400 (`loc` ["body", "file", "line 7", "birth_date"])."""

    uuid: UUID
    config_uuid: UUID
    file_name: str
    status: str  # pending, running, complete, failed
    dry_run: bool
    approved: bool
    comment: str
    rows_count: int | None  # None until the file is read
    created_count: int
    monitored_count: int
    already_monitored_count: int
    national_ids_added_count: int
    approved_now_count: int
    failure_code: str | None
    failure_detail: str
    failure_errors: tuple[dict, ...]
    created_at: datetime | None
    completed_at: datetime | None

    @property
    def done(self) -> bool:
        """Complete or failed: nothing about it changes any more."""
        return self.status in ("complete", "failed")

    @classmethod
    def from_json(cls, data: dict) -> CustomerPersonImportJob:
        rows = data.get("rows_count")
        return cls(
            uuid=UUID(str(data["uuid"])),
            config_uuid=UUID(str(data["screening_config_uuid"])),
            file_name=data.get("file_name") or "",
            status=data.get("customer_person_import_job_status_key") or "pending",
            dry_run=bool(data.get("dry_run")),
            approved=bool(data.get("approved_flag")),
            comment=data.get("monitoring_comment") or "",
            rows_count=int(rows) if rows is not None else None,
            created_count=int(data.get("created_count") or 0),
            monitored_count=int(data.get("monitored_count") or 0),
            already_monitored_count=int(data.get("already_monitored_count") or 0),
            national_ids_added_count=int(data.get("national_ids_added_count") or 0),
            approved_now_count=int(data.get("approved_now_count") or 0),
            failure_code=data.get("failure_code") or None,
            failure_detail=data.get("failure_detail") or "",
            failure_errors=tuple(data.get("failure_errors") or ()),
            created_at=moment(data.get("create_timestamp")),
            completed_at=moment(data.get("complete_timestamp")),
        )
