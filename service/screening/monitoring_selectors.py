"""Reads of entity monitorings, scoped to a config of the calling organisation.

The screening rule of spec §3 is spelled once, in `screened_q()`:

    an entity is screened iff its monitoring is not removed and the latest decision approves it.

`monitorings_screened` (what a screening run reads: every screened entity of a config in
one query), the `active` filter and `monitoring_status_key` all follow from it.
"""

from __future__ import annotations

import uuid

from django.db.models import Case, CharField, OuterRef, Q, QuerySet, Subquery, Value, When

from service.auth.models import AppMembership
from service.auth.selectors import membership_active_check
from service.companies.models import Company, Person
from service.errors import bad_field
from service.screening.access import found, not_found
from service.screening.models import EntityInquiry, EntityMonitoring, EntityMonitoringType, ScreeningConfig

STATUS_KEYS = ("pending", "active", "declined", "removed")


def screened_q(prefix: str = "") -> Q:
    """THE screening rule (spec §3), as a filter on entity monitorings."""
    return Q(**{f"{prefix}removed_flag": False, f"{prefix}latest_decision__approved_flag": True})


def _status_q(status_key: str) -> Q:
    if status_key == "active":
        return screened_q()
    if status_key == "pending":
        return Q(removed_flag=False, latest_decision__isnull=True)
    if status_key == "declined":
        return Q(removed_flag=False, latest_decision__approved_flag=False)
    return Q(removed_flag=True)


def monitoring_status_expression() -> Case:
    """A monitoring's status key in SQL, from the same filters as the status filter."""
    return Case(*(When(_status_q(key), then=Value(key)) for key in STATUS_KEYS), output_field=CharField())


def monitoring_status_key(monitoring: EntityMonitoring) -> str:
    """pending (no decision), active (screened), declined, removed: the same rule on one row."""
    if monitoring.removed_flag:
        return "removed"
    decision = monitoring.latest_decision
    if decision is None:
        return "pending"
    return "active" if decision.approved_flag else "declined"


def _with_relations(queryset: QuerySet[EntityMonitoring]) -> QuerySet[EntityMonitoring]:
    # The entity's inquiry in this config (one per config + entity), once a run has found a hit.
    inquiry = EntityInquiry.objects.filter(
        screening_config=OuterRef("screening_config"),
        inquiry_entity_key=OuterRef("entity_key"),
        inquiry_entity_uuid=OuterRef("entity_uuid"),
    ).values("uuid")[:1]
    return (
        queryset.select_related(
            "entity_monitoring_type", "latest_decision", "person", "customer_person", "company", "related_company",
            "evidence",
        )
        .prefetch_related("decisions")
        .annotate(entity_inquiry_uuid=Subquery(inquiry))
    )


def monitorings_screened(*, screening_config: ScreeningConfig) -> QuerySet[EntityMonitoring]:
    """Every screened entity of the config (one query; the index on config + removed_flag)."""
    return EntityMonitoring.objects.filter(screened_q(), screening_config=screening_config)


def monitorings_screening_owed_uuids(*, owed_before, limit: int) -> list[uuid.UUID]:
    """Screened monitorings whose screening an approval asked for before `owed_before` and that
    has not run (its message lost, or still queued): at most `limit`, the oldest first."""
    config_uuids = (
        EntityMonitoring.objects.filter(screening_owed_timestamp__lt=owed_before)
        .values_list("screening_config_id", flat=True).distinct()
    )
    owed = []
    for config in ScreeningConfig.objects.filter(uuid__in=list(config_uuids)).order_by("uuid"):
        owed += monitorings_screened(screening_config=config).filter(screening_owed_timestamp__lt=owed_before).order_by(
            "screening_owed_timestamp", "uuid"
        ).values_list("uuid", flat=True)[: limit - len(owed)]
        if len(owed) >= limit:
            break
    return owed


def monitorings_list(
    *,
    config: ScreeningConfig,
    no_related_company_flag: bool | None = None,
    related_company_uuid: uuid.UUID | None = None,
    approval_status_key: str | None = None,
    entity_uuid: uuid.UUID | None = None,
) -> QuerySet[EntityMonitoring]:
    queryset = EntityMonitoring.objects.filter(screening_config=config)
    if entity_uuid is not None:
        queryset = queryset.filter(Q(person_id=entity_uuid) | Q(customer_person_id=entity_uuid) | Q(company_id=entity_uuid))
    if no_related_company_flag is not None:
        queryset = queryset.filter(related_company__isnull=no_related_company_flag)
    if related_company_uuid is not None:
        queryset = queryset.filter(related_company_id=related_company_uuid)
    if approval_status_key is not None:
        if approval_status_key not in STATUS_KEYS:
            raise bad_field(["query", "approval_status_key"], f"must be one of {', '.join(STATUS_KEYS)}")
        queryset = queryset.filter(_status_q(approval_status_key))
    return _with_relations(queryset).order_by("create_timestamp", "uuid")


def monitoring_get(*, config: ScreeningConfig, monitoring_uuid: uuid.UUID, loc: list | None = None) -> EntityMonitoring:
    monitoring = _with_relations(EntityMonitoring.objects.filter(screening_config=config, uuid=monitoring_uuid)).first()
    if monitoring is None:
        raise not_found("entity monitoring", monitoring_uuid, loc)
    return monitoring


def membership_get(*, app_customer_uuid: uuid.UUID, membership_uuid: uuid.UUID, loc: list) -> AppMembership:
    """An active member of the organisation; unknown or another's is 404, deactivated a 400 naming `loc`."""
    return membership_active_check(
        found(
            AppMembership.objects.filter(uuid=membership_uuid, app_customer_id=app_customer_uuid), "app membership", membership_uuid, loc
        ),
        loc,
    )


def monitoring_type_get(*, type_uuid: uuid.UUID, loc: list) -> EntityMonitoringType:
    return found(
        EntityMonitoringType.objects.filter(uuid=type_uuid), "entity monitoring type", type_uuid, loc
    )


def company_get(*, company_uuid: uuid.UUID, loc: list) -> Company:
    return found(Company.objects.filter(uuid=company_uuid), "company", company_uuid, loc)


def person_get(*, person_uuid: uuid.UUID, loc: list) -> Person:
    return found(Person.objects.filter(uuid=person_uuid), "person", person_uuid, loc)
