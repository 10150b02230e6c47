"""Writes: ordering reports, producing them (the task's body) and file sessions.

An order's reports move pending -> processing -> complete | failed; the order follows:
complete when every report is, failed (with a reason naming each failed report) when any
failed. Producing is idempotent: a report already complete is skipped, and a report's
file has a fixed name and is replaced, never duplicated, when produced again (a worker
that died after writing leaves one file, not two).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import DatabaseError, transaction
from django.utils import timezone

from service.auth.principal import Principal
from service.companies.models import Company
from service.errors import BadRequest, NotFound, RoleMissing, field_error
from service.reports.catalog import ALL_CONTENT_ROLES, content_roles_of
from service.reports.models import (
    COMPLETE, FAILED, PROCESSING, FileSession, PartnerReport, PartnerReportOrder, PartnerReportType,
)
from service.reports.paths import report_file_path, report_file_path_parse, storage_name
from service.reports.producers import ProducerError, ReportProducer, producer_get

logger = logging.getLogger(__name__)

MAX_REPORTS_PER_ORDER = 50
MAX_FILE_SESSIONS_PER_REQUEST = 100


@dataclass(frozen=True)
class ReportRequest:
    company_uuid: str
    partner_report_type_key: str


def partner_report_order_create(
    *, principal: Principal, app_customer_uuid: uuid.UUID, requests: list[ReportRequest]
) -> PartnerReportOrder:
    """Validate every requested report (400 listing each bad one; 403 when a type needs a
    role the caller lacks), then create the order and its reports and enqueue production on commit."""
    principal.own_app_customer(app_customer_uuid)
    loc = ["body", "partner_report_composites"]
    if not requests:
        raise BadRequest("Order at least one report.", errors=[field_error(loc, "must not be empty")])
    if len(requests) > MAX_REPORTS_PER_ORDER:
        raise BadRequest(
            f"At most {MAX_REPORTS_PER_ORDER} reports per order.",
            errors=[field_error(loc, f"at most {MAX_REPORTS_PER_ORDER} elements")],
        )
    types = {t.key: t for t in PartnerReportType.objects.all()}
    wanted_uuids = {}
    errors = []
    for index, item in enumerate(requests):
        item_loc = [*loc, index, "partner_report"]
        try:
            wanted_uuids[index] = uuid.UUID(str(item.company_uuid))
        except ValueError:
            errors.append(field_error([*item_loc, "company_uuid"], f"{item.company_uuid!r} is not a uuid"))
        if item.partner_report_type_key not in types:
            errors.append(field_error(
                [*item_loc, "partner_report_type_key"],
                f"unknown report type {item.partner_report_type_key!r}; known: {', '.join(sorted(types))}",
            ))
    companies = Company.objects.in_bulk(set(wanted_uuids.values()))
    for index, company_uuid in wanted_uuids.items():
        if company_uuid not in companies:
            errors.append(field_error([*loc, index, "partner_report", "company_uuid"], f"no company {company_uuid}"))
    if errors:
        errors.sort(key=lambda e: [str(part) for part in e["loc"]])
        fields = "; ".join(f"{e['loc'][2]}: {e['msg']}" for e in errors)
        raise BadRequest(f"Invalid report order ({fields}).", code="invalid_request", errors=errors)
    needed = sorted({types[i.partner_report_type_key].required_role_key for i in requests} - {""})
    missing = [role for role in needed if not principal.has_role(role)]
    if missing:
        raise RoleMissing(missing)

    with transaction.atomic():
        order = PartnerReportOrder.objects.create(
            app_customer_id=app_customer_uuid,
            # The caller's content roles (catalog.CONTENT_ROLES), kept so the task renders what they may see.
            granted_role_keys=sorted(principal.granted_roles & ALL_CONTENT_ROLES),
        )
        reports = []
        for position, item in enumerate(requests):
            report_uuid = uuid.uuid4()
            company = companies[wanted_uuids[position]]
            reports.append(PartnerReport(
                uuid=report_uuid, order=order, app_customer_id=app_customer_uuid, company=company,
                report_type=types[item.partner_report_type_key], position=position,
                file_path=report_file_path(
                    app_customer_uuid=app_customer_uuid, company_uuid=company.uuid,
                    report_type_key=item.partner_report_type_key, report_uuid=report_uuid,
                ),
            ))
        PartnerReport.objects.bulk_create(reports)
        order_uuid = order.uuid

        from service.reports.tasks import partner_report_order_produce

        # robust: a broker that is away does not fail the request; the order is saved and
        # tasks.partner_report_orders_resume enqueues it again.
        transaction.on_commit(lambda: partner_report_order_produce.delay(str(order_uuid)), robust=True)
    return order


def partner_report_order_process(*, order_uuid: uuid.UUID, producer: ReportProducer | None = None) -> str | None:
    """Produce every report of the order that is not complete yet; returns the order's status
    (None when the order is gone). Safe to run again at any point."""
    order = PartnerReportOrder.objects.filter(uuid=order_uuid).select_related("app_customer").first()
    if order is None:
        logger.warning("Partner report order %s is gone; nothing produced.", order_uuid)
        return None
    if order.status in (COMPLETE, FAILED):
        return order.status
    _order_status_set(order, PROCESSING)
    try:
        producer = producer or producer_get()
    except ProducerError as exc:
        producer, setup_error = None, str(exc)
    for report in order.reports.exclude(status__in=(COMPLETE, FAILED)).select_related(
        "company", "report_type"
    ).order_by("position"):
        report.order = order
        if producer is None:
            _report_failed(report, setup_error)
            continue
        _report_produce(report, producer)
    return _order_finish(order)


def _order_status_set(order: PartnerReportOrder, status: str, **fields) -> None:
    now = timezone.now()
    PartnerReportOrder.objects.filter(pk=order.pk).update(status=status, update_timestamp=now, **fields)
    order.status = status


def _report_produce(report: PartnerReport, producer: ReportProducer) -> None:
    PartnerReport.objects.filter(pk=report.pk).update(status=PROCESSING)
    try:
        produced = producer.produce(report)
    except ProducerError as exc:
        _report_failed(report, str(exc))
        return
    except DatabaseError:
        raise  # transient: the task retries, and the report is produced again from scratch
    except Exception:
        logger.exception("Producing partner report %s failed.", report.uuid)
        _report_failed(report, "The report could not be produced because of an internal error; order it again.")
        return
    size = file_write(file_path=report.file_path, content=produced.content)
    PartnerReport.objects.filter(pk=report.pk).update(
        status=COMPLETE, file_size=size, content_type=produced.content_type, complete_timestamp=timezone.now(),
        failure_reason="",
    )


def file_write(*, file_path: str, content: bytes) -> int:
    """Write a report's file at its fixed name, replacing what an earlier (interrupted) run left."""
    name = storage_name(file_path)
    if default_storage.exists(name):
        default_storage.delete(name)
    saved = default_storage.save(name, ContentFile(content))
    if saved != name:  # another run wrote it between our delete and save: keep one file
        default_storage.delete(saved)
    return len(content)


def _report_failed(report: PartnerReport, reason: str) -> None:
    PartnerReport.objects.filter(pk=report.pk).update(status=FAILED, failure_reason=reason[:1000])


def _order_finish(order: PartnerReportOrder) -> str:
    reports = list(order.reports.select_related("company", "report_type").order_by("position"))
    failed = [r for r in reports if r.status == FAILED]
    if failed:
        reason = "; ".join(
            f"{r.report_type.key} for {r.company.name} ({r.company.org_nr}): {r.failure_reason}" for r in failed
        )
        _order_status_set(order, FAILED, failure_reason=reason[:2000])
    elif all(r.status == COMPLETE for r in reports):
        _order_status_set(order, COMPLETE, complete_timestamp=timezone.now(), failure_reason="")
    return order.status


def file_roles_needed(report: PartnerReport) -> list[str]:
    """The roles of its order that changed what the report's file shows: those its type depends on
    (catalog.CONTENT_ROLES). Read at each request, so orders kept before the rule follow it too."""
    return sorted(set(report.order.granted_role_keys) & content_roles_of(report.report_type.key))


def file_roles_require(principal: Principal, report: PartnerReport) -> None:
    """A report's file shows what the roles its order was made with allow (payment remarks with
    credit_check in a company profile or credit report), so it is given, downloaded with auth or as a
    file session, only to a caller granted each of those its type depends on (403 otherwise); a
    session, made by such a caller, carries them. An ownership report depends on none."""
    principal.require(*file_roles_needed(report))


@dataclass(frozen=True)
class FileSessionRequest:
    app_customer_uuid: uuid.UUID
    file_path: str


def file_sessions_create(*, principal: Principal, requests: list[FileSessionRequest]) -> list[FileSession]:
    """One session per requested file: all or nothing. A malformed path is a 400; a path of
    another organisation, or of no complete report, a 404; a report made with a role the caller
    lacks a 403 (file_roles_require); nothing is created then."""
    loc = ["body"]
    if not requests:
        raise BadRequest("Ask for at least one file session.", errors=[field_error(loc, "must not be empty")])
    if len(requests) > MAX_FILE_SESSIONS_PER_REQUEST:
        raise BadRequest(f"At most {MAX_FILE_SESSIONS_PER_REQUEST} file sessions per request.",
                         errors=[field_error(loc, f"at most {MAX_FILE_SESSIONS_PER_REQUEST} elements")])
    for index, item in enumerate(requests):
        report_file_path_parse(item.file_path, loc=["body", index, "file_path"])
    for item in requests:
        principal.own_app_customer(item.app_customer_uuid)
        path = report_file_path_parse(item.file_path, loc=["body"])
        report = PartnerReport.objects.filter(
            app_customer_id=principal.app_customer_uuid, file_path=path.path, status=COMPLETE
        ).select_related("order", "report_type").first()
        if path.app_customer_uuid != principal.app_customer_uuid or report is None:
            raise NotFound(f"No file {item.file_path}.")
        file_roles_require(principal, report)
    expires = timezone.now() + timedelta(hours=settings.VAKT_FILE_SESSION_HOURS)
    sessions = [
        FileSession(app_customer_id=principal.app_customer_uuid, file_path=item.file_path, expires=expires)
        for item in requests
    ]
    FileSession.objects.bulk_create(sessions)
    return sessions
