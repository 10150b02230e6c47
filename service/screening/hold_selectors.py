"""Reads of legal holds on screening records and of how long an entity's records are kept,
scoped to the calling organisation."""

from __future__ import annotations

import uuid

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from service.errors import not_found
from service.screening.models import CustomerPerson, EntityMonitoring, ScreeningConfig, ScreeningRecordsHold
from service.screening.records_retention import (
    companies_monitored_for, customer_person_ended, customer_person_held, entities_ended,
)


HOLD_RELATED = ("screening_config", "app_membership", "released_by", "release_requested_by")  # what its Out reads


def records_holds_list(
    *, config: ScreeningConfig, entity_key: str | None = None, entity_uuid: uuid.UUID | None = None,
    in_force: bool | None = None,
) -> QuerySet[ScreeningRecordsHold]:
    """The config's holds, newest first; narrowed to one entity and to those in force or released."""
    holds = ScreeningRecordsHold.objects.filter(screening_config=config)
    if entity_key is not None:
        holds = holds.filter(entity_key=entity_key)
    if entity_uuid is not None:
        holds = holds.filter(entity_uuid=entity_uuid)
    if in_force is not None:
        holds = holds.filter(released_timestamp__isnull=in_force)
    return holds.select_related(*HOLD_RELATED).order_by("-create_timestamp", "uuid")


def records_hold_get(*, app_customer_uuid: uuid.UUID, records_hold_uuid: uuid.UUID) -> ScreeningRecordsHold:
    hold = (
        ScreeningRecordsHold.objects.filter(pk=records_hold_uuid, screening_config__app_customer_id=app_customer_uuid)
        .select_related(*HOLD_RELATED).first()
    )
    if hold is None:
        raise not_found("records hold", records_hold_uuid)
    return hold


def records_not_found(*, entity_key: str, entity_uuid: uuid.UUID, where: str) -> Exception:
    """The 404 for an entity the config has no screening records of, naming `entity_uuid` in the
    request's `where` (body or query)."""
    return not_found(f"{entity_key.replace('_', ' ')} with screening records in this config", entity_uuid,
                     [where, "entity_uuid"])


@dataclass(frozen=True)
class EntityRecords:
    entity_key: str
    entity_uuid: uuid.UUID
    relationship_ended: datetime | None  # None while a monitoring that counts is not removed
    held: bool
    retention_years: int | None  # its config's own period (None: the deployment's)


def entity_records_get(*, config: ScreeningConfig, entity_key: str, entity_uuid: uuid.UUID) -> EntityRecords:
    """When the relationship with the entity ended in the config and whether a hold keeps its
    records (`records_retention`'s own expressions); a 404 naming the query's `entity_uuid` when
    the config has no records of it."""
    if entity_key == EntityMonitoring.EntityKey.CUSTOMER_PERSON:
        row = (
            CustomerPerson.objects.filter(pk=entity_uuid, screening_config=config)
            .annotate(ended=customer_person_ended(), held=customer_person_held()).values_list("ended", "held").first()
        )
    else:
        monitorings = EntityMonitoring.objects.filter(screening_config=config, entity_key=entity_key, entity_uuid=entity_uuid)
        row = entities_ended(monitorings).values_list("ended", "held").first()
    if row is None:
        raise records_not_found(entity_key=entity_key, entity_uuid=entity_uuid, where="query")
    return EntityRecords(entity_key, entity_uuid, row[0], bool(row[1]), config.records_retention_years)


def company_holds_keeping(*, config: ScreeningConfig, entity_key: str, entity_uuid: uuid.UUID) -> QuerySet[ScreeningRecordsHold]:
    """The holds in force on companies the entity is monitored for in the config: they keep its
    records too (`records_retention.records_held`)."""
    companies = companies_monitored_for(config=config.pk, entity_key=entity_key, entity_uuid=entity_uuid)
    return records_holds_list(config=config, entity_key=EntityMonitoring.EntityKey.COMPANY, in_force=True).filter(
        entity_uuid__in=companies
    ).exclude(entity_uuid=entity_uuid)  # a company's own monitoring names it as its related company: its own hold
