"""Where an audit record's object is seen, while it exists: the subject the API serves with each
record (`subject_type`, `subject_uuid`), so a client links a record to its page by one rule.

Mostly the object itself; a record hold is seen on its subject's page (the customer person, the
company, the register person), and deleted screening records on the company's page (a customer
person's go with them). Nothing for an object that no longer exists (deleted, or its records
deleted at the end of their retention period)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable

from service.audit.models import AuditEvent

Subject = tuple[str, uuid.UUID]
# A hold's entity key -> the subject type (a "person" is an owner or role holder in the register).
HOLD_SUBJECTS = {"person": "register_person"}


def _existing(object_type: str, uuids: set[uuid.UUID]) -> dict[uuid.UUID, Subject]:
    from service.auth.models import ApiUser, AppMembership
    from service.companies.models import Company
    from service.screening.batch_models import ScreeningBatch
    from service.screening.case_models import ScreeningCase
    from service.screening.config_models import CustomerPerson, ScreeningConfig
    from service.screening.hold_models import ScreeningRecordsHold
    from service.screening.monitoring_models import EntityMonitoring
    from service.watchlists.models import Watchlist

    plain = {
        "watchlist": Watchlist.objects.all(),
        "screening_case": ScreeningCase.objects.all(),
        "screening_config": ScreeningConfig.objects.all(),
        "screening_batch": ScreeningBatch.objects.all(),  # a deleted job stays listed, with its page and counts
        "entity_monitoring": EntityMonitoring.objects.all(),
        "customer_person": CustomerPerson.objects.all(),
        "api_user": ApiUser.objects.all(),
        "app_membership": AppMembership.objects.all(),
    }
    if object_type in plain:
        found = plain[object_type].filter(pk__in=uuids).values_list("pk", flat=True)
        return {pk: (object_type, pk) for pk in found}
    if object_type == "records_hold":
        holds = ScreeningRecordsHold.objects.filter(pk__in=uuids).values_list("pk", "entity_key", "entity_uuid")
        return {pk: (HOLD_SUBJECTS.get(key, key), entity_uuid) for pk, key, entity_uuid in holds}
    if object_type == "screening_records":  # the entity whose records went: only a company stays
        return {pk: ("company", pk) for pk in Company.objects.filter(pk__in=uuids).values_list("pk", flat=True)}
    return {}


def audit_event_subjects(events: Iterable[AuditEvent]) -> dict[uuid.UUID, Subject]:
    """Record uuid -> (subject type, subject uuid) for the records whose object exists (one query a type)."""
    events = [e for e in events if e.object_uuid is not None and e.redacted_timestamp is None]
    wanted: dict[str, set[uuid.UUID]] = defaultdict(set)
    for event in events:
        wanted[event.object_type].add(event.object_uuid)
    found = {object_type: _existing(object_type, uuids) for object_type, uuids in wanted.items()}
    return {e.uuid: found[e.object_type][e.object_uuid] for e in events if e.object_uuid in found[e.object_type]}
