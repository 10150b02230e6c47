"""Legal holds on screening records (extension): keep a former customer's records past the
retention period while an investigation needs them. Every endpoint needs `aml`."""

from __future__ import annotations

import uuid

from django.http import HttpRequest
from ninja import Query, Router, Status

from service.openapi import conflict_answer
from service.pagination import PageQuery
from service.screening import hold_schemas as s
from service.screening import hold_selectors as selectors
from service.screening import hold_services as services
from service.screening.access import EXTENSION, aml_principal
from service.screening.config_api import acting, config_of

router = Router(tags=["Screening records holds"])


class RecordsHoldQuery(PageQuery):
    entity_key: s.EntityKey | None = None
    entity_uuid: uuid.UUID | None = None
    in_force_flag: bool | None = None


@router.post(
    "/screening-config/{screening_config_uuid}/records-hold",
    response={201: s.RecordsHoldOut},
    summary="Extension: keep an entity's screening records past the retention period",
    description=(
        "A legal hold: while it is in force the customer person, person or company keeps its screening records "
        "(monitorings, cases, reviews; a customer person itself) in this config past the config's retention period "
        "(effective_records_retention_years); a hold on a company keeps those of the persons screened for it too. "
        "A 404 naming `entity_uuid` when the config has no records of the entity; a 400 `already_held` when a hold "
        "on it is in force."
    ),
    openapi_extra=EXTENSION,
)
def records_hold_place(request: HttpRequest, screening_config_uuid: uuid.UUID, payload: s.RecordsHoldIn):
    config = config_of(request, screening_config_uuid)
    hold = services.records_hold_place(
        config=config, entity_key=payload.entity_key, entity_uuid=payload.entity_uuid, reason=payload.reason,
        actor=acting(request, payload.app_membership_uuid),
    )
    return Status(201, s.records_hold_out(hold))


@router.get(
    "/screening-config/{screening_config_uuid}/records-hold",
    response=list[s.RecordsHoldOut],
    summary="Extension: the config's holds on screening records",
    description=(
        "Newest first; `entity_key` and `entity_uuid` narrow them to one entity, `in_force_flag` to those in force "
        "(true) or released (false); `limit` (default 100, at most 1000) and `offset` as in rule 6."
    ),
    openapi_extra=EXTENSION,
)
def records_hold_list(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[RecordsHoldQuery]):
    config = config_of(request, screening_config_uuid)
    page = query.page()
    holds = selectors.records_holds_list(
        config=config, entity_key=query.entity_key, entity_uuid=query.entity_uuid, in_force=query.in_force_flag
    )
    holds = list(holds[page.offset : page.offset + page.limit])
    labels = services.entity_labels([(hold.entity_key, hold.entity_uuid) for hold in holds])
    return [s.records_hold_out(hold, label=labels.get((hold.entity_key, hold.entity_uuid), "")) for hold in holds]


@router.post(
    "/records-hold/{records_hold_uuid}/release",
    response={200: s.RecordsHoldOut, 202: s.RecordsHoldOut},
    summary="Extension: release a hold on screening records",
    description=(
        "`release_reason` says why the records need not be kept any longer. From now they are deleted when their "
        "retention period is over (by the next daily pass when it is over already). The hold stays as history "
        "until the records go. Releasing twice is a 400 `already_released`. With the config's "
        "`four_eyes_review_flag` a release takes two members: the first call asks for it (202; the hold stays in "
        "force, with `release_requested_*`), a call naming another member confirms it (200); the one who asked "
        "confirming is a 409 `four_eyes_required`, a call naming no member a 400 `member_required`. "
        "`confirm_request_flag` says which of the two the caller means, so that a page read before another "
        "member asked or withdrew does not do the other."
    ),
    openapi_extra=EXTENSION | conflict_answer("Four-eyes review: another member must confirm the release (four_eyes_required)"),
)
def records_hold_release(request: HttpRequest, records_hold_uuid: uuid.UUID, payload: s.RecordsHoldReleaseIn):
    hold = _hold_of(request, records_hold_uuid)
    hold, released = services.records_hold_release(
        hold=hold, release_reason=payload.release_reason, confirm_request=payload.confirm_request_flag,
        actor=acting(request, payload.app_membership_uuid),
    )
    return Status(200 if released else 202, s.records_hold_out(hold))


@router.post(
    "/records-hold/{records_hold_uuid}/keep",
    response=s.RecordsHoldOut,
    summary="Extension: turn down a release asked for under four-eyes review",
    description=(
        "`keep_reason` says why the records are still needed. The hold stays in force with no release waiting "
        "(the member who asked may withdraw so). A 400 `no_release_requested` when none waits, `already_released` "
        "when the hold is released."
    ),
    openapi_extra=EXTENSION,
)
def records_hold_keep(request: HttpRequest, records_hold_uuid: uuid.UUID, payload: s.RecordsHoldKeepIn):
    hold = _hold_of(request, records_hold_uuid)
    hold = services.records_hold_keep(hold=hold, keep_reason=payload.keep_reason, actor=acting(request, payload.app_membership_uuid))
    return s.records_hold_out(hold)


def _hold_of(request: HttpRequest, records_hold_uuid: uuid.UUID):
    principal = aml_principal(request)
    return selectors.records_hold_get(app_customer_uuid=principal.app_customer_uuid, records_hold_uuid=records_hold_uuid)


@router.get(
    "/screening-config/{screening_config_uuid}/records-retention",
    response=s.EntityRecordsOut,
    summary="Extension: until when an entity's screening records are kept, and whether a hold keeps them",
    description=(
        "For a customer person, register person or company with screening records in the config: when the "
        "relationship ended, when the records are deleted (`retained_until`) and the hold in force. A 404 naming "
        "`entity_uuid` when the config has no records of it."
    ),
    openapi_extra=EXTENSION,
)
def records_retention_get(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[s.EntityRecordsQuery]):
    config = config_of(request, screening_config_uuid)
    records = selectors.entity_records_get(config=config, entity_key=query.entity_key, entity_uuid=query.entity_uuid)
    hold = selectors.records_holds_list(
        config=config, entity_key=query.entity_key, entity_uuid=query.entity_uuid, in_force=True
    ).first()
    company_holds = selectors.company_holds_keeping(config=config, entity_key=query.entity_key, entity_uuid=query.entity_uuid)
    return s.entity_records_out(records, hold, company_holds)
