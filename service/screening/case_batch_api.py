"""Extension endpoints: the same review, or the same assignee, for several cases at once.

An officer who has checked a page of obvious false positives closes them in one go; a team lead
hands a page of cases to a colleague. Only open cases are reviewed in a batch: a closed decision,
a confirmed hit above all, is changed case by case. Each case is reviewed or assigned exactly as the one-case
endpoints do it (the four-eyes rule per case, an audit record each), and the batch is all or
none: an unknown case, a case the four-eyes rule refuses or a bad field writes nothing.
"""

from __future__ import annotations

import uuid

from django.http import HttpRequest
from ninja import Router, Status

from service.errors import BadRequest, bad_field, field_error
from service.openapi import conflict_answer
from service.screening import case_schemas as s
from service.screening import case_selectors as selectors
from service.screening import case_services as services
from service.screening.access import EXTENSION
from service.screening.case_api import composites, review_of
from service.screening.config_api import acting, config_of

router = Router(tags=["Screening cases"])

CASES_LOC = ["body", "screening_case_uuids"]


def _cases(config, case_uuids: list[uuid.UUID]) -> list:
    repeated = [field_error([*CASES_LOC, i], "listed twice") for i, value in enumerate(case_uuids) if value in case_uuids[:i]]
    if repeated:
        raise BadRequest("Invalid value for screening_case_uuids: a case is listed twice.", code="invalid_parameter", errors=repeated)
    return selectors.cases_get(config=config, case_uuids=case_uuids, loc=CASES_LOC)


def _answer(config, cases: list) -> list[dict]:
    """The cases' composites as they are now, in the order asked."""
    fresh = selectors.cases_get(config=config, case_uuids=[case.uuid for case in cases], loc=CASES_LOC)
    return composites(config, fresh)


@router.post(
    "/screening-config/{screening_config_uuid}/screening-case-review-batch",
    response={201: list[s.ScreeningCaseComposite]},
    summary="Extension: record the same review of several screening cases",
    description=(
        f"`screening_case_uuids`: 1 to {s.BATCH_MAX} of the config's open cases (pending or ongoing), each once; the "
        "other fields as in `screening-case-review`. Each case is reviewed as that endpoint reviews one (its status "
        "follows the review; the four-eyes rule applies per case; an audit record each). All or none: a case of "
        "another config or organisation is a 404 naming its place in the list; a complete case (`case_complete`: a "
        "closed decision is changed case by case) or a case the four-eyes rule refuses (`four_eyes_required`) is a "
        "409 naming it; nothing is written. Answers the cases' composites in the order sent."
    ),
    openapi_extra={**EXTENSION, **conflict_answer(
        "A case is complete already (case_complete), or the four-eyes rule needs a second member for one (four_eyes_required)"
    )},
)
def review_batch_create(request: HttpRequest, screening_config_uuid: uuid.UUID, payload: s.ReviewBatchIn):
    config = config_of(request, screening_config_uuid)
    cases = _cases(config, payload.screening_case_uuids)
    services.reviews_record(cases=cases, loc=CASES_LOC, **review_of(request, payload))
    return Status(201, _answer(config, cases))


@router.post(
    "/screening-config/{screening_config_uuid}/screening-case-assignment-batch",
    response=list[s.ScreeningCaseComposite],
    summary="Extension: assign several screening cases to a member, or unassign them",
    description=(
        f"`screening_case_uuids`: 1 to {s.BATCH_MAX} of the config's cases, each once. "
        "`assignee_app_membership_uuid` (required): an active member of the calling organisation, or null to "
        "unassign. `app_membership_uuid`: who assigns, for the audit log. All or none, as the review batch. "
        "Answers the cases' composites in the order sent."
    ),
    openapi_extra=EXTENSION,
)
def assignment_batch_create(request: HttpRequest, screening_config_uuid: uuid.UUID, payload: s.AssignmentBatchIn):
    config = config_of(request, screening_config_uuid)
    if "assignee_app_membership_uuid" not in payload.model_fields_set:
        raise bad_field(["body", "assignee_app_membership_uuid"], "is required (null unassigns)")
    cases = _cases(config, payload.screening_case_uuids)
    services.cases_assign(
        cases=cases,
        app_customer_uuid=request.auth.app_customer_uuid,
        assignee_uuid=payload.assignee_app_membership_uuid,
        actor=acting(request, payload.app_membership_uuid),
    )
    return _answer(config, cases)
