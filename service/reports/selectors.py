"""Reads of partner reports, orders and file sessions, always scoped to the calling organisation.

Another organisation's order, report, file or session is a 404, as an unknown one.
"""

from __future__ import annotations

import uuid

from django.db.models import QuerySet
from django.utils import timezone

from service.companies.identifiers import company_identifier_parse
from service.errors import NotFound, bad_field
from service.pagination import Page
from service.reports.models import COMPLETE, PENDING, PROCESSING, FileSession, PartnerReport, PartnerReportOrder, PartnerReportType


def orders_open_uuids(*, untouched_since) -> list[uuid.UUID]:
    """Orders of every organisation still pending or processing and not updated since then."""
    return list(
        PartnerReportOrder.objects.filter(status__in=(PENDING, PROCESSING), update_timestamp__lt=untouched_since)
        .order_by("create_timestamp").values_list("uuid", flat=True)
    )


def report_types_list() -> list[PartnerReportType]:
    return list(PartnerReportType.objects.order_by("key"))


def order_get(*, app_customer_uuid: uuid.UUID, order_uuid: uuid.UUID) -> PartnerReportOrder:
    order = PartnerReportOrder.objects.filter(uuid=order_uuid, app_customer_id=app_customer_uuid).first()
    if order is None:
        raise NotFound(f"No partner report order {order_uuid}.")
    return order


def _reports() -> QuerySet:
    return PartnerReport.objects.select_related("company", "report_type")


def reports_list(
    *,
    app_customer_uuid: uuid.UUID,
    page: Page,
    company_identifier: str | None = None,
    report_type_identifiers: str | None = None,
    order_uuid: uuid.UUID | None = None,
) -> list[PartnerReport]:
    """The organisation's reports, newest first, filtered as asked (400 for a bad filter)."""
    reports = _reports().filter(app_customer_id=app_customer_uuid)
    if company_identifier:
        parsed = company_identifier_parse(company_identifier, loc=["query", "company_identifier"])
        if parsed.company_uuid:
            reports = reports.filter(company_id=parsed.company_uuid)
        else:
            reports = reports.filter(company__org_nr_schema=parsed.org_nr_schema, company__org_nr=parsed.org_nr)
    if report_type_identifiers:
        reports = reports.filter(report_type__in=report_types_resolve(report_type_identifiers))
    if order_uuid is not None:
        reports = reports.filter(order_id=order_uuid)
    ordered = reports.order_by("-create_timestamp", "-order_id", "position")
    return list(ordered[page.offset : page.offset + page.limit])


def report_types_resolve(identifiers: str) -> list[PartnerReportType]:
    wanted = [part.strip() for part in identifiers.split(",") if part.strip()]
    known = {t.key: t for t in PartnerReportType.objects.all()} | {str(t.uuid): t for t in PartnerReportType.objects.all()}
    unknown = [part for part in wanted if part not in known]
    if unknown:
        keys = ", ".join(sorted(k for k in known if "-" not in k))
        raise bad_field(["query", "partner_report_type_identifiers"], f"unknown report type(s) {', '.join(unknown)}; known: {keys}")
    return [known[part] for part in wanted]


def report_file_get(*, app_customer_uuid: uuid.UUID, file_path: str) -> PartnerReport:
    """The organisation's complete report with this file path, else 404."""
    report = (
        _reports().filter(app_customer_id=app_customer_uuid, file_path=file_path, status=COMPLETE)
        .select_related("order").first()
    )
    if report is None:
        raise NotFound("No such file.")
    return report


def file_session_active(*, session_uuid: str) -> FileSession | None:
    """A session that exists and has not expired; None for anything else (malformed, unknown, expired)."""
    try:
        parsed = uuid.UUID(session_uuid)
    except (TypeError, ValueError):
        return None
    return FileSession.objects.filter(uuid=parsed, expires__gt=timezone.now()).first()
