"""Placing and releasing legal holds on an entity's screening records (`hold_models`)."""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from service.audit.services import Actor, audit_record
from service.companies.models import Company, Person
from service.errors import bad_field
from service.screening.case_services import FourEyesRequired
from service.screening.hold_selectors import HOLD_RELATED, records_not_found
from service.screening.models import CustomerPerson, EntityMonitoring, ScreeningConfig, ScreeningRecordsHold
from service.screening.config_lock import config_lock

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


LABEL_SOURCES = {"customer_person": (CustomerPerson, "full_name"), "person": (Person, "full_name"), "company": (Company, "name")}


def entity_label(*, entity_key: str, entity_uuid: uuid.UUID) -> str:
    return entity_labels([(entity_key, entity_uuid)]).get((entity_key, entity_uuid), "")


def entity_labels(entities: list[tuple[str, uuid.UUID]]) -> dict[tuple[str, uuid.UUID], str]:
    """The names of these (entity key, uuid), one query per kind."""
    labels = {}
    for key, (model, field) in LABEL_SOURCES.items():
        uuids = {entity_uuid for entity_key, entity_uuid in entities if entity_key == key}
        if uuids:
            labels |= {(key, pk): name for pk, name in model.objects.filter(pk__in=uuids).values_list("pk", field)}
    return labels


def _reason(value: str, field: str, why: str) -> str:
    reason = (value or "").strip()
    if not reason:
        raise bad_field(["body", field], why)
    if len(reason) > REASON_MAX_LENGTH:
        raise bad_field(["body", field], f"at most {REASON_MAX_LENGTH} characters")
    return reason


def _already_held() -> Exception:
    return bad_field(["body", "entity_uuid"], "a hold on these records is in force already: release it first",
                     code="already_held")


def records_hold_place(
    *, config: ScreeningConfig, entity_key: str, entity_uuid: uuid.UUID, reason: str, actor: Actor | None = None
) -> ScreeningRecordsHold:
    """Keep the entity's screening records in the config until the hold is released. A 404
    naming `entity_uuid` when the config has no records of it; a 400 when a hold is in force."""
    reason = _reason(reason, "reason", "say why the records are kept (an investigation, a request, a dispute)")
    actor = actor or Actor()
    try:
        with transaction.atomic():
            if not _lock_records(config=config, entity_key=entity_key, entity_uuid=entity_uuid):
                raise records_not_found(entity_key=entity_key, entity_uuid=entity_uuid, where="body")
            in_force = ScreeningRecordsHold.objects.filter(
                screening_config=config, entity_key=entity_key, entity_uuid=entity_uuid, released_timestamp__isnull=True)
            if in_force.exists():
                raise _already_held()
            hold = ScreeningRecordsHold.objects.create(
                screening_config=config, entity_key=entity_key, entity_uuid=entity_uuid, reason=reason,
                app_membership=actor.app_membership,
            )
            _audit(hold, actor, "records_hold.place", {"entity_key": entity_key, "entity_uuid": str(entity_uuid), "reason": reason})
    except IntegrityError as error:
        # A backstop: the locks make a second placement wait and then see the first. PostgreSQL
        # names the constraint, SQLite its table.
        if not any(name in str(error) for name in ("records_hold_one_in_force", ScreeningRecordsHold._meta.db_table)):
            raise
        raise _already_held() from None
    return hold


def records_hold_release(
    *, hold: ScreeningRecordsHold, release_reason: str, confirm_request: bool | None = None, actor: Actor | None = None
) -> tuple[ScreeningRecordsHold, bool]:
    """End the hold, saying why (the investigation closed): from now the records are deleted when
    their retention period is over (by the next daily pass when it is over already). With the
    config's four-eyes review a release takes two members: the first call asks for it and the hold
    stays in force; a call by another member confirms it. The hold and whether it is released now.

    `confirm_request` says which the caller means, so that a page read before another member asked
    (or withdrew) does not do the other: False asks (a 400 `release_already_requested` when a
    request waits), True confirms (a 400 `no_release_requested` when none waits); None, whichever
    applies. Releasing twice is a 400; confirming one's own request a 409 `four_eyes_required`."""
    release_reason = _reason(release_reason, "release_reason", "say why the records need not be kept any longer")
    actor = actor or Actor()
    with transaction.atomic():
        locked = _locked_in_force(hold)
        member, now = actor.app_membership, timezone.now()
        if locked.screening_config.four_eyes_review_flag:
            if member is None:
                raise bad_field(["body", "app_membership_uuid"], "with four-eyes review a release names the member who "
                                "makes it, so that a second member can confirm it", code="member_required")
            if locked.release_requested_timestamp is None:
                if confirm_request:
                    raise _no_release_requested(["body", "confirm_request_flag"])
                locked.release_requested_timestamp, locked.release_requested_by = now, member
                locked.release_request_reason = release_reason
                locked.save(update_fields=["release_requested_timestamp", "release_requested_by", "release_request_reason"])
                _audit(locked, actor, "records_hold.release_request", {"release_request_reason": release_reason})
                return locked, False
            asker = locked.release_requested_by
            if confirm_request is False:
                raise bad_field(["body", "confirm_request_flag"], f"{asker.email if asker else 'another member'} asked "
                                "for this release already: confirm it or keep the hold", code="release_already_requested")
            if asker == member:
                raise FourEyesRequired(
                    f"Four-eyes review: {member.email} asked for this release, so another admin must confirm it. "
                    "You can withdraw the request by keeping the hold.", loc=["body", "app_membership_uuid"],
                )
        locked.released_timestamp, locked.released_by, locked.release_reason = now, member, release_reason
        locked.save(update_fields=["released_timestamp", "released_by", "release_reason"])
        after = {"released_flag": True, "release_reason": release_reason}
        if locked.release_requested_timestamp is not None:
            after["release_requested_by"] = locked.release_requested_by.email if locked.release_requested_by else None
        _audit(locked, actor, "records_hold.release", after)
    return locked, True


def _no_release_requested(loc: list) -> Exception:
    return bad_field(loc, "no release of this hold waits for a decision (it was withdrawn or turned down)",
                     code="no_release_requested")


def records_hold_keep(*, hold: ScreeningRecordsHold, keep_reason: str, actor: Actor | None = None) -> ScreeningRecordsHold:
    """Turn down a release asked for under four-eyes review (or withdraw one's own request): the
    hold stays in force with no release waiting. A 400 when none waits."""
    keep_reason = _reason(keep_reason, "keep_reason", "say why the records are still needed")
    with transaction.atomic():
        locked = _locked_in_force(hold)
        if locked.release_requested_timestamp is None:
            raise _no_release_requested(["path", "records_hold_uuid"])
        asked_by = locked.release_requested_by.email if locked.release_requested_by else None
        locked.release_requested_timestamp, locked.release_requested_by, locked.release_request_reason = None, None, ""
        locked.save(update_fields=["release_requested_timestamp", "release_requested_by", "release_request_reason"])
        _audit(locked, actor or Actor(), "records_hold.keep", {"keep_reason": keep_reason, "release_requested_by": asked_by})
    return locked


def _locked_in_force(hold: ScreeningRecordsHold) -> ScreeningRecordsHold:
    """The hold read again after locking its config's row, then its own (two releases at once: the
    second sees the first; a change of the config's four-eyes review waits, or is seen); a 400 when
    it is released already. The rows are locked alone and read after: joined into the locking
    query, the member who asked would be read as it was before the wait (PostgreSQL re-reads
    only the locked row)."""
    config_lock(hold.screening_config_id)
    ScreeningRecordsHold.objects.select_for_update().filter(pk=hold.pk).values_list("pk").first()
    locked = ScreeningRecordsHold.objects.select_related(*HOLD_RELATED).get(pk=hold.pk)
    if not locked.in_force:
        raise bad_field(["path", "records_hold_uuid"], "the hold was released already", code="already_released")
    return locked


def release_requests_withdraw(*, config: ScreeningConfig, actor: Actor | None = None) -> int:
    """Four-eyes review switched off: a release no longer waits for a second member, so the
    requests waiting are withdrawn (audited as keeps), and do not come back to be confirmed by one
    member when the review is switched on again. Called with the config's row locked, which every
    release and keep locks first, so no request changes meanwhile. How many."""
    waiting = (
        ScreeningRecordsHold.objects.select_related(*HOLD_RELATED)
        .filter(screening_config=config, released_timestamp__isnull=True, release_requested_timestamp__isnull=False)
    )
    withdrawn = 0
    for hold in waiting:
        asked_by = hold.release_requested_by.email if hold.release_requested_by else None
        hold.release_requested_timestamp, hold.release_requested_by, hold.release_request_reason = None, None, ""
        hold.save(update_fields=["release_requested_timestamp", "release_requested_by", "release_request_reason"])
        _audit(hold, actor or Actor(), "records_hold.keep",
               {"keep_reason": FOUR_EYES_OFF_REASON, "release_requested_by": asked_by})
        withdrawn += 1
    return withdrawn


FOUR_EYES_OFF_REASON = "Four-eyes review was switched off: the release no longer waits for a second member."


def _audit(hold: ScreeningRecordsHold, actor: Actor, action: str, after: dict) -> None:
    audit_record(
        app_customer_uuid=hold.screening_config.app_customer_id, actor=actor, action=action, object_type="records_hold",
        object_uuid=hold.uuid, object_label=entity_label(entity_key=hold.entity_key, entity_uuid=hold.entity_uuid),
        after=after,
    )
