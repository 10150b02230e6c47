"""Entity monitoring endpoints (spec §4.7; §3's states). Every endpoint needs `aml`; a
monitoring of another config, or of another organisation, is 404.

Monitoring status (DESIGN.md): pending (no decision), active (approved, not removed),
declined (the latest decision declines), removed.
"""

from __future__ import annotations

import uuid

from django.db import transaction
from django.http import HttpRequest
from ninja import Query, Router, Status

from service.audit.services import actor_of
from service.errors import BadRequest, bad_field, field_error
from service.pagination import PageQuery
from service.screening import monitoring_schemas as s
from service.screening import monitoring_selectors as selectors
from service.screening import monitoring_services as services
from service.screening.access import EXTENSION, not_found
from service.screening.config_api import config_of
from service.screening.models import CustomerPerson

router = Router(tags=["Screening monitoring"])

ENTITY_FIELDS = ("monitoring_customer_person_uuid", "monitoring_person_uuid", "monitoring_company_uuid")
PERSON_TYPES = ("beneficial_owners", "alternative_beneficial_owners")
CALLER_MONITORING_ORIGINS = ("api", "user")
CALLER_DECISION_ORIGINS = ("user", "system")  # auto_approve is the service's own


def _membership(request, membership_uuid, loc):
    if membership_uuid is None:
        return None
    return selectors.membership_get(app_customer_uuid=request.auth.app_customer_uuid, membership_uuid=membership_uuid, loc=loc)


def _decision_spec(request, body: s.DecisionIn, loc: list) -> services.DecisionSpec:
    if body.decision_origin_key not in CALLER_DECISION_ORIGINS:
        raise bad_field([*loc, "decision_origin_key"], f"must be one of {', '.join(CALLER_DECISION_ORIGINS)}")
    return services.DecisionSpec(
        approved_flag=body.approved_flag,
        origin_key=body.decision_origin_key,
        comment=body.decision_comment,
        app_membership=_membership(request, body.app_membership_uuid, [*loc, "app_membership_uuid"]),
        api_user_uuid=request.auth.api_user_uuid,
    )


def _check_shape(body: s.EntityMonitoringIn, type_key: str) -> None:
    """Every value error of the monitoring at once (400), before any uuid is looked up."""
    loc = ["body", "entity_monitoring"]
    errors = []
    named = [f for f in ENTITY_FIELDS if getattr(body, f) is not None]
    if len(named) != 1:
        errors += [field_error([*loc, f], "name exactly one entity to monitor") for f in ENTITY_FIELDS]
    if type_key == "company" and named and named != ["monitoring_company_uuid"]:
        errors.append(field_error([*loc, "entity_monitoring_type_uuid"], "the type company monitors a company"))
    if type_key != "company" and "monitoring_company_uuid" in named:
        errors.append(field_error([*loc, "entity_monitoring_type_uuid"], "a company is monitored with the type company"))
    if type_key == "other" and body.related_company_uuid is not None:
        errors.append(field_error([*loc, "related_company_uuid"], "the type other is for entities without a company"))
    if type_key in PERSON_TYPES and body.related_company_uuid is None:
        errors.append(field_error([*loc, "related_company_uuid"], f"the type {type_key} needs the related company"))
    if body.monitoring_origin_key not in CALLER_MONITORING_ORIGINS:
        errors.append(field_error([*loc, "monitoring_origin_key"], "must be api or user"))
    if errors:
        names = ", ".join(dict.fromkeys(e["loc"][-1] for e in errors))
        raise BadRequest(f"Invalid request: check {names}.", code="invalid_request", errors=errors)


def _entity(config, body: s.EntityMonitoringIn):
    loc = ["body", "entity_monitoring"]
    if body.monitoring_customer_person_uuid is not None:
        person = CustomerPerson.objects.filter(uuid=body.monitoring_customer_person_uuid, screening_config=config).first()
        if person is None:
            raise not_found("customer person", body.monitoring_customer_person_uuid, [*loc, "monitoring_customer_person_uuid"])
        return person, "monitoring_customer_person_uuid"
    if body.monitoring_person_uuid is not None:
        return selectors.person_get(person_uuid=body.monitoring_person_uuid, loc=[*loc, "monitoring_person_uuid"]), "monitoring_person_uuid"
    company = selectors.company_get(company_uuid=body.monitoring_company_uuid, loc=[*loc, "monitoring_company_uuid"])
    return company, "monitoring_company_uuid"


@router.post(
    "/screening-config/{screening_config_uuid}/entity-monitoring-composite",
    response={201: s.EntityMonitoringComposite},
    summary="Put an entity into screening",
    description=(
        "Created active when `removed_flag` is false and the decision approves; otherwise pending (a decision "
        "with `approved_flag` false records nothing: the monitoring waits for a decision). Name one entity: "
        "`monitoring_customer_person_uuid` (spec), or, as an extension, `monitoring_person_uuid` (a register "
        "person) or `monitoring_company_uuid` (type `company`). The types `beneficial_owners` and "
        "`alternative_beneficial_owners` need `related_company_uuid`; `other` must not have one. A second "
        "monitoring of the same entity and related company in the config is a 400."
    ),
)
def monitoring_create(request: HttpRequest, screening_config_uuid: uuid.UUID, payload: s.EntityMonitoringCompositeIn):
    config = config_of(request, screening_config_uuid)
    body, loc = payload.entity_monitoring, ["body", "entity_monitoring"]
    monitoring_type = selectors.monitoring_type_get(type_uuid=body.entity_monitoring_type_uuid, loc=[*loc, "entity_monitoring_type_uuid"])
    _check_shape(body, monitoring_type.key)
    entity, entity_field = _entity(config, body)
    related_company = None
    if body.related_company_uuid is not None:
        related_company = selectors.company_get(company_uuid=body.related_company_uuid, loc=[*loc, "related_company_uuid"])
    elif monitoring_type.key == "company":
        related_company = entity
    decision = None
    if payload.entity_monitoring_decision is not None and payload.entity_monitoring_decision.approved_flag:
        decision = _decision_spec(request, payload.entity_monitoring_decision, ["body", "entity_monitoring_decision"])
    monitoring = services.monitoring_create(
        duplicate_loc=[*loc, entity_field],
        removed_flag=body.removed_flag,
        config=config,
        entity=entity,
        related_company=related_company,
        monitoring_type=monitoring_type,
        origin_key=body.monitoring_origin_key,
        comment=body.monitoring_comment,
        app_membership=_membership(request, body.app_membership_uuid, [*loc, "app_membership_uuid"]),
        relationship_start_date=body.relationship_start_date,
        decision=None if body.removed_flag else decision,
    )
    fresh = selectors.monitoring_get(config=config, monitoring_uuid=monitoring.uuid)
    return Status(201, s.monitoring_composite_out(fresh))


class MonitoringQuery(PageQuery):
    no_related_company_flag: bool | None = None
    related_company_uuid: uuid.UUID | None = None
    approval_status_key: str | None = None
    monitoring_entity_uuid: uuid.UUID | None = None


@router.get(
    "/screening-config/{screening_config_uuid}/entity-monitoring-composite",
    response=list[s.EntityMonitoringComposite],
    summary="The config's entity monitorings",
    description=(
        "Oldest first. `approval_status_key`: pending (needs a decision) or active (screened); as an extension "
        "also declined and removed. Without it every monitoring is listed, removed ones with their reason. "
        "Extension: `monitoring_entity_uuid` lists the monitorings of one person, customer person or company "
        "(every company it is monitored for, each with its reason). "
        "`limit` (default 100, at most 1000) and `offset` as in rule 6: the end is reached when fewer than "
        "`limit` come back."
    ),
)
def monitoring_list(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[MonitoringQuery]):
    config = config_of(request, screening_config_uuid)
    page = query.page()
    rows = selectors.monitorings_list(
        config=config,
        no_related_company_flag=query.no_related_company_flag,
        related_company_uuid=query.related_company_uuid,
        approval_status_key=query.approval_status_key,
        entity_uuid=query.monitoring_entity_uuid,
    )[page.offset : page.offset + page.limit]
    return [s.monitoring_composite_out(m) for m in rows]


@router.get(
    "/screening-config/{screening_config_uuid}/entity-monitoring-composite/{entity_monitoring_uuid}",
    response=s.EntityMonitoringComposite,
    summary="Extension: one entity monitoring with its decisions",
    openapi_extra=EXTENSION,
)
def monitoring_detail(request: HttpRequest, screening_config_uuid: uuid.UUID, entity_monitoring_uuid: uuid.UUID):
    config = config_of(request, screening_config_uuid)
    return s.monitoring_composite_out(selectors.monitoring_get(config=config, monitoring_uuid=entity_monitoring_uuid))


@router.post(
    "/screening-config/{screening_config_uuid}/entity-monitoring-decision",
    response={201: s.EntityMonitoringComposite},
    summary="Approve or decline a monitoring",
    description=(
        "Appends a decision; the latest decision sets the status (approved: active, declined: declined). "
        "`app_membership_uuid` must be a member of the calling organisation; `decision_origin_key` is user "
        "(default) or system. A monitoring of another config is 404; a removed one is 400. Answers the "
        "monitoring with its decisions (extension: the spec does not show this body)."
    ),
)
def decision_create(request: HttpRequest, screening_config_uuid: uuid.UUID, payload: s.DecisionPostIn):
    config = config_of(request, screening_config_uuid)
    loc = ["body", "entity_monitoring_uuid"]
    monitoring = selectors.monitoring_get(config=config, monitoring_uuid=payload.entity_monitoring_uuid, loc=loc)
    spec = _decision_spec(request, payload, ["body"])
    services.decision_record(monitoring=monitoring, spec=spec)
    return Status(201, s.monitoring_composite_out(selectors.monitoring_get(config=config, monitoring_uuid=monitoring.uuid)))


@router.patch(
    "/screening-config/{screening_config_uuid}/entity-monitoring/{entity_monitoring_uuid}",
    response=s.EntityMonitoringComposite,
    summary="Extension: remove a monitoring, saying why",
    description=(
        "`removed_flag` true with a `removal_reason` stops screening the entity. Removal is final for the "
        "monitoring: to screen the entity again, create a new one (so an old approval never revives)."
    ),
    openapi_extra=EXTENSION,
)
def monitoring_remove(
    request: HttpRequest, screening_config_uuid: uuid.UUID, entity_monitoring_uuid: uuid.UUID, payload: s.MonitoringPatchIn
):
    config = config_of(request, screening_config_uuid)
    monitoring = selectors.monitoring_get(config=config, monitoring_uuid=entity_monitoring_uuid)
    if not payload.removed_flag:
        if monitoring.removed_flag:
            raise bad_field(["body", "removed_flag"], "a removed monitoring stays removed; create a new one")
        return s.monitoring_composite_out(monitoring)
    reason = " ".join(payload.removal_reason.split())
    if not reason:
        raise bad_field(["body", "removal_reason"], "say why the monitoring is removed")
    actor = actor_of(request, _membership(request, payload.app_membership_uuid, ["body", "app_membership_uuid"]))
    with transaction.atomic():
        services.monitoring_remove(monitoring=monitoring, reason=reason, actor=actor)
    return s.monitoring_composite_out(selectors.monitoring_get(config=config, monitoring_uuid=monitoring.uuid))
