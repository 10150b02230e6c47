"""Partner reports and their files (spec §2.6, §4.4, §5.4): order, poll, list, file sessions, links."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote, urlencode
from uuid import UUID

from portal.service.common import Area, CompanyRef, moment, path_segment, uuid_or_none

FILE_BUCKET = "general"  # the bucket_name of report files (spec §4.4)
FINISHED_STATUSES = frozenset({"complete", "failed"})


@dataclass(frozen=True, slots=True)
class ReportType:
    uuid: UUID | None
    key: str  # company_profile | credit_report | ownership_report
    description: str
    # The roles that change what a report of this type shows (the service's rule; an order keeps the caller's
    # and its file is given only to callers holding those). None: the service did not say.
    content_role_keys: frozenset[str] | None = None
    required_role_key: str = ""  # the role ordering one needs ("" none)

    @classmethod
    def from_json(cls, data: dict) -> ReportType:
        roles = data.get("content_role_keys")
        return cls(
            uuid=uuid_or_none(data.get("uuid")),
            key=data["partner_report_type_key"],
            description=data.get("description") or "",
            content_role_keys=frozenset(roles) if roles is not None else None,
            required_role_key=data.get("required_role_key") or "",
        )


@dataclass(frozen=True, slots=True)
class ReportOrder:
    uuid: UUID
    app_customer_uuid: UUID
    status: str  # pending -> processing -> complete | failed
    failure_reason: str | None
    created_at: datetime | None
    updated_at: datetime | None
    completed_at: datetime | None
    app_url: str | None

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED_STATUSES

    @classmethod
    def from_json(cls, data: dict) -> ReportOrder:
        return cls(
            uuid=UUID(str(data["uuid"])),
            app_customer_uuid=UUID(str(data["app_customer_uuid"])),
            status=data["partner_report_order_status_key"],
            failure_reason=data.get("failure_reason"),
            created_at=moment(data.get("create_timestamp")),
            updated_at=moment(data.get("update_timestamp")),
            completed_at=moment(data.get("complete_timestamp")),
            app_url=data.get("app_url"),
        )


@dataclass(frozen=True, slots=True)
class Report:
    """One report of an order, with its file once complete."""

    uuid: UUID
    order_uuid: UUID
    company: CompanyRef
    report_type: ReportType
    status: str
    file_path: str | None  # app_customer/{acu}/company/{company_uuid}/{type}/<file_name>, None until complete
    file_name: str | None
    file_size: int | None
    content_type: str | None
    created_at: datetime | None
    completed_at: datetime | None

    @classmethod
    def from_json(cls, data: dict) -> Report:
        report = data["partner_report"]
        report_type = data.get("partner_report_type") or {"partner_report_type_key": report["partner_report_type_key"]}
        return cls(
            uuid=UUID(str(report["uuid"])),
            order_uuid=UUID(str(report["partner_report_order_uuid"])),
            company=CompanyRef.from_json(data["company"]),
            report_type=ReportType.from_json(report_type),
            status=report.get("partner_report_status_key") or "",
            file_path=report.get("file_path"),
            file_name=report.get("file_name"),
            file_size=report.get("file_size"),
            content_type=report.get("content_type"),
            created_at=moment(report.get("create_timestamp")),
            completed_at=moment(report.get("complete_timestamp")),
        )


@dataclass(frozen=True, slots=True)
class PlacedOrder:
    order: ReportOrder
    reports: tuple[Report, ...]


@dataclass(frozen=True, slots=True)
class FileSession:
    """Lets a browser download one file without an authorization header, until it expires (a day)."""

    uuid: UUID
    app_customer_uuid: UUID
    file_path: str
    expires_at: datetime | None

    @classmethod
    def from_json(cls, data: dict) -> FileSession:
        return cls(
            uuid=UUID(str(data["file_session_uuid"])),
            app_customer_uuid=UUID(str(data["app_customer_uuid"])),
            file_path=data["file_path"],
            expires_at=moment(data.get("expires_timestamp")),
        )


class ReportsArea(Area):
    def types(self) -> list[ReportType]:
        return [ReportType.from_json(row) for row in self.client.get("analysis", "v1/partner-report-type")]

    def order(self, lines: Iterable[tuple[object, str]]) -> PlacedOrder:
        """One order of one or more reports: `lines` of (company uuid, report type key).

        Ordering a credit report without `credit_check` raises ServiceForbidden.
        """
        body = {
            "partner_report_composites": [
                {"partner_report": {"company_uuid": str(company_uuid), "partner_report_type_key": type_key}}
                for company_uuid, type_key in lines
            ]
        }
        data = self.client.post("analysis", f"{self._customer_path()}/partner-report-order-composite", json=body)
        return PlacedOrder(
            order=ReportOrder.from_json(data["partner_report_order"]),
            reports=tuple(Report.from_json(row) for row in data.get("partner_report_composites") or []),
        )

    def order_get(self, order_uuid) -> ReportOrder:
        data = self.client.get("analysis", f"{self._customer_path()}/partner-report-order/{path_segment(order_uuid)}")
        return ReportOrder.from_json(data)

    def list(
        self,
        *,
        company_identifier: str | None = None,
        type_keys: Sequence[str] | None = None,
        order_uuid=None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> list[Report]:
        """The organisation's reports, newest first."""
        rows = self.client.get(
            "analysis",
            f"{self._customer_path()}/partner-report-composite",
            params={
                "company_identifier": company_identifier,
                "partner_report_type_identifiers": type_keys,
                "partner_report_order_uuid": str(order_uuid) if order_uuid else None,
                "limit": limit,
                "offset": offset,
            },
        )
        return [Report.from_json(row) for row in rows]

    def file_sessions(self, file_paths: Iterable[str]) -> list[FileSession]:
        body = [{"app_customer_uuid": self.app_customer_uuid, "file_path": path} for path in file_paths]
        return [FileSession.from_json(row) for row in self.client.post("analysis", "v1/file-session", json=body)]

    def file_session(self, file_path: str) -> FileSession:
        return self.file_sessions([file_path])[0]

    def download_url(self, session: FileSession) -> str:
        """The link a browser follows straight to the service: the session stands in for credentials."""
        query = urlencode({"file_session_uuid": str(session.uuid), "bucket_name": FILE_BUCKET})
        return f"{self.client.link_base_url}/analysis/{_file_path(session.file_path)}?{query}"

    def download(self, file_path: str) -> bytes:
        """The file's bytes, with the client's own credentials (for tasks and checks, not browsers)."""
        return self.client.request("GET", "analysis", _file_path(file_path), accept="*/*").content

    def _customer_path(self) -> str:
        return f"v1/app-customer/{path_segment(self.app_customer_uuid)}"


def _file_path(file_path: str) -> str:
    # Each segment quoted on its own: the slashes stay path separators, nothing else can become one.
    return "v1/file/" + "/".join(quote(segment, safe="") for segment in file_path.split("/"))
