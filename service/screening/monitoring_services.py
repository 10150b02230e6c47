"""Writes of entity monitorings and their decisions.

- A monitoring names exactly one entity; at most one that is not removed exists per
  config + entity + related company (a partial UNIQUE constraint decides under concurrency).
- Decisions are append-only. Recording one locks the monitoring row and points
  `latest_decision` at it in the same transaction, so the rule "screened iff not removed
  and the latest decision approves" never reads a half-written state.
- A decision that approves screens the entity after commit (`screening_on_commit`, the
  Celery task of screening_run.py) and marks the monitoring as owing that screening
  (`screening_owed_timestamp`, cleared by the screening, a decline or a removal), so that
  beat's `screening_monitorings_resume` finds a screening whose message a broker outage lost.
- Removing is final for that row and says why (`removal_reason`); screening the entity
  again takes a new monitoring.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date

from django.db import IntegrityError, transaction
from django.utils import timezone

from service.audit.services import Actor, audit_record
from service.auth.models import AppMembership
from service.companies.models import Company, Person
from service.errors import bad_field
from service.screening.models import (
    CustomerPerson,
    EntityMonitoring,
    EntityMonitoringDecision,
    EntityMonitoringType,
    ScreeningConfig,
)


@dataclass(frozen=True)
class DecisionSpec:
    approved_flag: bool
    origin_key: str
    comment: str = ""
    app_membership: AppMembership | None = None
    api_user_uuid: uuid.UUID | None = None


def _entity_fields(entity: Person | CustomerPerson | Company) -> dict:
    if isinstance(entity, Person):
        return {"entity_key": EntityMonitoring.EntityKey.PERSON, "entity_uuid": entity.uuid, "person": entity}
    if isinstance(entity, CustomerPerson):
        return {
            "entity_key": EntityMonitoring.EntityKey.CUSTOMER_PERSON,
            "entity_uuid": entity.uuid,
            "customer_person": entity,
        }
    return {"entity_key": EntityMonitoring.EntityKey.COMPANY, "entity_uuid": entity.uuid, "company": entity}


def monitoring_exists(*, config: ScreeningConfig, entity, related_company: Company | None) -> bool:
    fields = _entity_fields(entity)
    return EntityMonitoring.objects.filter(
        screening_config=config,
        entity_key=fields["entity_key"],
        entity_uuid=fields["entity_uuid"],
        related_company=related_company,
        removed_flag=False,
    ).exists()


def monitoring_insert(
    *,
    config: ScreeningConfig,
    entity: Person | CustomerPerson | Company,
    related_company: Company | None,
    monitoring_type: EntityMonitoringType,
    origin_key: str,
    comment: str = "",
    app_membership: AppMembership | None = None,
    relationship_start_date: date | None = None,
    decision: DecisionSpec | None = None,
) -> EntityMonitoring | None:
    """The new monitoring (with its first decision when given), or None when one that is not
    removed already exists for this config + entity + related company."""
    try:
        with transaction.atomic():
            monitoring = EntityMonitoring.objects.create(
                screening_config=config,
                related_company=related_company,
                entity_monitoring_type=monitoring_type,
                monitoring_origin_key=origin_key,
                monitoring_comment=comment,
                app_membership=app_membership,
                relationship_start_date=relationship_start_date,
                **_entity_fields(entity),
            )
            if decision is not None:
                _decision_insert(monitoring, decision)  # a row of this transaction: nobody else sees it yet
    except IntegrityError:
        return None
    return monitoring


def monitorings_insert_many(*, monitorings: list[EntityMonitoring], decision: DecisionSpec | None) -> list[EntityMonitoring]:
    """Insert unsaved monitorings in a few statements (a watchlist sync's batch); those that
    would duplicate one not removed are skipped (ON CONFLICT DO NOTHING against the partial
    UNIQUE constraints). The inserted ones get `decision` when given; returns them."""
    if not monitorings:
        return []
    EntityMonitoring.objects.bulk_create(monitorings, ignore_conflicts=True)
    kept = set(EntityMonitoring.objects.filter(uuid__in=[m.uuid for m in monitorings]).values_list("uuid", flat=True))
    inserted = [m for m in monitorings if m.uuid in kept]
    if decision is not None and inserted:
        _decisions_insert_many(inserted, decision)
    return inserted


def monitorings_decide_waiting(*, monitoring_uuids: list[uuid.UUID], decision: DecisionSpec) -> list[uuid.UUID]:
    """Give `decision` to those of these monitorings that still wait for their first one (not removed,
    no decision), locked first so a decision recorded meanwhile stands; the ones decided now."""
    waiting = list(EntityMonitoring.objects.select_for_update().filter(
        uuid__in=monitoring_uuids, removed_flag=False, latest_decision__isnull=True,
    ).order_by("uuid"))
    if waiting:
        _decisions_insert_many(waiting, decision)
    return [m.uuid for m in waiting]


def _decisions_insert_many(monitorings: list[EntityMonitoring], decision: DecisionSpec) -> None:
    """Each monitoring's decision in a few statements (none audited here: the caller records who
    decided, when a person did); an approval owes and enqueues their screening on commit."""
    decisions = EntityMonitoringDecision.objects.bulk_create([_decision_row(m, decision) for m in monitorings])
    owed = timezone.now() if decision.approved_flag else None
    for monitoring, row in zip(monitorings, decisions):
        monitoring.latest_decision, monitoring.screening_owed_timestamp = row, owed
    EntityMonitoring.objects.bulk_update(monitorings, ["latest_decision", "screening_owed_timestamp"], batch_size=500)
    if decision.approved_flag:
        screening_on_commit(monitoring_uuids=[m.uuid for m in monitorings])


def monitoring_row(
    *,
    config: ScreeningConfig,
    entity: Person | CustomerPerson | Company,
    related_company: Company | None,
    monitoring_type: EntityMonitoringType,
    origin_key: str,
    comment: str = "",
) -> EntityMonitoring:
    """An unsaved monitoring, for `monitorings_insert_many`."""
    return EntityMonitoring(
        screening_config=config,
        related_company=related_company,
        entity_monitoring_type=monitoring_type,
        monitoring_origin_key=origin_key,
        monitoring_comment=comment,
        **_entity_fields(entity),
    )


def monitoring_create(*, duplicate_loc: list, removed_flag: bool = False, **fields) -> EntityMonitoring:
    """`monitoring_insert` for a caller: a duplicate is a 400 naming `duplicate_loc`."""
    duplicate = bad_field(duplicate_loc, "already monitored in this screening config", code="already_monitored")
    if monitoring_exists(config=fields["config"], entity=fields["entity"], related_company=fields["related_company"]):
        raise duplicate
    with transaction.atomic():
        if isinstance(fields["entity"], CustomerPerson):
            _not_merged(fields["entity"], duplicate_loc)
        monitoring = monitoring_insert(**fields)
        if monitoring is None:
            raise duplicate
        if removed_flag:
            monitoring_remove(monitoring=monitoring, reason="Created as removed.")
    return monitoring


def _not_merged(person: CustomerPerson, loc: list) -> None:
    """A record merged into another is never monitored again (its customer is screened under the other);
    read under the row's lock, so a merge committed meanwhile is seen."""
    merged_into = CustomerPerson.objects.select_for_update().filter(pk=person.pk).values_list("merged_into", flat=True).first()
    if merged_into is not None:
        raise bad_field(loc, f"was merged into the customer person {merged_into}: monitor that record", code="merged")


def decision_record(*, monitoring: EntityMonitoring, spec: DecisionSpec) -> EntityMonitoringDecision:
    with transaction.atomic():
        locked = EntityMonitoring.objects.select_for_update().get(pk=monitoring.pk)
        if locked.removed_flag:
            raise bad_field(
                ["body", "entity_monitoring_uuid"], "the monitoring is removed; create a new one", code="monitoring_removed"
            )
        decision = _decision_insert(locked, spec)
    monitoring.latest_decision = decision
    return decision


def _decision_row(monitoring: EntityMonitoring, spec: DecisionSpec) -> EntityMonitoringDecision:
    return EntityMonitoringDecision(
        entity_monitoring=monitoring,
        approved_flag=spec.approved_flag,
        decision_origin_key=spec.origin_key,
        decision_comment=spec.comment,
        app_membership=spec.app_membership,
        api_user_id=spec.api_user_uuid,
    )


def _audit(monitoring: EntityMonitoring, actor: Actor, action: str, before: dict | None, after: dict) -> None:
    entity = monitoring.person or monitoring.customer_person or monitoring.company
    audit_record(
        app_customer_uuid=ScreeningConfig.objects.values_list("app_customer_id", flat=True).get(pk=monitoring.screening_config_id),
        actor=actor,
        action=action,
        object_type="entity_monitoring",
        object_uuid=monitoring.uuid,
        object_label=str(getattr(entity, "full_name", None) or getattr(entity, "name", None) or monitoring.uuid),
        before=before,
        after=after,
    )


def _decision_insert(monitoring: EntityMonitoring, spec: DecisionSpec) -> EntityMonitoringDecision:
    previous = monitoring.latest_decision if monitoring.latest_decision_id else None
    decision = _decision_row(monitoring, spec)
    decision.save(force_insert=True)
    if spec.origin_key != "auto_approve":  # the service's own approvals are not a person's act
        _audit(
            monitoring,
            Actor(api_user_uuid=spec.api_user_uuid, app_membership=spec.app_membership),
            "entity_monitoring.decide",
            {"approved_flag": previous.approved_flag} if previous else None,
            {"approved_flag": spec.approved_flag, "decision_comment": spec.comment, "decision_origin_key": spec.origin_key},
        )
    now = timezone.now()
    owed = now if spec.approved_flag else None
    EntityMonitoring.objects.filter(pk=monitoring.pk).update(
        latest_decision=decision, update_timestamp=now, screening_owed_timestamp=owed
    )
    monitoring.latest_decision, monitoring.screening_owed_timestamp = decision, owed
    if spec.approved_flag:
        screening_on_commit(monitoring_uuids=[monitoring.uuid])
    return decision


SCREENING_BATCH = 200


def monitorings_rescreen(*, monitoring_uuids: list[uuid.UUID]) -> None:
    """Screen these active monitorings again (their entity's details changed): owed from now, as an
    approval's screening is, so beat's resume sends what a broker outage lost."""
    with transaction.atomic():
        EntityMonitoring.objects.filter(uuid__in=monitoring_uuids).update(screening_owed_timestamp=timezone.now())
        screening_on_commit(monitoring_uuids=monitoring_uuids)


def screening_on_commit(*, monitoring_uuids: list[uuid.UUID]) -> None:
    """Screen monitorings that became active, once this transaction commits (in batches).
    robust: a broker that is away does not fail the request; the resume finds what was not sent."""
    for batch in screening_batches(monitoring_uuids):
        transaction.on_commit(lambda batch=batch: _screening_enqueue(batch), robust=True)


def screening_batches(monitoring_uuids) -> list[list[str]]:
    uuids = [str(u) for u in monitoring_uuids]
    return [uuids[start : start + SCREENING_BATCH] for start in range(0, len(uuids), SCREENING_BATCH)]


def _screening_enqueue(batch: list[str]) -> None:
    from service.screening.tasks import screening_run_task

    screening_run_task.delay(batch)


def monitorings_screening_done(*, monitoring_uuids, started) -> None:
    """The screening of these monitorings that began at `started` is done: they owe none, unless
    an approval since then asked for another."""
    EntityMonitoring.objects.filter(uuid__in=list(monitoring_uuids), screening_owed_timestamp__lte=started).update(
        screening_owed_timestamp=None
    )


def monitoring_remove(*, monitoring: EntityMonitoring, reason: str, actor: Actor | None = None) -> EntityMonitoring:
    """Stops screening the entity and records why; removing twice changes nothing."""
    with transaction.atomic():
        now = timezone.now()
        changed = EntityMonitoring.objects.filter(pk=monitoring.pk, removed_flag=False).update(
            removed_flag=True, removed_timestamp=now, removal_reason=reason, update_timestamp=now,
            screening_owed_timestamp=None,
        )
        if changed:
            _audit(monitoring, actor or Actor(), "entity_monitoring.remove", {"removed_flag": False}, {"removed_flag": True, "removal_reason": reason})
    if changed:
        monitoring.removed_flag, monitoring.removed_timestamp, monitoring.removal_reason = True, now, reason
    return monitoring


def monitorings_remove_many(*, monitorings: list[EntityMonitoring], reason: str) -> int:
    """`monitoring_remove` for many at once (one UPDATE); the number removed now."""
    now = timezone.now()
    return EntityMonitoring.objects.filter(pk__in=[m.pk for m in monitorings], removed_flag=False).update(
        removed_flag=True, removed_timestamp=now, removal_reason=reason, update_timestamp=now,
        screening_owed_timestamp=None,
    )
