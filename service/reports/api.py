"""Partner reports and files (spec §4.4, §5.4; CONTRACT.md "Partner reports and files").

Workflow: order, poll the order until complete, read the report composite for the file
path, then download it with the API's auth, or with a file session (a browser link
without an authorization header).
"""

from __future__ import annotations

import uuid

from django.core.files.storage import default_storage
from django.http import FileResponse, HttpRequest
from ninja import Field, Query, Router, Schema
from ninja.responses import Status

from service.auth.authentication import api_auth
from service.auth.principal import principal_of
from service.errors import NotFound, bad_field
from service.pagination import page_from
from service.reports import schemas as s
from service.reports import selectors, services
from service.reports.file_session_auth import FileSessionAuth, FileSessionGrant
from service.reports.paths import BUCKET, report_file_path_parse, storage_name

router = Router(tags=["Partner reports and files"])
EXTENSION = {"x-vakt-extension": True}


@router.get(
    "/partner-report-type",
    response=list[s.PartnerReportTypeOut],
    summary="Extension: the report types that can be ordered",
    description=(
        "Each with `required_role_key` (the role needed to order it) and `content_role_keys` (the roles that change "
        "what it shows: an order keeps the caller's, and a report's file is given only to callers holding those "
        "of them its type lists)."
    ),
    openapi_extra=EXTENSION,
)
def report_types(request: HttpRequest):
    return [s.report_type_out(t) for t in selectors.report_types_list()]


@router.post(
    "/app-customer/{app_customer_uuid}/partner-report-order-composite",
    response={201: s.PartnerReportOrderCompositeOut},
    summary="Order one or more partner reports",
    description=(
        "All or nothing: a 400 lists every bad element. `credit_report` needs the `credit_check` role (403). "
        "The reports are produced in the background; poll the order until its status is `complete`."
    ),
)
def order_create(request: HttpRequest, app_customer_uuid: uuid.UUID, body: s.PartnerReportOrderIn):
    order = services.partner_report_order_create(
        principal=principal_of(request),
        app_customer_uuid=app_customer_uuid,
        requests=[
            services.ReportRequest(c.partner_report.company_uuid, c.partner_report.partner_report_type_key)
            for c in body.partner_report_composites
        ],
    )
    order.refresh_from_db()
    reports = selectors.reports_list(
        app_customer_uuid=app_customer_uuid, page=page_from(None, None, maximum=1000), order_uuid=order.uuid
    )
    return Status(201, {
        "partner_report_order_uuid": order.uuid,
        "partner_report_order": s.order_out(order),
        "partner_report_composites": [s.report_composite_out(r) for r in sorted(reports, key=lambda r: r.position)],
    })


@router.get(
    "/app-customer/{app_customer_uuid}/partner-report-order/{partner_report_order_uuid}",
    response=s.PartnerReportOrderOut,
    summary="A partner report order and its status",
)
def order_detail(request: HttpRequest, app_customer_uuid: uuid.UUID, partner_report_order_uuid: uuid.UUID):
    principal_of(request).own_app_customer(app_customer_uuid)
    return s.order_out(selectors.order_get(app_customer_uuid=app_customer_uuid, order_uuid=partner_report_order_uuid))


class ReportQuery(Schema):
    company_identifier: str | None = Field(None, description="A company uuid or a schema-prefixed org nr")
    partner_report_type_identifiers: str | None = Field(None, description="Comma-separated report type keys or uuids")
    partner_report_order_uuid: uuid.UUID | None = None
    limit: int | None = Field(None, description="Default 100, at most 1000")
    offset: int | None = None


@router.get(
    "/app-customer/{app_customer_uuid}/partner-report-composite",
    response=list[s.PartnerReportCompositeOut],
    summary="Partner report metadata, with the file path once complete",
    description="Newest first. `file_path` is null until the report is complete.",
)
def report_list(request: HttpRequest, app_customer_uuid: uuid.UUID, query: Query[ReportQuery]):
    principal_of(request).own_app_customer(app_customer_uuid)
    reports = selectors.reports_list(
        app_customer_uuid=app_customer_uuid,
        page=page_from(query.limit, query.offset),
        company_identifier=query.company_identifier,
        report_type_identifiers=query.partner_report_type_identifiers,
        order_uuid=query.partner_report_order_uuid,
    )
    return [s.report_composite_out(r) for r in reports]


@router.post(
    "/file-session",
    response={201: list[s.FileSessionOut]},
    summary="File sessions: download links that need no authorization header",
    description=(
        "One session per element, bound to that one file and valid for one day (the file stays). All or "
        "nothing: a malformed path is 400; another organisation's path or a file that does not exist is 404; "
        "a report ordered with a role its type's content depends on (`content_role_keys` of its type: a company "
        "profile or credit report ordered with `credit_check` shows payment remarks) needs that role (403); an "
        "ownership report needs none."
    ),
)
def file_session_create(request: HttpRequest, body: list[s.FileSessionIn]):
    sessions = services.file_sessions_create(
        principal=principal_of(request),
        requests=[services.FileSessionRequest(item.app_customer_uuid, item.file_path) for item in body],
    )
    return Status(201, [s.file_session_out(session) for session in sessions])


@router.get(
    "/file/{path:file_path}",
    auth=[*api_auth("analysis"), FileSessionAuth()],
    response={200: None},
    summary="Download a report file",
    description=(
        "With basic or token auth for the organisation that owns the file, or with "
        f"`?file_session_uuid=...&bucket_name={BUCKET}` and no authorization header. A malformed path "
        "(`..`, absolute, backslashes, encoded characters) or another bucket is 400; an unknown, expired or "
        "malformed session is 401; another organisation's file, or a session made for another file, is 404. "
        "With auth, a report ordered with a role its type's content depends on (`content_role_keys` of its type: "
        "`credit_check` for a company profile or credit report) needs that role (403)."
    ),
)
def file_download(
    request: HttpRequest, file_path: str, file_session_uuid: str | None = None, bucket_name: str | None = None
):
    if bucket_name is not None and bucket_name != BUCKET:
        raise bad_field(["query", "bucket_name"], f"unknown bucket; report files are in {BUCKET!r}", code="invalid_bucket")
    path = report_file_path_parse(file_path, loc=["path", "file_path"])
    grant = request.auth
    if isinstance(grant, FileSessionGrant):
        if bucket_name is None:
            raise bad_field(["query", "bucket_name"], f"required with a file session; use {BUCKET!r}")
        if grant.file_path != path.path:
            raise NotFound("No such file.")
        owner = grant.app_customer_uuid
    else:
        owner = principal_of(request).app_customer_uuid
    if path.app_customer_uuid != owner:
        raise NotFound("No such file.")
    report = selectors.report_file_get(app_customer_uuid=owner, file_path=path.path)
    if not isinstance(grant, FileSessionGrant):
        services.file_roles_require(principal_of(request), report)
    name = storage_name(report.file_path)
    if not default_storage.exists(name):
        raise NotFound("No such file.")
    download = f"{report.report_type.key}_{report.company.org_nr_schema}{report.company.org_nr}.pdf"
    response = FileResponse(
        default_storage.open(name, "rb"), content_type=report.content_type or "application/pdf",
        as_attachment=True, filename=download,
    )
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response
