"""The screening case report (spec §4.7) and case assignment (extension). Both need `aml`;
a config or case of another organisation is 404."""

from __future__ import annotations

import base64
import uuid

from django.http import HttpRequest
from ninja import Router, Schema

from service.auth.models import AppCustomer
from service.errors import bad_field
from service.screening import case_selectors as selectors
from service.screening import case_services as services
from service.screening.access import EXTENSION, screening_app_url
from service.screening.case_api import composites
from service.screening.case_report import case_report_render, case_report_uuid
from service.screening.case_schemas import ScreeningCaseComposite
from service.screening.config_api import acting, config_of

router = Router(tags=["Screening cases"])


class CaseReportOut(Schema):
    uuid: uuid.UUID
    grid_alert_uuid: uuid.UUID | None
    pdf_base64: str
    app_url: str | None


class CaseAssignIn(Schema):
    assignee_app_membership_uuid: uuid.UUID | None = None  # required; null unassigns (checked in the endpoint)
    app_membership_uuid: uuid.UUID | None = None  # who assigns (the audit actor), an active member


def _uuid_param(raw: str | None, name: str) -> uuid.UUID:
    if raw is None or not raw.strip():
        raise bad_field(["query", name], "is required")
    try:
        return uuid.UUID(raw.strip())
    except ValueError:
        raise bad_field(["query", name], f"not a uuid: {raw}") from None


@router.get(
    "/screening-config/{screening_config_uuid}/screening-case-report",
    response=list[CaseReportOut],
    summary="The PDF report of a screening case",
    description=(
        "Selects the case by `screening_case_uuid` (required). Rendered on request from the case as it stands: "
        "the screened entity and why it is monitored, the list entry with its source, the score with the "
        "engine's explanation and the review history. `uuid` follows the case's latest review."
    ),
)
def case_report(request: HttpRequest, screening_config_uuid: uuid.UUID, screening_case_uuid: str | None = None):
    config = config_of(request, screening_config_uuid)
    case_uuid = _uuid_param(screening_case_uuid, "screening_case_uuid")
    case = selectors.case_get(config=config, case_uuid=case_uuid, loc=["query", "screening_case_uuid"])
    monitorings = selectors.monitorings_of_cases(config=config, cases=[case]).get(case.entity_inquiry.inquiry_entity_uuid, [])
    organisation = AppCustomer.objects.get(uuid=request.auth.app_customer_uuid)
    pdf = case_report_render(case=case, monitorings=monitorings, organisation_name=organisation.name)
    return [
        {
            "uuid": case_report_uuid(case),
            "grid_alert_uuid": None,
            "pdf_base64": base64.b64encode(pdf).decode("ascii"),
            "app_url": screening_app_url(f"/screening/cases/{case.uuid}/"),
        }
    ]


@router.patch(
    "/screening-config/{screening_config_uuid}/screening-case/{screening_case_uuid}",
    response=ScreeningCaseComposite,
    summary="Extension: assign a screening case to a member, or unassign it",
    description=(
        "`assignee_app_membership_uuid`: a membership of the calling organisation, or null to unassign "
        "(400 naming the field otherwise; a deactivated member too). `app_membership_uuid`: who assigns, for the "
        "audit log. Answers the case composite."
    ),
    openapi_extra=EXTENSION,
)
def case_assign(request: HttpRequest, screening_config_uuid: uuid.UUID, screening_case_uuid: uuid.UUID, payload: CaseAssignIn):
    config = config_of(request, screening_config_uuid)
    case = selectors.case_get(config=config, case_uuid=screening_case_uuid)
    if "assignee_app_membership_uuid" not in payload.model_fields_set:
        raise bad_field(["body", "assignee_app_membership_uuid"], "is required (null unassigns)")
    services.case_assign(
        case=case,
        app_customer_uuid=request.auth.app_customer_uuid,
        assignee_uuid=payload.assignee_app_membership_uuid,
        actor=acting(request, payload.app_membership_uuid),
    )
    return composites(config, [selectors.case_get(config=config, case_uuid=case.uuid)])[0]
