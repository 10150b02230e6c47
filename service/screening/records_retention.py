"""Screening records are kept five years after the customer relationship ends, then deleted.

The AML acts ask for the records of customer due diligence to be kept five years after the
relationship ends and then deleted (hvitvaskingsloven §§ 30-31, penningtvättslagen 5 kap. 3 §,
hvidvaskloven § 30); the GDPR's storage limitation asks for the same. Here the relationship
with a screened entity (a customer person, a register person or a company, per config) ends
when its last monitoring is removed, and that of every company it is monitored for (a former
beneficial owner belongs to the company's due diligence); a customer person never put under
monitoring counts from the day it was added. The config's retention period after that (its
own `records_retention_years`, 5 to 10, where the law lets an organisation keep them longer
(AMLD art. 40); else `VAKT_SCREENING_RECORDS_RETENTION_YEARS`, 5; 0 keeps everything)
`screening_records_retention_apply`, daily from beat, deletes
the entity's screening records in that config: its monitorings with their decisions
and evidence, its inquiry with every case and review, and a customer person with its national
ids and addresses. An entity monitored again before then is kept: the clock starts again when
that monitoring is removed.

The audit log records each deletion without the person's name, and the records it holds of
the entity, its monitorings and its cases are redacted: their labels emptied and the values
of their changes nulled (names, birth dates, comments), while who did what, when, stays.
"""

from __future__ import annotations

import logging
import operator
import uuid
from dataclasses import dataclass, replace
from datetime import datetime
from functools import reduce

from dateutil.relativedelta import relativedelta

from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import (
    BooleanField, Case, DateTimeField, Exists, Expression, ExpressionWrapper, F, Max, OuterRef, Q, QuerySet, Subquery, Value,
    When,
)
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from service.audit.services import audit_record, audit_records_redact
from service.companies.models import Company
from service.errors import bad_field
from service.screening.config_models import RETENTION_YEARS_MAX, RETENTION_YEARS_MIN
from service.screening.models import (
    CustomerPerson, EntityInquiry, EntityMonitoring, ScreeningCase, ScreeningConfig, ScreeningRecordsHold,
)

logger = logging.getLogger(__name__)

RETENTION_REASON = "retention"  # the audit page shows a record with it as Vakt's own



def retention_years(config_years: int | None) -> int:
    """The period a config keeps its records, in years: its own, else the deployment's (0: for ever)."""
    return settings.VAKT_SCREENING_RECORDS_RETENTION_YEARS if config_years is None else config_years


def retention_years_check(years: int | None, *, loc: list) -> None:
    """A config's own period: RETENTION_YEARS_MIN to _MAX, or None for the deployment's; a 400 at `loc`."""
    if years is not None and not RETENTION_YEARS_MIN <= years <= RETENTION_YEARS_MAX:
        raise bad_field(loc, f"must be from {RETENTION_YEARS_MIN} to {RETENTION_YEARS_MAX} years, or null for the deployment's period")


def retained_until(relationship_ended: datetime | None, *, years: int | None, held: bool = False) -> datetime | None:
    """When an entity's records are deleted (None: still monitored, held, or nothing is deleted by
    age); `years`: its config's own period (`ScreeningConfig.records_retention_years`)."""
    period = retention_years(years)
    if relationship_ended is None or not period or held:
        return None
    return relationship_ended + relativedelta(years=period)


@dataclass(frozen=True)
class Period:
    years: int
    cutoff: datetime  # relationships that ended before it are past the period
    configs: list[uuid.UUID]  # the configs that keep records this long


def retention_cutoffs(now: datetime) -> list[Period]:
    """The periods in use, shortest first, each with its configs; none keeps records for ever."""
    configs: dict[int, list[uuid.UUID]] = {}
    for config_id, own in ScreeningConfig.objects.values_list("pk", "records_retention_years"):
        if years := retention_years(own):
            configs.setdefault(years, []).append(config_id)
    return [Period(years, now - relativedelta(years=years), ids) for years, ids in sorted(configs.items())]


def companies_monitored_for(*, config, entity_key, entity_uuid) -> QuerySet:
    """The companies an entity is monitored for in a config, as values or as references to an
    outer query (a company's own monitoring names itself)."""
    return EntityMonitoring.objects.filter(
        screening_config_id=config, entity_key=entity_key, entity_uuid=entity_uuid, related_company__isnull=False,
    ).values("related_company_id")


def _companies_of_outer_row(config_field: str, entity_field: str, key) -> QuerySet:
    """`companies_monitored_for` one level down from the outer row (`key(ref)` gives its entity key)."""
    return companies_monitored_for(
        config=OuterRef(OuterRef(config_field)), entity_key=key(lambda f: OuterRef(OuterRef(f))),
        entity_uuid=OuterRef(OuterRef(entity_field)),
    )


def _merged_into_of_outer_row(entity_field: str) -> QuerySet:
    """The record the outer row's customer person was merged into, one level down (none for other entities:
    no customer person has their uuid). A merge re-points the records merged into its duplicate, so one
    level is the whole chain."""
    return CustomerPerson.objects.filter(pk=OuterRef(OuterRef(entity_field)), merged_into__isnull=False).values("merged_into")


def relationship_ended(
    *, config_field: str, entity_field: str, entity_key: str | None = None, never_monitored_since: Expression | None = None
) -> Expression:
    """SQL for when the relationship with the outer row's entity ended in its config: NULL while
    a monitoring that counts is not removed, else the last removal of one; with none at all,
    `never_monitored_since` (a customer person's creation) or NULL.

    What counts are the entity's own monitorings and those of every company it is monitored
    for: a beneficial owner who stopped qualifying is still part of the company's customer
    due diligence, and is kept as long as the company is (a customer person too: the API lets
    one be monitored as a company's owner). A customer person merged into another record is
    kept as long as that record is: its cases are the same customer's. The outer row names its config and
    entity uuid in `config_field` and `entity_field`, and its entity key in a field
    `entity_key` unless a constant `entity_key` is given."""
    def key(ref):
        return Value(entity_key) if entity_key is not None else ref("entity_key")

    companies = _companies_of_outer_row(config_field, entity_field, key)
    in_config = EntityMonitoring.objects.filter(screening_config_id=OuterRef(config_field))
    # Four sets, each read through an index (an OR of them would not be): the entity's own
    # monitorings, those for the companies it is monitored for, those companies' own, and those of
    # the record a customer person was merged into (`person_merge`: the same customer's due diligence).
    counted = (
        in_config.filter(entity_key=key(OuterRef), entity_uuid=OuterRef(entity_field)),
        in_config.filter(related_company_id__in=companies),
        in_config.filter(entity_key=EntityMonitoring.EntityKey.COMPANY, entity_uuid__in=companies),
        in_config.filter(entity_key=EntityMonitoring.EntityKey.CUSTOMER_PERSON, entity_uuid__in=_merged_into_of_outer_row(entity_field)),
    )
    removals = [
        Subquery(
            monitorings.order_by().values("screening_config_id")
            .annotate(last=Max(Coalesce("removed_timestamp", "update_timestamp"))).values("last")[:1],
            output_field=DateTimeField(),
        )
        for monitorings in counted
    ]
    # The latest of them, NULLs aside: SQLite's GREATEST is NULL when one is, so each
    # takes the first of the others that is not (a rotation), which leaves the maximum as it is.
    ended: Expression = Greatest(*(
        Coalesce(*removals[i:], *removals[:i], output_field=DateTimeField()) for i in range(len(removals))
    ))
    if never_monitored_since is not None:
        ended = Coalesce(ended, never_monitored_since, output_field=DateTimeField())
    live = reduce(operator.or_, (Exists(monitorings.filter(removed_flag=False)) for monitorings in counted))
    return Case(When(live, then=Value(None)), default=ended, output_field=DateTimeField())


def records_held(*, config_field: str, entity_field: str, entity_key: str | None = None) -> Expression:
    """SQL, True while a legal hold in force (`hold_models`) keeps the outer row's entity's
    records in its config: a hold on the entity, on a company it is monitored for (the
    persons screened for a company belong to its due diligence), or on the record a customer
    person was merged into. Fields as `relationship_ended`'s."""
    def key(ref):
        return Value(entity_key) if entity_key is not None else ref("entity_key")

    in_force = ScreeningRecordsHold.objects.filter(screening_config_id=OuterRef(config_field), released_timestamp__isnull=True)
    companies = _companies_of_outer_row(config_field, entity_field, key)
    held = (
        Q(Exists(in_force.filter(entity_key=key(OuterRef), entity_uuid=OuterRef(entity_field))))
        | Q(Exists(in_force.filter(entity_key=EntityMonitoring.EntityKey.COMPANY, entity_uuid__in=companies)))
        | Q(Exists(in_force.filter(entity_key=EntityMonitoring.EntityKey.CUSTOMER_PERSON,
                                   entity_uuid__in=_merged_into_of_outer_row(entity_field))))
    )
    return ExpressionWrapper(held, output_field=BooleanField())


def customer_person_held() -> Expression:
    """`records_held` of a customer person, for a queryset of customer persons."""
    return records_held(config_field="screening_config_id", entity_field="pk", entity_key=EntityMonitoring.EntityKey.CUSTOMER_PERSON)


def customer_person_ended() -> Expression:
    """`relationship_ended` of a customer person, for a queryset of customer persons."""
    return relationship_ended(
        config_field="screening_config_id", entity_field="pk", entity_key=EntityMonitoring.EntityKey.CUSTOMER_PERSON,
        never_monitored_since=F("create_timestamp"),
    )


def entities_ended(monitorings: QuerySet[EntityMonitoring]) -> QuerySet:
    """One row per (config, entity) of these monitorings, with when its relationship ended and
    whether a hold keeps its records."""
    entity = {"config_field": "screening_config_id", "entity_field": "entity_uuid"}
    return (
        monitorings.order_by().values("screening_config_id", "entity_key", "entity_uuid").distinct()
        .annotate(ended=relationship_ended(**entity), held=records_held(**entity))
    )


@dataclass(frozen=True)
class Expired:
    config_id: uuid.UUID
    entity_key: str
    entity_uuid: uuid.UUID
    cutoff: datetime  # its config's: a relationship that ended before it is past the period


def expired_entities(*, now: datetime, held: bool = False) -> list[Expired]:
    """Every (config, entity) whose relationship ended longer ago than its config's retention
    period and that no hold keeps (`held`: those a hold keeps)."""
    return [entity for period in retention_cutoffs(now) for entity in _expired_in(period.configs, period.cutoff, held=held)]


@dataclass(frozen=True)
class RecordsDue:
    years: int  # the period that applies (0: records are kept for ever)
    cutoff: datetime | None  # relationships that ended before it are past the period
    due: int  # entities whose records the daily pass deletes
    held: int  # entities past the period that a hold keeps
    present: RecordsDue | None = None  # the same count with the config's present period

    @property
    def due_by_change(self) -> int:
        """Those the asked period makes due that the present one does not: the present period's are
        deleted by the next pass whichever is chosen."""
        return max(self.due - (self.present.due if self.present else 0), 0)

    @property
    def held_by_change(self) -> int:
        return max(self.held - (self.present.held if self.present else 0), 0)


def records_due(*, config: ScreeningConfig, years: int | None, now: datetime) -> RecordsDue:
    """What the daily pass would delete in the config if its own period were `years` (None: the
    deployment's), beside what it deletes with the present period: before an admin shortens the
    period, how many entities' records the change makes due."""
    present = _due_with(config, retention_years(config.records_retention_years), now)
    asked = retention_years(years)
    counted = present if asked == present.years else _due_with(config, asked, now)
    return replace(counted, present=present)


def _due_with(config: ScreeningConfig, period: int, now: datetime) -> RecordsDue:
    if not period:
        return RecordsDue(0, None, 0, 0)
    cutoff = now - relativedelta(years=period)
    due, held = (len(_expired_in([config.pk], cutoff, held=h)) for h in (False, True))
    return RecordsDue(period, cutoff, due, held)


def _expired_in(configs: list[uuid.UUID], cutoff: datetime, *, held: bool) -> list[Expired]:
    """The (config, entity) of these configs whose relationship ended before the cutoff, held or not."""
    # The cheap filters first: the end is never before an own removal, nor before a person was added.
    others = entities_ended(
        EntityMonitoring.objects.filter(screening_config_id__in=configs, removed_flag=True, removed_timestamp__lt=cutoff)
        .exclude(entity_key=EntityMonitoring.EntityKey.CUSTOMER_PERSON)
    ).filter(ended__lt=cutoff, held=held)
    persons = (
        CustomerPerson.objects.filter(screening_config_id__in=configs, create_timestamp__lt=cutoff)
        .annotate(ended=customer_person_ended(), held=customer_person_held())
        .filter(ended__lt=cutoff, held=held).values_list("screening_config_id", "uuid")
    )
    return [Expired(g["screening_config_id"], g["entity_key"], g["entity_uuid"], cutoff) for g in others] + [
        Expired(config_id, EntityMonitoring.EntityKey.CUSTOMER_PERSON, person_uuid, cutoff) for config_id, person_uuid in persons
    ]


def screening_records_delete(*, expired: Expired) -> bool:
    """Delete one entity's screening records in one config, in one transaction, when its
    relationship still ended before its cutoff (it may have been monitored again since it was
    found); True when deleted."""
    key, entity_uuid, config_id, cutoff = expired.entity_key, expired.entity_uuid, expired.config_id, expired.cutoff
    customer_person = key == EntityMonitoring.EntityKey.CUSTOMER_PERSON
    with transaction.atomic():
        # The locks first, each in a statement of its own, so that the check after them, a later
        # statement, sees every monitoring committed while a lock was waited for (PostgreSQL's
        # read committed reads, within one statement, the rows as they were when it began).
        persons = CustomerPerson.objects.filter(pk=entity_uuid, screening_config_id=config_id)
        if customer_person and not list(persons.select_for_update().values_list("pk", flat=True)):
            return False  # deleted meanwhile
        monitorings = EntityMonitoring.objects.filter(screening_config_id=config_id, entity_key=key, entity_uuid=entity_uuid)
        monitoring_pks = list(monitorings.order_by("pk").select_for_update().values_list("pk", flat=True))  # a hold locks in this order
        # The period as it is now, not as it was when the pass began: one lengthened meanwhile keeps the records.
        own_years, app_customer_id = ScreeningConfig.objects.values_list("records_retention_years", "app_customer_id").get(pk=config_id)
        years = retention_years(own_years)
        if not years:
            return False
        cutoff = min(cutoff, timezone.now() - relativedelta(years=years))
        if customer_person:
            ended, held = persons.annotate(ended=customer_person_ended(), held=customer_person_held()).values_list(
                "ended", "held").first()
        else:
            ended, held = entities_ended(monitorings).values_list("ended", "held").first() or (None, False)
        if ended is None or ended >= cutoff or held:
            return False
        inquiry_pks = list(EntityInquiry.objects.select_for_update().filter(
            screening_config_id=config_id, inquiry_entity_key=key, inquiry_entity_uuid=entity_uuid
        ).values_list("pk", flat=True))
        cases = ScreeningCase.objects.filter(entity_inquiry__in=inquiry_pks)
        case_pks = list(cases.values_list("pk", flat=True))
        after = {
            "deletion_reason_key": RETENTION_REASON,
            "monitoring_entity_key": key,
            "relationship_ended": timezone.localdate(ended),
            "retention_years": years,  # the period that applied, and the day before which an end was past it
            "retention_cutoff": timezone.localdate(cutoff),
            "monitoring_count": len(monitoring_pks),
            "case_count": len(case_pks),
            "open_case_count": cases.exclude(case_status_key=ScreeningCase.Status.COMPLETE).count(),
        }
        label = ""  # a person's name is not repeated in the log
        if key == EntityMonitoring.EntityKey.COMPANY:
            label = Company.objects.filter(pk=entity_uuid).values_list("name", flat=True).first() or ""
        EntityInquiry.objects.filter(pk__in=inquiry_pks).delete()  # with every case and review
        # By these keys, not the filter again: a register entity's monitoring made since the
        # check is not among them and stays. (A customer person's cannot be made: its foreign
        # key waits for the person's lock, then finds the person gone.)
        EntityMonitoring.objects.filter(pk__in=monitoring_pks).delete()  # with their decisions and evidence
        if customer_person:
            persons.delete()  # with its national ids and addresses
        holds = ScreeningRecordsHold.objects.filter(screening_config_id=config_id, entity_key=key, entity_uuid=entity_uuid)
        hold_pks = list(holds.values_list("pk", flat=True))  # released ones: their reasons can name the person
        holds.delete()
        # What the log says of them goes too: names, birth dates, comments (who did what, when,
        # stays). After the deletes, whose locks make a review or decision racing them commit first.
        after["audit_records_redacted"] = audit_records_redact(app_customer_uuid=app_customer_id, objects={
            "customer_person": [entity_uuid] if customer_person else [],
            "entity_monitoring": monitoring_pks,
            "screening_case": case_pks,
            "records_hold": hold_pks,
        })
        after["records_hold_count"] = len(hold_pks)  # once held: the holds' own records are redacted above
        audit_record(
            app_customer_uuid=app_customer_id, actor=None, action="screening_records.delete",
            object_type="screening_records", object_uuid=entity_uuid, object_label=label, after=after,
        )
    return True


def screening_records_retention_apply(*, now: datetime | None = None) -> int:
    """Delete the screening records of every entity whose relationship ended longer ago than its
    config's retention period; the number of entities whose records went. 0 years: none."""
    return screening_records_delete_all(expired=expired_entities(now=now or timezone.now()))


def screening_records_delete_all(*, expired: list[Expired]) -> int:
    """`screening_records_delete` of each; the number deleted."""
    deleted = 0
    for entity in expired:
        try:
            deleted += screening_records_delete(expired=entity)
        except OperationalError:
            raise  # the database is away: the task retries the whole pass
        except Exception:  # one entity that cannot be deleted must not keep the others: logged, tried again tomorrow
            logger.exception("The screening records of %s %s could not be deleted.", entity.entity_key, entity.entity_uuid)
    return deleted
