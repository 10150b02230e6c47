"""Placing and releasing legal holds on an entity's screening records (`hold_models`)."""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from service.audit.services import Actor, audit_record
from service.companies.models import Company, Person
from service.errors import bad_field, not_found
from service.screening.models import CustomerPerson, EntityMonitoring, ScreeningConfig, ScreeningRecordsHold

REASON_MAX_LENGTH = 1000


def _lock_records(*, config: ScreeningConfig, entity_key: str, entity_uuid: uuid.UUID) -> bool:
    """Lock the rows the retention's deletion locks, in its order (a customer person, then
    monitorings by key), so a hold and a deletion of the same records wait for each other
    instead of crossing; False when the entity has no screening records in the config."""
    if entity_key == EntityMonitoring.EntityKey.CUSTOMER_PERSON:
        person = CustomerPerson.objects.filter(pk=entity_uuid, screening_config=config)
        return bool(list(person.select_for_update().values_list("pk", flat=True)))
    monitorings = EntityMonitoring.objects.filter(screening_config=config, entity_key=entity_key, entity_uuid=entity_uuid)
    if entity_key == EntityMonitoring.EntityKey.COMPANY:
        # A company's hold keeps the persons screened for it: lock theirs as well.
        monitorings = monitorings | EntityMonitoring.objects.filter(screening_config=config, related_company_id=entity_uuid)
    locked = list(monitorings.order_by("pk").select_for_update().values_list("entity_key", "entity_uuid"))
    return (entity_key, entity_uuid) in locked


def entity_label(*, entity_key: str, entity_uuid: uuid.UUID) -> str:
    model = {"customer_person": CustomerPerson, "person": Person, "company": Company}[entity_key]
    field = "name" if model is Company else "full_name"
    return model.objects.filter(pk=entity_uuid).values_list(field, flat=True).first() or ""


def records_hold_place(
    *, config: ScreeningConfig, entity_key: str, entity_uuid: uuid.UUID, reason: str, actor: Actor | None = None
) -> ScreeningRecordsHold:
    """Keep the entity's screening records in the config until the hold is released. A 404
    naming `entity_uuid` when the config has no records of it; a 400 when a hold is in force."""
    reason = (reason or "").strip()
    if not reason:
        raise bad_field(["body", "reason"], "say why the records are kept (an investigation, a request, a dispute)")
    if len(reason) > REASON_MAX_LENGTH:
        raise bad_field(["body", "reason"], f"at most {REASON_MAX_LENGTH} characters")
    actor = actor or Actor()
    try:
        with transaction.atomic():
            if not _lock_records(config=config, entity_key=entity_key, entity_uuid=entity_uuid):
                raise not_found(f"{entity_key.replace('_', ' ')} with screening records in this config", entity_uuid,
                                ["body", "entity_uuid"])
            hold = ScreeningRecordsHold.objects.create(
                screening_config=config, entity_key=entity_key, entity_uuid=entity_uuid, reason=reason,
                app_membership=actor.app_membership,
            )
            _audit(hold, config, actor, "records_hold.place", {"entity_key": entity_key, "entity_uuid": str(entity_uuid), "reason": reason})
    except IntegrityError:
        raise bad_field(["body", "entity_uuid"], "a hold on these records is in force already: release it first",
                        code="already_held") from None
    return hold


def records_hold_release(*, hold: ScreeningRecordsHold, actor: Actor | None = None) -> ScreeningRecordsHold:
    """End the hold: from now the records are deleted when their retention period is over
    (at once, by the next daily pass, when it is over already). Releasing twice is a 400."""
    actor = actor or Actor()
    with transaction.atomic():
        now = timezone.now()
        released = ScreeningRecordsHold.objects.filter(pk=hold.pk, released_timestamp__isnull=True).update(
            released_timestamp=now, released_by=actor.app_membership
        )
        if not released:
            raise bad_field(["path", "records_hold_uuid"], "the hold was released already", code="already_released")
        hold.released_timestamp, hold.released_by = now, actor.app_membership
        _audit(hold, hold.screening_config, actor, "records_hold.release", {"released_flag": True})
    return hold


def _audit(hold: ScreeningRecordsHold, config: ScreeningConfig, actor: Actor, action: str, after: dict) -> None:
    audit_record(
        app_customer_uuid=config.app_customer_id, actor=actor, action=action, object_type="records_hold",
        object_uuid=hold.uuid, object_label=entity_label(entity_key=hold.entity_key, entity_uuid=hold.entity_uuid),
        after=after,
    )
