"""Writes of customer persons, their national identification numbers and locations.

National ids are checked and kept in one spelling by person_national_ids. A number identifies one
person: within a screening config it is recorded for one customer person only, so the same
customer is not screened (and raised) twice. A number holds its holder's birth date, so a number
and a birth date that disagree are refused, whichever of the two is written last (one of them is
mistyped, and screening on a wrong birth date weakens the match); a person without a birth date
takes the number's. A person's birth date may not lie in the future; nationalities are countries'
two letters.
"""

from __future__ import annotations

from datetime import date

from django.db import IntegrityError, transaction
from django.utils import timezone

from service.audit.services import Actor, audit_record
from service.companies.models import GeoCountry
from service.errors import BadRequest, bad_field, field_error
from service.screening.person_national_ids import (
    NATIONAL_ID_COUNTRIES,
    birth_date_disagrees,
    national_id_compact,
    national_id_disagreement,
)
from service.screening.person_selectors import national_id_q
from vakt_format.national_ids import national_id_birth_date
from service.screening.models import (
    CustomerPerson,
    CustomerPersonLocation,
    CustomerPersonNationalIdentification,
    Gender,
    PersonLocationType,
    ScreeningConfig,
)
from service.screening.config_lock import config_lock
from vakt_format.countries import country_code_known
from vakt_limits.customer_persons import CUSTOMER_REFERENCE_MAX

NATIONALITIES_MAX = 10


def _details_check(details: dict) -> dict:
    """A customer person's name, birth date and nationalities as given (any may be left out of
    `details`), cleaned: the name with single spaces, the nationalities upper case, each once. A blank
    name, a birth date in the future and a nationality that is not a country are one 400 naming each field."""
    errors = []
    details = dict(details)
    if "full_name" in details:
        if not (details["full_name"] or "").strip():
            errors.append(field_error(["body", "full_name"], "must not be blank"))
        details["full_name"] = " ".join((details["full_name"] or "").split())
    if why := birth_date_problem(details.get("birth_date")):
        errors.append(field_error(["body", "birth_date"], why))
    if "nationalities" in details:
        codes = list(dict.fromkeys(code.strip().upper() for code in details["nationalities"] or ()))
        unknown = [code or "(blank)" for code in codes if not country_code_known(code)]
        if unknown:
            countries = f"{', '.join(unknown)} {'is not a country' if len(unknown) == 1 else 'are not countries'}"
            errors.append(field_error(["body", "nationalities"], f"{countries}: give each country's two letters (ISO 3166-1 alpha-2), e.g. NO"))
        elif len(codes) > NATIONALITIES_MAX:
            errors.append(field_error(["body", "nationalities"], f"at most {NATIONALITIES_MAX} countries"))
        details["nationalities"] = codes
    if "customer_reference" in details:
        details["customer_reference"] = (details["customer_reference"] or "").strip()
        if len(details["customer_reference"]) > CUSTOMER_REFERENCE_MAX:
            errors.append(field_error(["body", "customer_reference"], f"at most {CUSTOMER_REFERENCE_MAX} characters"))
    if errors:
        names = ", ".join(e["loc"][-1] for e in errors)
        raise BadRequest(f"Invalid request: check {names}.", code="invalid_request", errors=errors)
    return details


def birth_date_problem(birth_date: date | None) -> str | None:
    """What is wrong with a birth date given for a person (None: nothing, or none given)."""
    if birth_date is not None and birth_date > timezone.localdate():
        return "must not be in the future"
    return None


def reference_holder(*, config_id, reference: str, but=None) -> CustomerPerson | None:
    """The config's customer person (other than `but`) who has this customer reference."""
    if not reference:
        return None
    return CustomerPerson.objects.filter(screening_config_id=config_id, customer_reference=reference).exclude(pk=but).first()


def _reference_taken(holder: CustomerPerson) -> BadRequest:
    return bad_field(
        ["body", "customer_reference"],
        f"already the reference of another customer person of the screening config: {holder.full_name} ({holder.uuid})",
        code="reference_taken",
    )


def _reference_free(*, config_id, reference: str, but=None) -> None:
    if holder := reference_holder(config_id=config_id, reference=reference, but=but):
        raise _reference_taken(holder)


def _saved_with_reference(save, *, config_id, reference: str, but=None):
    """`save()`, a reference taken meanwhile by another writer (the UNIQUE constraint) a 400 as a taken one is."""
    try:
        with transaction.atomic():
            return save()
    except IntegrityError:
        if holder := reference_holder(config_id=config_id, reference=reference, but=but):
            raise _reference_taken(holder) from None
        raise


def writable(person: CustomerPerson) -> None:
    """A record merged into another (`person_merge`) takes no more details: they belong to the record kept,
    where screening and an import find the customer. Removing what it holds stays possible."""
    if person.merged_into_id is not None:
        raise bad_field(
            ["path", "customer_person_uuid"], f"was merged into the customer person {person.merged_into_id}: write to that record",
            code="merged",
        )


def customer_person_create(
    *, config: ScreeningConfig, full_name: str, birth_date: date | None, gender: Gender | None,
    nationalities: list[str] | tuple[str, ...] = (), customer_reference: str = "", actor: Actor | None = None,
) -> CustomerPerson:
    details = _details_check({
        "full_name": full_name, "birth_date": birth_date, "nationalities": nationalities,
        "customer_reference": customer_reference,
    })
    reference = details["customer_reference"]
    _reference_free(config_id=config.pk, reference=reference)

    def save() -> CustomerPerson:
        person = CustomerPerson.objects.create(
            screening_config=config, full_name=details["full_name"], birth_date=birth_date, gender=gender,
            nationalities=details["nationalities"], customer_reference=reference,
        )
        customer_person_audit(person, actor, "customer_person.create", created_record(person))
        return person

    return _saved_with_reference(save, config_id=config.pk, reference=reference)


def created_record(person: CustomerPerson) -> dict:
    """What the audit log keeps of a customer person's creation (one rule for an add and an import)."""
    after = {"full_name": person.full_name, "birth_date": str(person.birth_date or "")}
    if person.nationalities:
        after["nationalities"] = list(person.nationalities)
    if person.customer_reference:
        after["customer_reference"] = person.customer_reference
    return after


def location_record(postal_place: str, country_code_two: str) -> dict:
    """What the audit log keeps of an address: its place and country, not the street."""
    return {"postal_place": postal_place, "country_code_two": country_code_two}


def national_id_country(schema: str) -> GeoCountry:
    """A national id's country when the caller names none: the schema's (added to the register if missing)."""
    return GeoCountry.objects.get_or_create(key=schema, defaults={"name": NATIONAL_ID_COUNTRIES[schema]})[0]


# What screening compares of a customer person: a correction of any of them screens them again.
SCREENED_FIELDS = ("full_name", "birth_date", "gender", "nationalities")
# What a correction may change: those, and the organisation's reference for the customer.
CORRECTABLE_FIELDS = (*SCREENED_FIELDS, "customer_reference")


def customer_person_update(
    *, person: CustomerPerson, changes: dict, actor: Actor | None = None, national_ids_shown: bool = False
) -> CustomerPerson:
    """Corrects a customer person's name, birth date, gender or nationalities (`changes` holds only the
    fields sent; a birth date or gender of None clears it, as an empty list does the nationalities).
    The row is locked and changed as it is now, so a correction committed meanwhile is neither undone
    nor missing from the audit log's before.

    A birth date that disagrees with a national id recorded for the person is refused (a 400 naming
    `birth_date`; it names the number only when `national_ids_shown`: the caller may read them).

    A correction changes what screening compares, so every monitoring that screens the person is
    screened again on commit (with the new details, against every current list). Cases raised on
    the old details stay for the reviewers; their explanation keeps the name that was compared."""
    unknown = set(changes) - set(CORRECTABLE_FIELDS)
    if unknown:
        raise ValueError(f"not correctable: {sorted(unknown)}")
    changes = _details_check(changes)
    reference = changes.get("customer_reference", "")
    _reference_free(config_id=person.screening_config_id, reference=reference, but=person.pk)

    def save() -> CustomerPerson:
        locked = CustomerPerson.objects.select_for_update().get(pk=person.pk)
        writable(locked)
        if changes.get("birth_date") is not None and changes["birth_date"] != locked.birth_date:
            for row in locked.national_identifications.order_by("create_timestamp", "uuid"):
                schema, number = row.national_identification_schema, row.national_identification_number
                if why := national_id_disagreement(schema=schema, compact=number, birth_date=changes["birth_date"],
                                                   shown=national_ids_shown):
                    raise bad_field(["body", "birth_date"], why, code="birth_date_disagrees")
        customer_person_details_save(locked, changes, actor)
        return locked

    return _saved_with_reference(save, config_id=person.screening_config_id, reference=reference, but=person.pk)


def customer_person_details_save(person: CustomerPerson, changes: dict, actor: Actor | None) -> None:
    """Sets the details of a locked person, records what changed (before and after) and screens the
    person again under every monitoring that screens them, when anything did."""
    from service.screening.monitoring_selectors import screened_q
    from service.screening.monitoring_services import monitorings_rescreen

    before = _correctable_state(person)
    for field, value in changes.items():
        setattr(person, field, value)
    after = _correctable_state(person)
    changed = [key for key in after if after[key] != before[key]]
    if not changed:
        return
    person.save(update_fields=[*changes, "update_timestamp"])
    customer_person_audit(
        person, actor, "customer_person.update",
        after={k: after[k] for k in changed}, before={k: before[k] for k in changed},
    )
    if not set(changed) & set(SCREENED_FIELDS):
        return  # only the reference: nothing screening compares
    monitorings = list(person.entity_monitorings.filter(screened_q()).values_list("uuid", flat=True))
    if monitorings:
        monitorings_rescreen(monitoring_uuids=monitorings)


def _correctable_state(person: CustomerPerson) -> dict:
    return {
        "full_name": person.full_name,
        "birth_date": str(person.birth_date or ""),
        "gender": person.gender.key if person.gender_id else "",
        "nationalities": list(person.nationalities),
        "customer_reference": person.customer_reference,
    }


def customer_person_audit(person: CustomerPerson, actor: Actor | None, action: str, after: dict | None, before: dict | None = None) -> None:
    """A customer person write in the audit log (a national id's number is never copied there)."""
    audit_record(
        app_customer_uuid=person.screening_config.app_customer_id,
        actor=actor,
        action=action,
        object_type="customer_person",
        object_uuid=person.uuid,
        object_label=person.full_name,
        before=before,
        after=after,
    )


def customer_person_national_id_add(
    *, person: CustomerPerson, schema: str, number: str, geo_country: GeoCountry | None, actor: Actor | None = None
) -> CustomerPersonNationalIdentification:
    """Records a checked number for the person. One whose birth date is not the person's is a 400
    (`birth_date_disagrees`); a person without a birth date takes the number's (audited and screened
    again as a correction is)."""
    schema = schema.strip().upper()
    compact = national_id_compact(schema=schema, number=number)
    country = geo_country or national_id_country(schema)
    duplicate = bad_field(
        ["body", "national_identification_number"], "this number is already recorded for the person", code="already_recorded"
    )
    if person.national_identifications.filter(national_identification_schema=schema, national_identification_number=compact).exists():
        raise duplicate
    try:
        with transaction.atomic():
            # One writer of the config's numbers at a time, so two people cannot both take one number.
            config_lock(person.screening_config_id)
            # The birth date as it is now (a correction waits): the number must be of someone born then.
            person = CustomerPerson.objects.select_for_update().get(pk=person.pk)
            writable(person)
            if why := birth_date_disagrees(schema=schema, compact=compact, birth_date=person.birth_date):
                raise bad_field(["body", "national_identification_number"], why, code="birth_date_disagrees")
            holder = (
                CustomerPerson.objects.filter(national_id_q(schema, compact), screening_config_id=person.screening_config_id)
                .exclude(pk=person.pk)
                .first()
            )
            if holder is not None:
                raise bad_field(
                    ["body", "national_identification_number"],
                    f"already recorded for another customer person of the screening config: {holder.full_name} ({holder.uuid})",
                    code="recorded_for_another_person",
                )
            row = CustomerPersonNationalIdentification.objects.create(
                customer_person=person,
                national_identification_schema=schema,
                national_identification_number=compact,
                geo_country=country,
            )
            customer_person_audit(person, actor, "customer_person.national_id_add", {"national_identification_schema": schema})
            if person.birth_date is None:
                customer_person_details_save(person, {"birth_date": national_id_birth_date(schema=schema, number=compact)}, actor)
            return row
    except IntegrityError:
        raise duplicate from None


LOCATION_TEXT_FIELDS = (
    "street_address",
    "postal_code",
    "postal_place",
    "municipality_code",
    "municipality_name",
    "country_code_two",
    "country_name",
    "street_name",
    "street_number",
    "street_letter",
)


def customer_person_location_add(
    *,
    person: CustomerPerson,
    location_type: PersonLocationType | None,
    geo_location_uuid,
    texts: dict[str, str],
    actor: Actor | None = None,
) -> CustomerPersonLocation:
    values = {field: (texts.get(field) or "").strip() for field in LOCATION_TEXT_FIELDS}
    country_code = values["country_code_two"]
    if country_code and not country_code_known(country_code):
        raise bad_field(["body", "country_code_two"], "must be a country's two letters (ISO 3166-1 alpha-2), e.g. NO")
    values["country_code_two"] = country_code.upper()
    with transaction.atomic():
        writable(CustomerPerson.objects.select_for_update().get(pk=person.pk))
        row = CustomerPersonLocation.objects.create(
            customer_person=person, person_location_type=location_type, geo_location_uuid=geo_location_uuid, **values
        )
        customer_person_audit(person, actor, "customer_person.location_add", location_record(values["postal_place"], values["country_code_two"]))
    return row


def customer_person_national_id_remove(*, row: CustomerPersonNationalIdentification, actor: Actor | None = None) -> None:
    """Removes a wrongly recorded number (rectification). Screening does not read national ids, so
    nothing is screened again; the audit log names the schema, never the number."""
    with transaction.atomic():
        removed, _ = CustomerPersonNationalIdentification.objects.filter(pk=row.pk).delete()
        if removed:  # a removal that lost a race to another one records nothing
            customer_person_audit(
                row.customer_person, actor, "customer_person.national_id_remove",
                after=None, before={"national_identification_schema": row.national_identification_schema},
            )


def customer_person_location_remove(*, row: CustomerPersonLocation, actor: Actor | None = None) -> None:
    """Removes an address (wrong, or no longer the person's). Screening does not read addresses."""
    with transaction.atomic():
        removed, _ = CustomerPersonLocation.objects.filter(pk=row.pk).delete()
        if removed:
            customer_person_audit(
                row.customer_person, actor, "customer_person.location_remove",
                after=None, before=location_record(row.postal_place, row.country_code_two),
            )

