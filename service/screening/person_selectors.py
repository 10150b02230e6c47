"""Reads of customer persons, scoped to the calling organisation (through their config)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.db.models import OuterRef, Q, QuerySet, Subquery

from service.screening.access import found, not_found
from service.screening.models import CustomerPerson, EntityMonitoring, Gender, PersonLocationType, ScreeningConfig
from service.screening.monitoring_selectors import monitoring_status_expression
from service.screening.records_retention import customer_person_ended, customer_person_held
from service.companies.models import GeoCountry
from vakt_format.persons import (
    birth_date_slips, birth_dates_slipped, customer_person_key, name_compared, names_similar,
)


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


SAME_NAME, SIMILAR_NAME, SIMILAR_BIRTH_DATE = "same_name", "similar_name", "similar_birth_date"
# Distinct names of one birth date compared two by two at most (a placeholder date many records
# share, 01.01.1900 say, is left out of the similar names: its pairs are no evidence).
SIMILAR_NAMES_OF_A_DAY_MAX = 1000


@dataclass(frozen=True, slots=True)
class DuplicateGroup:
    match_key: str  # SAME_NAME, SIMILAR_NAME or SIMILAR_BIRTH_DATE
    full_name: str  # the oldest record's
    birth_date: date | None  # the oldest record's
    person_uuids: list[uuid.UUID]  # oldest first


@dataclass(frozen=True, slots=True)
class _Record:
    order: int  # oldest first
    uuid: uuid.UUID
    full_name: str
    birth_date: date | None
    customer_reference: str


def customer_person_duplicate_groups(*, config: ScreeningConfig, of: CustomerPerson | None = None) -> list[DuplicateGroup]:
    """The config's possible second records of one customer, among the records not merged: those that share a
    name and birth date (`customer_person_key`, the rule of the dashboard's same-customer warning and of the file
    import: SAME_NAME); those of one birth date whose names differ but are `names_similar` (SIMILAR_NAME: a
    misspelt name to correct before a merge); and those of one name whose birth dates are a slip of each other
    (`birth_dates_slipped`, SIMILAR_BIRTH_DATE: a mistyped date to correct before a merge). A group only when the
    customer references do not tell every two of its records apart (at least one has none). By kind, in that
    order, then name and birth date; each group's records oldest first. Read in one pass over the config's names; `of` one person's groups
    only, read from those born the day they were or on one of its slips (every group is of those days)."""
    by_key: dict[tuple, list[_Record]] = defaultdict(list)
    records = CustomerPerson.objects.filter(screening_config=config, merged_into__isnull=True)
    if of is not None:
        records = (records.filter(birth_date__in={of.birth_date, *birth_date_slips(of.birth_date)}) if of.birth_date
                   else records.filter(birth_date__isnull=True))
    rows = (
        records.order_by("create_timestamp", "uuid").values_list("uuid", "full_name", "birth_date", "customer_reference")
    )
    for order, values in enumerate(rows.iterator(chunk_size=5000)):
        record = _Record(order, *values)
        by_key[customer_person_key(record.full_name, record.birth_date)].append(record)
    groups = [(SAME_NAME, people) for people in by_key.values() if len(people) > 1]
    groups += [(SIMILAR_NAME, people) for people in _similar_names(by_key)]
    groups += [(SIMILAR_BIRTH_DATE, people) for people in _similar_birth_dates(by_key)]
    found = [
        DuplicateGroup(match_key, people[0].full_name, people[0].birth_date, [person.uuid for person in people])
        for match_key, people in groups if not all(person.customer_reference for person in people)
        and (of is None or of.uuid in {person.uuid for person in people})
    ]
    strength = {SAME_NAME: 0, SIMILAR_NAME: 1, SIMILAR_BIRTH_DATE: 2}  # the likeliest second records first
    return sorted(found, key=lambda group: (strength[group.match_key], group.full_name.casefold(),
                                            group.birth_date or date.min))


def _similar_names(by_key: dict[tuple, list[_Record]]) -> list[list[_Record]]:
    """Records of one birth date whose names are `names_similar` though not the same, joined: two names
    similar to a third are one group. Each group's records oldest first."""
    days: dict[date, list[tuple]] = defaultdict(list)
    for key in by_key:
        if key[1] is not None:
            days[key[1]].append(key)
    found = []
    for keys in days.values():
        if 2 <= len(keys) <= SIMILAR_NAMES_OF_A_DAY_MAX:
            names = [name_compared(by_key[key][0].full_name) for key in keys]
            pairs = ((i, j) for i in range(len(keys)) for j in range(i + 1, len(keys))
                     if names_similar(names[i], names[j]))
            found += _joined(by_key, keys, pairs)
    return found


def _similar_birth_dates(by_key: dict[tuple, list[_Record]]) -> list[list[_Record]]:
    """Records of one name whose birth dates differ by a slip (`birth_dates_slipped`), joined: two dates
    each a slip of a third are one group. Each group's records oldest first."""
    names: dict[str, list[tuple]] = defaultdict(list)
    for key in by_key:
        if key[1] is not None:
            names[key[0]].append(key)
    found = []
    for keys in names.values():
        if len(keys) >= 2:
            found += _joined(by_key, keys, birth_dates_slipped([key[1] for key in keys]))
    return found


def _joined(by_key: dict[tuple, list[_Record]], keys: list[tuple], pairs: Iterable[tuple[int, int]]) -> list[list[_Record]]:
    """The keys' records, those of the keys of each pair (positions in `keys`) joined (a union-find), in groups
    of two keys or more, each group's records oldest first."""
    joined = list(range(len(keys)))  # each key's group, by its first key's position

    def root(i: int) -> int:
        while joined[i] != i:
            i = joined[i]
        return i

    for i, j in pairs:
        if root(i) != root(j):
            joined[root(j)] = root(i)
    members = defaultdict(list)
    for i, key in enumerate(keys):
        members[root(i)].append(key)
    return [sorted((r for key in same for r in by_key[key]), key=lambda r: r.order)
            for same in members.values() if len(same) > 1]


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
