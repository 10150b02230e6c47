"""Importing a file of customer persons (person_import_file.py) and putting them under monitoring:
how a bank brings its private customers into continuous screening at once, not one by one.

All or nothing: a file with any bad row is refused whole (upload_csv.upload_checked), and a good
one is written in one transaction. Each row is one customer person:

- **created**: nobody of the config is that customer yet: the person (with the row's `id` as their
  customer reference), their national id and address, and a monitoring (type `other`, no company);
- **monitored**: an existing customer person is that customer but nothing screens them now (never
  monitored, or their monitoring was removed): a new monitoring;
- **already_monitored**: an existing customer person under a monitoring that is not removed
  (pending or active): nothing new.

An existing customer person is that customer when their customer reference is the row's, when a
national id recorded for them is the row's, or when their name and birth date are the row's
(`vakt_format.persons.customer_person_key`) and no other reference or number of one country tells
them apart. A reference and a number of two different people, or a number of someone with another
reference, are refused. An existing person's details are not changed by a file, but a reference or
a national id the row has and they lack is recorded. So importing the same file again creates nothing.

The monitorings are approved at once by the member (`approved_flag`, decision origin `user`) and
screened after commit, as are those of existing persons that wait for their first decision (a
file imported without approval can be imported again with it), or wait under Pending for a decision (rule 4: a customer person is never
screened without one). Every act is in the audit log as when done one by one: each person added,
each number and address, each approval. A dry run answers the same without writing.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction

from service.audit.services import Actor, actor_api_user_name, audit_event, audit_events_insert
from service.errors import BadRequest, bad_field
from service.screening.models import (
    CustomerPerson,
    CustomerPersonLocation,
    CustomerPersonNationalIdentification,
    EntityMonitoring,
    EntityMonitoringType,
    Gender,
    PersonLocationType,
    ScreeningConfig,
)
from service.screening.monitoring_services import (
    DecisionSpec,
    monitoring_row,
    monitorings_decide_waiting,
    monitorings_insert_many,
)
from service.screening.person_import_file import PersonFile, PersonRow, person_file_read
from service.screening.person_services import created_record, location_record, national_id_country
from service.screening.upload_csv import MAX_LISTED_PROBLEMS, FileProblem, upload_checked
from service.screening.config_lock import config_lock
from vakt_format.norwegian import day
from vakt_format.persons import customer_person_key

CREATED, MONITORED, ALREADY_MONITORED = "created", "monitored", "already_monitored"
IN_CHUNK = 500  # numbers or uuids in one IN (...)
# Rows written at a time, in the import's one transaction, so that one chunk's model instances are
# held at once whatever the file's length. A multiple of SCREENING_BATCH, so the screenings owed
# are queued in full batches.
WRITE_CHUNK = 2000


@dataclass(slots=True)
class RowOutcome:
    row: PersonRow
    outcome: str
    existing: _Known | None = None  # the existing customer person the row is
    person_uuid: uuid.UUID | None = None  # the existing one's, or the new one's once written
    monitoring_uuid: uuid.UUID | None = None
    national_id_added: bool = False
    reference_added: bool = False  # an existing person without one gets the row's
    approved_now: bool = False  # an approving import: their monitoring, waiting for a decision, approved


@dataclass
class ImportResult:
    file_name: str
    approved_flag: bool
    dry_run: bool
    rows: list[RowOutcome] = field(default_factory=list)

    def count(self, outcome: str) -> int:
        return sum(1 for row in self.rows if row.outcome == outcome)

    @property
    def created_count(self) -> int:
        """New customer persons, each with a new monitoring."""
        return self.count(CREATED)

    @property
    def monitored_count(self) -> int:
        """Monitorings created: the new persons' and existing persons' nothing screened."""
        return self.created_count + self.count(MONITORED)

    @property
    def already_monitored_count(self) -> int:
        return self.count(ALREADY_MONITORED)

    @property
    def national_ids_added_count(self) -> int:
        return sum(1 for row in self.rows if row.national_id_added)

    @property
    def approved_now_count(self) -> int:
        return sum(1 for row in self.rows if row.approved_now)


def customer_person_file_check(
    *, content: bytes, national_ids_check: Callable[[], None], background: bool = False,
) -> PersonFile:
    """The file's rows, or the 4xx that names every problem by line and column. A file that gives
    national ids is first put to `national_ids_check` (the caller's role check, which raises), so a
    caller who may not write them learns nothing of them, not even whether they are valid. The
    limits are the synchronous import's, or with `background` an import job's."""
    max_rows = settings.VAKT_IMPORT_JOB_MAX_ROWS if background else settings.VAKT_BATCH_MAX_ROWS

    def read(data: bytes) -> PersonFile:
        person_file = person_file_read(data, max_rows=max_rows)
        if person_file.national_ids_given:
            national_ids_check()
        return person_file

    return upload_checked(
        content=content, read=read, nothing_done="nothing was imported", no_rows="has no customer persons to import",
        max_bytes=settings.VAKT_IMPORT_JOB_MAX_BYTES if background else None,
    )


def customer_persons_import(
    *, config: ScreeningConfig, person_file: PersonFile, file_name: str, approved_flag: bool, comment: str,
    actor: Actor, dry_run: bool = False, background: bool = False,
) -> ImportResult:
    """Imports the checked file's rows (see the module); with `dry_run` only says what it would do. A request
    waits a few seconds at most for the config's lock (config_lock.py), an import job (`background`) as long
    as it takes."""
    comment = comment.strip() or f"Imported from {file_name or 'a file'}."
    result = ImportResult(file_name=file_name, approved_flag=approved_flag, dry_run=dry_run)
    if dry_run:
        result.rows = _plan(config, person_file.rows, approve=approved_flag)
        return result
    try:
        with transaction.atomic():
            # One writer of the config's numbers at a time (as an add one by one), so two imports
            # or an import and an add cannot both take one number or both create one customer.
            config_lock(config.pk, wait=background)
            result.rows = _plan(config, person_file.rows, approve=approved_flag)
            _write(config, result, comment=comment, actor=actor)
    except IntegrityError:  # a reference given one by one meanwhile (an add does not lock the config)
        raise bad_field(["body", "file"], "a customer reference of the file was given to a customer person while it "
                        "was imported; nothing was imported: import it again", code="changed_meanwhile") from None
    return result


def _plan(config: ScreeningConfig, rows: list[PersonRow], *, approve: bool) -> list[RowOutcome]:
    """Who each row is (see the module); a 400 naming every row that cannot be one customer person."""
    by_reference = _reference_holders(config, {row.reference for row in rows if row.reference})
    holders = _number_holders(config, {row.national_id for row in rows if row.national_id})
    namesakes = _namesakes(config, {row.key() for row in rows})
    numbers = _numbers_of([person.uuid for people in namesakes.values() for person in people])
    outcomes, claimed, problems = [], {}, []
    for row in rows:
        person, why = _existing(row, by_reference, holders, namesakes, numbers)
        if why:
            problems.append(why)
            continue
        if person is None:
            outcomes.append(RowOutcome(row=row, outcome=CREATED))
            continue
        if person.uuid in claimed:
            problems.append(FileProblem(row.line, "name", (
                f"the customer person {person.full_name} ({person.uuid}) that line {claimed[person.uuid]} is, "
                "by customer reference, national id, or name and birth date: a customer is imported once")))
            continue
        claimed[person.uuid] = row.line
        lacks_number = row.national_id is not None and row.national_id not in holders
        if lacks_number and person.birth_date != row.birth_date:  # found by reference: the number must be theirs
            born = f"was born {day(person.birth_date)}" if person.birth_date else "has no birth date"
            problems.append(FileProblem(row.line, "national_id", (
                f"is of someone born {day(row.birth_date)}, but {person.full_name} ({person.uuid}), whose customer "
                f"reference this is, {born}: correct them on their page first")))
            continue
        outcomes.append(RowOutcome(
            row=row, outcome=ALREADY_MONITORED if person.monitored else MONITORED, existing=person, person_uuid=person.uuid,
            monitoring_uuid=person.monitoring_uuid, national_id_added=lacks_number,
            reference_added=bool(row.reference) and not person.customer_reference,
            approved_now=approve and person.waiting,
        ))
    if problems:
        problems.sort(key=lambda problem: problem.line)
        raise BadRequest(
            f"The file has {len(problems)} row(s) that are not one customer person each; nothing was imported.",
            code="invalid_file", errors=[{"loc": p.loc(), "msg": p.msg} for p in problems[:MAX_LISTED_PROBLEMS]],
        )
    return outcomes


def _existing(row: PersonRow, by_reference, holders, namesakes, numbers) -> tuple[_Known | None, FileProblem | None]:
    """The existing customer person the row is (None: a new one), or why it cannot be said."""
    referenced = by_reference.get(row.reference) if row.reference else None
    holder = holders.get(row.national_id) if row.national_id else None
    if referenced and holder and referenced.uuid != holder.uuid:
        return None, FileProblem(row.line, "id", (
            f"is the customer reference of {referenced.full_name} ({referenced.uuid}), but the national id is recorded "
            f"for {holder.full_name} ({holder.uuid})"))
    if holder and row.reference and holder.customer_reference and holder.customer_reference != row.reference:
        return None, FileProblem(row.line, "id", (
            f"the national id is recorded for {holder.full_name} ({holder.uuid}), whose customer reference is "
            f"{holder.customer_reference}"))
    if referenced or holder:
        return referenced or holder, None
    for namesake in namesakes.get(row.key(), ()):
        if not _told_apart(row, namesake, numbers.get(namesake.uuid, {})):
            return namesake, None
    return None, None


def _told_apart(row: PersonRow, namesake: "_Known", their_numbers: dict[str, str]) -> bool:
    """A namesake is someone else when they have another customer reference, or a number of the row's
    number's country, another one."""
    if row.reference and namesake.customer_reference and row.reference != namesake.customer_reference:
        return True
    return row.national_id is not None and their_numbers.get(row.national_id[0], row.national_id[1]) != row.national_id[1]


def _chunks(values: list, size: int = IN_CHUNK) -> list[list]:
    return [values[start : start + size] for start in range(0, len(values), size)]


@dataclass(slots=True)
class _Known:
    """An existing customer person of the config, as the plan needs them (read as plain values:
    an import looks up tens of thousands)."""

    uuid: uuid.UUID
    full_name: str
    birth_date: dt.date | None
    customer_reference: str
    monitoring_uuid: uuid.UUID | None = None  # their monitoring not removed, if any
    waiting: bool = False  # that monitoring waits for its first decision

    @property
    def monitored(self) -> bool:
        return self.monitoring_uuid is not None

    def as_person(self, config: ScreeningConfig) -> CustomerPerson:
        """The stored person to write for (their uuid, name and reference are all a write reads)."""
        person = CustomerPerson(
            uuid=self.uuid, full_name=self.full_name, screening_config=config, customer_reference=self.customer_reference
        )
        person._state.adding = False
        return person


def _with_monitoring(people: list[_Known], config: ScreeningConfig) -> None:
    """Sets each one's monitoring not removed in the config, if any, and whether it waits for a decision."""
    current = {}
    for chunk in _chunks([p.uuid for p in people]):
        rows = EntityMonitoring.objects.filter(  # by (config, entity_uuid): its index
            screening_config=config, entity_uuid__in=chunk, entity_key=EntityMonitoring.EntityKey.CUSTOMER_PERSON,
            removed_flag=False,
        ).values_list("entity_uuid", "uuid", "latest_decision_id")
        current.update((person_uuid, (monitoring_uuid, decision)) for person_uuid, monitoring_uuid, decision in rows)
    for person in people:
        person.monitoring_uuid, decision = current.get(person.uuid, (None, None))
        person.waiting = person.monitoring_uuid is not None and decision is None


KNOWN_FIELDS = ("uuid", "full_name", "birth_date", "customer_reference")


def _reference_holders(config: ScreeningConfig, references: set[str]) -> dict[str, _Known]:
    """Who of the config has each of these customer references."""
    holders = {}
    for chunk in _chunks(sorted(references)):
        for values in CustomerPerson.objects.filter(screening_config=config, customer_reference__in=chunk).values_list(*KNOWN_FIELDS):
            person = _Known(*values)
            holders[person.customer_reference] = person
    _with_monitoring(list(holders.values()), config)
    return holders


def _number_holders(config: ScreeningConfig, national_ids: set[tuple[str, str]]) -> dict[tuple[str, str], _Known]:
    """Who of the config has each of these numbers."""
    holders, known = {}, {}
    person_fields = [f"customer_person__{name}" for name in KNOWN_FIELDS]
    for chunk in _chunks(sorted({number for _, number in national_ids})):
        rows = CustomerPersonNationalIdentification.objects.filter(
            customer_person__screening_config=config, national_identification_number__in=chunk,
        ).values_list("national_identification_schema", "national_identification_number", *person_fields)
        for schema, number, *values in rows:
            if (schema, number) in national_ids:
                holders[(schema, number)] = known.setdefault(values[0], _Known(*values))
    _with_monitoring(list(known.values()), config)
    return holders


def _namesakes(config: ScreeningConfig, keys: set[tuple]) -> dict[tuple, list[_Known]]:
    """The config's customer persons by name-and-birth-date key, of the keys wanted; those under
    monitoring first, then the oldest (of two records of one customer, the one screened is kept)."""
    found = defaultdict(list)
    # A record merged into another is no one's record any more: the customer is found as the one kept.
    people = CustomerPerson.objects.filter(screening_config=config, merged_into__isnull=True).order_by("create_timestamp", "uuid")
    for values in people.values_list(*KNOWN_FIELDS).iterator(chunk_size=5000):
        person = _Known(*values)
        key = customer_person_key(person.full_name, person.birth_date)
        if key in keys:
            found[key].append(person)
    _with_monitoring([p for people in found.values() for p in people], config)
    for people in found.values():
        people.sort(key=lambda p: not p.monitored)  # stable: oldest first within each
    return found


def _numbers_of(person_uuids: list[uuid.UUID]) -> dict[uuid.UUID, dict[str, str]]:
    numbers: dict[uuid.UUID, dict[str, str]] = defaultdict(dict)
    for chunk in _chunks(person_uuids):
        rows = CustomerPersonNationalIdentification.objects.filter(customer_person_id__in=chunk).values_list(
            "customer_person_id", "national_identification_schema", "national_identification_number"
        )
        for person_uuid, schema, number in rows:
            numbers[person_uuid].setdefault(schema, number)
    return numbers


def _write(config: ScreeningConfig, result: ImportResult, *, comment: str, actor: Actor) -> None:
    writer = _ChunkWriter(config, result.approved_flag, comment=comment, actor=actor)
    for chunk in _chunks(result.rows, WRITE_CHUNK):
        writer.write(chunk)
    waiting = {outcome.monitoring_uuid: outcome for outcome in result.rows if outcome.approved_now}
    if writer.decision is not None and waiting:
        decided = set(monitorings_decide_waiting(monitoring_uuids=list(waiting), decision=writer.decision))
        for monitoring_uuid, outcome in waiting.items():
            outcome.approved_now = monitoring_uuid in decided  # one decided meanwhile keeps that decision
            if outcome.approved_now:
                writer.audit.add_decision(outcome, comment)
    writer.audit.insert()


class _ChunkWriter:
    """Writes the plan's rows a chunk at a time: the new persons with their numbers and addresses,
    the references and numbers existing persons lack, a monitoring for each person nothing screens
    (approved when asked), and the audit records of each act."""

    def __init__(self, config: ScreeningConfig, approved_flag: bool, *, comment: str, actor: Actor) -> None:
        self.config, self.comment, self.actor = config, comment, actor
        self.genders = {gender.key: gender for gender in Gender.objects.all()}
        self.residence = PersonLocationType.objects.filter(key="residence").first()
        self.other = EntityMonitoringType.objects.get(key="other")
        self.countries: dict[str, object] = {}
        self.audit = _Audit(config, actor)
        self.decision = None
        if approved_flag:
            self.decision = DecisionSpec(
                approved_flag=True, origin_key="user", comment=comment, app_membership=actor.app_membership,
                api_user_uuid=actor.api_user_uuid,
            )

    def write(self, chunk: list[RowOutcome]) -> None:
        persons = {outcome.row.line: self._person(outcome) for outcome in chunk if outcome.outcome != ALREADY_MONITORED
                   or outcome.reference_added or outcome.national_id_added}
        new = [outcome for outcome in chunk if outcome.outcome == CREATED]
        CustomerPerson.objects.bulk_create([persons[outcome.row.line] for outcome in new], batch_size=1000)
        for outcome in new:
            outcome.person_uuid = persons[outcome.row.line].uuid

        referenced = [outcome for outcome in chunk if outcome.reference_added]
        for outcome in referenced:
            persons[outcome.row.line].customer_reference = outcome.row.reference
            self.audit.add(persons[outcome.row.line], "customer_person.update", {"customer_reference": outcome.row.reference},
                           before={"customer_reference": ""})
        CustomerPerson.objects.bulk_update([persons[outcome.row.line] for outcome in referenced], ["customer_reference"])

        numbers = []
        for outcome in chunk:
            if outcome.row.national_id and (outcome.outcome == CREATED or outcome.national_id_added):
                schema, number = outcome.row.national_id
                if schema not in self.countries:
                    self.countries[schema] = national_id_country(schema)
                numbers.append(CustomerPersonNationalIdentification(
                    customer_person=persons[outcome.row.line], national_identification_schema=schema,
                    national_identification_number=number, geo_country=self.countries[schema],
                ))
                self.audit.add(persons[outcome.row.line], "customer_person.national_id_add", {"national_identification_schema": schema})
        CustomerPersonNationalIdentification.objects.bulk_create(numbers, batch_size=1000)

        addresses = []
        for outcome in new:
            if address := outcome.row.address:
                addresses.append(CustomerPersonLocation(customer_person=persons[outcome.row.line], person_location_type=self.residence, **address))
                self.audit.add(persons[outcome.row.line], "customer_person.location_add", location_record(address.get("postal_place", ""), address.get("country_code_two", "")))
        CustomerPersonLocation.objects.bulk_create(addresses, batch_size=1000)

        self._monitor([(outcome, persons[outcome.row.line]) for outcome in chunk if outcome.outcome in (CREATED, MONITORED)])

    def _person(self, outcome: RowOutcome) -> CustomerPerson:
        """The row's new customer person (unsaved, audited as created), or the existing one's to write for."""
        if outcome.existing is not None:
            return outcome.existing.as_person(self.config)
        row = outcome.row
        person = CustomerPerson(
            screening_config=self.config, full_name=row.full_name, birth_date=row.birth_date,
            gender=self.genders.get(row.gender) if row.gender else None, nationalities=list(row.nationalities),
            customer_reference=row.reference,
        )
        self.audit.add(person, "customer_person.create", created_record(person))
        return person

    def _monitor(self, wanted: list[tuple[RowOutcome, CustomerPerson]]) -> None:
        """A monitoring for each of these rows' persons; approved (and screened after commit) when asked."""
        monitorings = []
        for _, person in wanted:
            monitoring = monitoring_row(
                config=self.config, entity=person, related_company=None, monitoring_type=self.other,
                origin_key="user" if self.actor.app_membership else "api", comment=self.comment,
            )
            monitoring.app_membership = self.actor.app_membership
            monitorings.append(monitoring)
        inserted = {m.customer_person_id: m.uuid for m in monitorings_insert_many(monitorings=monitorings, decision=self.decision)}
        for outcome, person in wanted:
            outcome.monitoring_uuid = inserted.get(person.uuid)
            if outcome.monitoring_uuid is None:  # one was created meanwhile by another writer: it stands
                outcome.outcome = ALREADY_MONITORED
            elif self.decision is not None:
                self.audit.add_decision(outcome, self.comment)


class _Audit:
    """The import's audit records, as the acts one by one would have written them; inserted as they
    come, AUDIT_BATCH at a time, in the import's transaction (a file of 100,000 rows makes about
    400,000: held until the commit, they would be most of the import's memory)."""

    AUDIT_BATCH = 5000

    def __init__(self, config: ScreeningConfig, actor: Actor) -> None:
        self.config, self.actor, self.events = config, actor, []
        self.api_user_name = actor_api_user_name(actor)

    def _event(self, **fields) -> None:
        self.events.append(audit_event(
            app_customer_uuid=self.config.app_customer_id, actor=self.actor, api_user_name=self.api_user_name, **fields,
        ))
        if len(self.events) >= self.AUDIT_BATCH:
            self.insert()

    def add(self, person: CustomerPerson, action: str, after: dict, before: dict | None = None) -> None:
        self._event(action=action, object_type="customer_person", object_uuid=person.uuid,
                    object_label=person.full_name, after=after, before=before)

    def add_decision(self, outcome: RowOutcome, comment: str) -> None:
        self._event(
            action="entity_monitoring.decide", object_type="entity_monitoring", object_uuid=outcome.monitoring_uuid,
            object_label=outcome.existing.full_name if outcome.existing else outcome.row.full_name,
            after={"approved_flag": True, "decision_comment": comment, "decision_origin_key": "user"},
        )

    def insert(self) -> None:
        audit_events_insert(self.events)
        self.events = []
