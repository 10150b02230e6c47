"""Merging a second record of one customer into the record kept, in one transaction.

Two customer persons of one config with the same name and birth date (`customer_person_key`) are
most likely one customer entered twice: by hand, and again by a file without the reference. Both
screened, each hit is raised twice; stopping one's screening by hand leaves its customer reference,
national ids and addresses on a record nobody screens, where a file import then finds the customer.

The merge moves what only the duplicate holds to the record kept: its customer reference, its
national ids, the addresses the kept record lacks, its nationalities and its gender where the kept
record has none. It then removes the duplicate's monitoring with a reason naming the record kept,
and marks the duplicate `merged_into` it: never screened again, never found by an import. The
duplicate's cases and reviews stay on it (they were reviewed as its own). Every move is audited as
when done by hand, with a `customer_person.merge` record on the duplicate.

Refused, nothing written (400 naming `duplicate_customer_person_uuid`), when the two could be two
people (another name or birth date, two references, two numbers of one country), when one of them
was merged already, when the duplicate is screened and the kept record is not (the customer would
go unscreened), and when the duplicate is monitored for a company (as its owner: that screening is
the company's, not the customer's).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from service.audit.services import Actor
from service.errors import bad_field
from service.screening.models import (
    CustomerPerson,
    CustomerPersonLocation,
    CustomerPersonNationalIdentification,
    EntityMonitoring,
    Gender,
)
from service.screening.config_lock import config_lock
from service.screening.monitoring_selectors import screened_q
from service.screening.monitoring_services import monitoring_remove
from service.screening.person_services import (
    LOCATION_TEXT_FIELDS,
    NATIONALITIES_MAX,
    customer_person_audit,
    customer_person_details_save,
    location_record,
)
from vakt_format.persons import customer_person_key

LOC = ["body", "duplicate_customer_person_uuid"]


@dataclass
class MergeResult:
    kept: CustomerPerson
    duplicate: CustomerPerson
    customer_reference_moved: str | None = None
    national_ids_moved: list[CustomerPersonNationalIdentification] = field(default_factory=list)
    locations_moved: list[CustomerPersonLocation] = field(default_factory=list)
    nationalities_added: list[str] = field(default_factory=list)
    gender_added: Gender | None = None
    removed_monitoring: EntityMonitoring | None = None


def merge_reason(kept: CustomerPerson) -> str:
    """The removal reason of a merged record's monitoring: the record kept, findable by name, birth date and uuid."""
    born = f", born {kept.birth_date:%d.%m.%Y}" if kept.birth_date else ""
    return f"Merged into the record of the customer person {kept.full_name}{born} ({kept.uuid}), who is screened under that record."


def customer_person_merge(
    *, kept: CustomerPerson, duplicate: CustomerPerson, actor: Actor | None = None, dry_run: bool = False,
    national_ids_shown: bool = True,
) -> MergeResult:
    """Merges `duplicate` into `kept` (both of one config, already found in the caller's
    organisation). See the module's text for what moves and what is refused.

    `dry_run`: the same steps, rolled back at the end, so what it answers is what a merge now would
    do (the dashboard says so before an admin merges); it takes no locks, so a page that asks does not
    wait behind an import. Without `national_ids_shown` (a dry run for a caller who may not read
    them) two records' numbers are not compared: that they differ is a fact behind that role."""
    if duplicate.pk == kept.pk:
        raise bad_field(LOC, "is the record kept itself: name its second record", code="same_record")
    if duplicate.screening_config_id != kept.screening_config_id:
        raise bad_field(LOC, "is a customer person of another screening config", code="other_config")
    with transaction.atomic():
        persons, monitorings = CustomerPerson.objects.all(), EntityMonitoring.objects.all()
        if not dry_run:
            # One writer of the config's numbers and references at a time (as an add or an import), then
            # both rows, in one order, as they are now.
            config_lock(kept.screening_config_id)
            persons, monitorings = persons.select_for_update(), monitorings.select_for_update()
        rows = {p.pk: p for p in persons.filter(pk__in=[kept.pk, duplicate.pk]).order_by("pk")}
        kept, duplicate = rows[kept.pk], rows[duplicate.pk]
        monitorings = list(monitorings.filter(customer_person=duplicate, removed_flag=False))
        _check(kept, duplicate, monitorings, national_ids=national_ids_shown)
        result = MergeResult(kept=kept, duplicate=duplicate)
        _move_reference_and_details(kept, duplicate, actor, result)
        _move_national_ids(kept, duplicate, actor, result)
        _move_locations(kept, duplicate, actor, result)
        reason = merge_reason(kept)
        for monitoring in monitorings:
            result.removed_monitoring = monitoring_remove(monitoring=monitoring, reason=reason, actor=actor)
        # Records merged into the duplicate earlier now belong to the record kept too: one level, always
        # (records_retention keeps a merged record as long as the record it points to).
        CustomerPerson.objects.filter(merged_into=duplicate).update(merged_into=kept)
        duplicate.merged_into, duplicate.merged_timestamp = kept, timezone.now()
        duplicate.save(update_fields=["merged_into", "merged_timestamp", "update_timestamp"])
        customer_person_audit(duplicate, actor, "customer_person.merge", after={
            "merged_into_customer_person_uuid": str(kept.uuid), "merged_into_full_name": kept.full_name,
        })
        if dry_run:
            transaction.set_rollback(True)  # with the audit records and the screening enqueued on commit
    return result


def _check(kept: CustomerPerson, duplicate: CustomerPerson, monitorings: list[EntityMonitoring], *, national_ids: bool) -> None:
    for person, which in ((kept, "the record kept"), (duplicate, "the duplicate")):
        if person.merged_into_id is not None:
            raise bad_field(LOC, f"{which} was merged into another record already ({person.merged_into_id})", code="merged_already")
    if customer_person_key(kept.full_name, kept.birth_date) != customer_person_key(duplicate.full_name, duplicate.birth_date):
        raise bad_field(
            LOC, "has another name or birth date than the record kept: correct the one that is wrong first, if they are one person",
            code="not_same_customer",
        )
    if kept.customer_reference and duplicate.customer_reference and kept.customer_reference != duplicate.customer_reference:
        raise bad_field(
            LOC, f"has another customer reference ({duplicate.customer_reference}) than the record kept ({kept.customer_reference}): "
                 "two customers, not one", code="references_differ",
        )
    kept_numbers = dict(kept.national_identifications.values_list("national_identification_schema", "national_identification_number"))
    for schema, number in duplicate.national_identifications.values_list("national_identification_schema", "national_identification_number"):
        if national_ids and kept_numbers.get(schema, number) != number:
            raise bad_field(LOC, f"has another {schema} national id than the record kept: two people, not one", code="national_ids_differ")
    if any(m.related_company_id is not None for m in monitorings):
        raise bad_field(
            LOC, "is monitored as a person of a company: remove that monitoring first (the company's screening, not the customer's)",
            code="monitored_for_company",
        )
    kept_live = kept.entity_monitorings.filter(removed_flag=False)
    if monitorings and not kept_live.exists():
        raise bad_field(LOC, "has a monitoring (pending, screened or declined) and the record kept has none: monitor the record "
                             "kept first, so the customer's screening is decided under it", code="kept_not_monitored")
    duplicate_screened = EntityMonitoring.objects.filter(screened_q(), pk__in=[m.pk for m in monitorings]).exists()
    if duplicate_screened and not kept_live.filter(screened_q()).exists():
        raise bad_field(LOC, "is screened and the record kept is not: approve the record kept's monitoring first, "
                             "or the customer would not be screened", code="kept_not_screened")


def _move_reference_and_details(kept: CustomerPerson, duplicate: CustomerPerson, actor: Actor | None, result: MergeResult) -> None:
    """The reference, nationalities and gender the kept record lacks; screened again if what screening compares changed."""
    changes = {}
    if duplicate.customer_reference and not kept.customer_reference:
        reference = duplicate.customer_reference
        duplicate.customer_reference = ""  # first: a reference is one customer person's (a UNIQUE constraint)
        duplicate.save(update_fields=["customer_reference", "update_timestamp"])
        customer_person_audit(duplicate, actor, "customer_person.update", after={"customer_reference": ""}, before={"customer_reference": reference})
        changes["customer_reference"] = reference
        result.customer_reference_moved = reference
    added = [code for code in duplicate.nationalities if code not in kept.nationalities]
    if added:
        if len(kept.nationalities) + len(added) > NATIONALITIES_MAX:
            raise bad_field(LOC, f"would give the record kept more than {NATIONALITIES_MAX} nationalities", code="too_many_nationalities")
        changes["nationalities"] = [*kept.nationalities, *added]
        result.nationalities_added = added
    if duplicate.gender_id is not None and kept.gender_id is None:
        changes["gender"] = duplicate.gender
        result.gender_added = duplicate.gender
    if changes:
        customer_person_details_save(kept, changes, actor)


def _move_national_ids(kept: CustomerPerson, duplicate: CustomerPerson, actor: Actor | None, result: MergeResult) -> None:
    """The duplicate's numbers: each is one person's in the config, so it moves (the same number on both is impossible)."""
    for row in duplicate.national_identifications.order_by("create_timestamp", "uuid"):
        schema = {"national_identification_schema": row.national_identification_schema}
        row.customer_person = kept
        row.save(update_fields=["customer_person"])
        customer_person_audit(duplicate, actor, "customer_person.national_id_remove", after=None, before=schema)
        customer_person_audit(kept, actor, "customer_person.national_id_add", after=schema)
        result.national_ids_moved.append(row)


def _location_key(row) -> tuple:
    return (row.person_location_type_id, *(getattr(row, name).casefold() for name in LOCATION_TEXT_FIELDS))


def _move_locations(kept: CustomerPerson, duplicate: CustomerPerson, actor: Actor | None, result: MergeResult) -> None:
    """The duplicate's addresses the kept record lacks (the same address twice stays on the duplicate)."""
    known = {_location_key(row) for row in kept.locations.all()}
    for row in duplicate.locations.order_by("create_timestamp", "uuid"):
        if _location_key(row) in known:
            continue
        known.add(_location_key(row))
        row.customer_person = kept
        row.save(update_fields=["customer_person"])
        record = location_record(row.postal_place, row.country_code_two)
        customer_person_audit(duplicate, actor, "customer_person.location_remove", after=None, before=record)
        customer_person_audit(kept, actor, "customer_person.location_add", after=record)
        result.locations_moved.append(row)
