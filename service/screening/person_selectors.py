"""Reads of customer persons, scoped to the calling organisation (through their config)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from datetime import date

from django.db.models import OuterRef, Q, QuerySet, Subquery

from service.screening.access import found, not_found
from service.screening.models import CustomerPerson, EntityMonitoring, Gender, PersonLocationType, ScreeningConfig
from service.screening.monitoring_selectors import monitoring_status_expression
from service.screening.records_retention import customer_person_ended, customer_person_held
from service.companies.models import GeoCountry
from vakt_format.persons import customer_person_key


def customer_persons_list(
    *, config: ScreeningConfig, name_contains: str | None = None, national_id: tuple[str, str] | None = None,
    customer_reference: str | None = None,
) -> QuerySet[CustomerPerson]:
    """The config's customer persons by name; `name_contains` keeps those whose name contains it (any case);
    `national_id` (schema, compact number) the one who has that number; `customer_reference` the one
    with that reference.

    Each has `monitoring_status_key`: that of its monitoring not removed (there is at most one, a
    customer person having no related company), else of its newest removed one, else None."""
    queryset = CustomerPerson.objects.filter(screening_config=config)
    if name_contains:
        queryset = queryset.filter(full_name__icontains=name_contains)
    if national_id is not None:
        queryset = queryset.filter(national_id_q(*national_id))
    if customer_reference:
        queryset = queryset.filter(customer_reference=customer_reference)
    return _with_monitoring(queryset).order_by("full_name", "uuid")


def _with_monitoring(queryset: QuerySet[CustomerPerson]) -> QuerySet[CustomerPerson]:
    """Each with `monitoring_status_key` (see `customer_persons_list`), `relationship_ended`
    (records_retention: when its last monitoring was removed; None while one is not) and
    `records_held` (a legal hold in force keeps its records)."""
    status = (
        EntityMonitoring.objects.filter(customer_person=OuterRef("pk"))
        .order_by("removed_flag", "-create_timestamp")
        .annotate(status_key=monitoring_status_expression())
        .values("status_key")[:1]
    )
    return queryset.annotate(
        monitoring_status_key=Subquery(status), relationship_ended=customer_person_ended(),
        records_held=customer_person_held(),
    ).select_related("gender", "screening_config")  # its config's retention period


def customer_person_duplicate_groups(*, config: ScreeningConfig) -> list[tuple[str, date | None, list[uuid.UUID]]]:
    """The config's possible second records of one customer: records not merged that share a name and birth
    date (`customer_person_key`, the rule of the dashboard's same-customer warning and of the file import),
    unless their customer references tell every two of them apart (at least one has none). By name, then
    birth date; each group's records oldest first. Read in one pass over the config's names."""
    groups: dict[tuple, list] = defaultdict(list)
    rows = (
        CustomerPerson.objects.filter(screening_config=config, merged_into__isnull=True)
        .order_by("create_timestamp", "uuid").values_list("uuid", "full_name", "birth_date", "customer_reference")
    )
    for person_uuid, full_name, birth_date, reference in rows.iterator(chunk_size=5000):
        groups[customer_person_key(full_name, birth_date)].append((person_uuid, full_name, birth_date, reference))
    found = [
        (people[0][1], people[0][2], [person[0] for person in people])
        for people in groups.values() if len(people) > 1 and not all(person[3] for person in people)
    ]
    return sorted(found, key=lambda group: (group[0].casefold(), group[1] or date.min))


def customer_persons_of(uuids: list[uuid.UUID]) -> dict[uuid.UUID, CustomerPerson]:
    """These customer persons, read as the list reads them (`monitoring_status_key` and the rest)."""
    return {person.uuid: person for person in _with_monitoring(CustomerPerson.objects.filter(uuid__in=uuids))}


def national_id_q(schema: str, number: str) -> Q:
    """Customer persons who have this national id (schema, compact number)."""
    return Q(
        national_identifications__national_identification_schema=schema,
        national_identifications__national_identification_number=number,
    )


def customer_person_get(*, app_customer_uuid: uuid.UUID, customer_person_uuid: uuid.UUID) -> CustomerPerson:
    person = _with_monitoring(
        CustomerPerson.objects.filter(uuid=customer_person_uuid, screening_config__app_customer_id=app_customer_uuid)
    ).first()
    if person is None:
        raise not_found("customer person", customer_person_uuid)
    return person


def gender_get(*, gender_uuid: uuid.UUID, loc: list) -> Gender:
    return found(Gender.objects.filter(uuid=gender_uuid), "gender", gender_uuid, loc)


def location_type_get(*, location_type_uuid: uuid.UUID, loc: list) -> PersonLocationType:
    return found(
        PersonLocationType.objects.filter(uuid=location_type_uuid), "person location type", location_type_uuid, loc
    )


def geo_country_get(*, geo_country_uuid: uuid.UUID, loc: list) -> GeoCountry:
    return found(GeoCountry.objects.filter(uuid=geo_country_uuid), "geo country", geo_country_uuid, loc)
