"""In and Out schemas of the partner report and file endpoints (spec §2.6, §4.4; CONTRACT.md)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from ninja import Field, Schema

from service.companies.references import company_ref
from service.companies.references import CompanyRef
from service.reports.catalog import content_roles_of
from service.reports.models import FileSession, PartnerReport, PartnerReportOrder, PartnerReportType


class PartnerReportIn(Schema):
    company_uuid: str = Field(description="The company's uuid")
    partner_report_type_key: str = Field(description="company_profile, credit_report (needs credit_check) or ownership_report")


class PartnerReportCompositeIn(Schema):
    partner_report: PartnerReportIn


class PartnerReportOrderIn(Schema):
    partner_report_composites: list[PartnerReportCompositeIn]


class PartnerReportTypeOut(Schema):
    uuid: UUID
    partner_report_type_key: str
    description: str
    required_role_key: str | None = Field(description="The role needed to order it; null when none (extension)")
    content_role_keys: list[str] = Field(
        description="The roles that change what a report of this type shows (extension). An order keeps the "
        "caller's; the file is given only to callers holding those of them listed here"
    )


class PartnerReportOrderOut(Schema):
    uuid: UUID
    app_customer_uuid: UUID
    partner_report_order_status_key: str = Field(description="pending, processing, complete or failed")
    failure_reason: str | None = Field(description="Why the order failed; null unless failed")
    create_timestamp: datetime
    update_timestamp: datetime
    complete_timestamp: datetime | None
    app_url: str | None


class PartnerReportOut(Schema):
    uuid: UUID
    partner_report_order_uuid: UUID
    company_uuid: UUID
    partner_report_type_key: str
    partner_report_status_key: str = Field(description="pending, processing, complete or failed")
    file_path: str | None = Field(
        description="app_customer/{app_customer_uuid}/company/{company_uuid}/{partner_report_type_key}/<file_name>; "
        "null until complete"
    )
    file_name: str
    file_size: int | None = Field(description="Bytes; null until complete")
    content_type: str | None
    create_timestamp: datetime
    complete_timestamp: datetime | None


class PartnerReportCompositeOut(Schema):
    partner_report: PartnerReportOut
    company: CompanyRef
    partner_report_type: PartnerReportTypeOut


class PartnerReportOrderCompositeOut(Schema):
    partner_report_order_uuid: UUID
    partner_report_order: PartnerReportOrderOut
    partner_report_composites: list[PartnerReportCompositeOut]


class FileSessionIn(Schema):
    app_customer_uuid: UUID
    file_path: str


class FileSessionOut(Schema):
    app_customer_uuid: UUID
    file_path: str
    file_session_uuid: UUID
    expires_timestamp: datetime = Field(description="The session is refused after this moment (extension)")


def report_type_out(report_type: PartnerReportType) -> dict:
    return {
        "uuid": report_type.uuid, "partner_report_type_key": report_type.key, "description": report_type.description,
        "required_role_key": report_type.required_role_key or None,
        "content_role_keys": sorted(content_roles_of(report_type.key)),
    }


def order_out(order: PartnerReportOrder) -> dict:
    return {
        "uuid": order.uuid,
        "app_customer_uuid": order.app_customer_id,
        "partner_report_order_status_key": order.status,
        "failure_reason": order.failure_reason or None,
        "create_timestamp": order.create_timestamp,
        "update_timestamp": order.update_timestamp,
        "complete_timestamp": order.complete_timestamp,
        "app_url": None,  # the dashboard has no page per order yet
    }


def report_composite_out(report: PartnerReport) -> dict:
    complete = report.status == "complete"
    return {
        "partner_report": {
            "uuid": report.uuid,
            "partner_report_order_uuid": report.order_id,
            "company_uuid": report.company_id,
            "partner_report_type_key": report.report_type.key,
            "partner_report_status_key": report.status,
            "file_path": report.file_path if complete else None,
            "file_name": report.file_name,
            "file_size": report.file_size if complete else None,
            "content_type": report.content_type or None,
            "create_timestamp": report.create_timestamp,
            "complete_timestamp": report.complete_timestamp,
        },
        "company": company_ref(report.company),
        "partner_report_type": report_type_out(report.report_type),
    }


def file_session_out(session: FileSession) -> dict:
    return {
        "app_customer_uuid": session.app_customer_id,
        "file_path": session.file_path,
        "file_session_uuid": session.uuid,
        "expires_timestamp": session.expires,
    }
