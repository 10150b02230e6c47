"""Writes of customer persons, their national identification numbers and locations.

National ids are checked with python-stdnum (NO fødselsnummer, including D-numbers;
SE personnummer; DK CPR) and stored in one form (compact; SE as its twelve digits), so the same number written
with or without separators is one number. A number identifies one person: within a screening config
it is recorded for one customer person only, so the same customer is not screened (and raised) twice.
A person's birth date may not lie in the future.
"""

from __future__ import annotations

from datetime import date

from django.db import IntegrityError, transaction
from django.utils import timezone
from stdnum.dk import cpr
from stdnum.exceptions import ValidationError as StdnumError
from stdnum.no import fodselsnummer
from stdnum.se import personnummer

from service.audit.services import Actor, audit_record
from service.companies.models import GeoCountry
from service.errors import BadRequest, bad_field, field_error
from service.screening.person_selectors import national_id_q
from service.screening.models import (
    CustomerPerson,
    CustomerPersonLocation,
    CustomerPersonNationalIdentification,
    Gender,
    PersonLocationType,
    ScreeningConfig,
)
from vakt_format.countries import country_code_known

NATIONAL_ID_MODULES = {"NO": fodselsnummer, "SE": personnummer, "DK": cpr}
# A national id's country when the caller names none: the schema's (created in the register when missing).
NATIONAL_ID_COUNTRIES = {"NO": "Norway", "SE": "Sweden", "DK": "Denmark"}
NATIONAL_ID_NAMES = {"NO": "Norwegian fødselsnummer or D-number", "SE": "Swedish personnummer", "DK": "Danish CPR number"}


def _details_check(details: dict) -> None:
    """A customer person's name and birth date as given (either may be left out of `details`): a
    blank name and a birth date in the future are one 400 naming each field."""
    errors = []
    if "full_name" in details and not (details["full_name"] or "").strip():
        errors.append(field_error(["body", "full_name"], "must not be blank"))
    if details.get("birth_date") is not None and details["birth_date"] > timezone.localdate():
        errors.append(field_error(["body", "birth_date"], "must not be in the future"))
    if errors:
        names = ", ".join(e["loc"][-1] for e in errors)
        raise BadRequest(f"Invalid request: check {names}.", code="invalid_request", errors=errors)


def customer_person_create(
    *, config: ScreeningConfig, full_name: str, birth_date: date | None, gender: Gender | None, actor: Actor | None = None
) -> CustomerPerson:
    _details_check({"full_name": full_name, "birth_date": birth_date})
    with transaction.atomic():
        person = CustomerPerson.objects.create(
            screening_config=config, full_name=" ".join(full_name.split()), birth_date=birth_date, gender=gender
        )
        _audit(person, actor, "customer_person.create", {"full_name": person.full_name, "birth_date": str(birth_date or "")})
    return person


# What a correction may change: exactly what screening compares of a customer person.
CORRECTABLE_FIELDS = ("full_name", "birth_date", "gender")


def customer_person_update(*, person: CustomerPerson, changes: dict, actor: Actor | None = None) -> CustomerPerson:
    """Corrects a customer person's name, birth date or gender (`changes` holds only the fields
    sent; a birth date or gender of None clears it). The row is locked and changed as it is now,
    so a correction committed meanwhile is neither undone nor missing from the audit log's before.

    A correction changes what screening compares, so every monitoring that screens the person is
    screened again on commit (with the new details, against every current list). Cases raised on
    the old details stay for the reviewers; their explanation keeps the name that was compared."""
    from service.screening.monitoring_selectors import screened_q
    from service.screening.monitoring_services import monitorings_rescreen

    unknown = set(changes) - set(CORRECTABLE_FIELDS)
    if unknown:
        raise ValueError(f"not correctable: {sorted(unknown)}")
    _details_check(changes)
    if "full_name" in changes:
        changes = {**changes, "full_name": " ".join(changes["full_name"].split())}
    with transaction.atomic():
        person = CustomerPerson.objects.select_for_update().get(pk=person.pk)
        before = _correctable_state(person)
        for field, value in changes.items():
            setattr(person, field, value)
        after = _correctable_state(person)
        changed = [key for key in after if after[key] != before[key]]
        if changed:
            person.save(update_fields=[*changes, "update_timestamp"])
            _audit(
                person, actor, "customer_person.update",
                after={k: after[k] for k in changed}, before={k: before[k] for k in changed},
            )
            monitorings = list(person.entity_monitorings.filter(screened_q()).values_list("uuid", flat=True))
            if monitorings:
                monitorings_rescreen(monitoring_uuids=monitorings)
    return person


def _correctable_state(person: CustomerPerson) -> dict:
    return {
        "full_name": person.full_name,
        "birth_date": str(person.birth_date or ""),
        "gender": person.gender.key if person.gender_id else "",
    }


def _audit(person: CustomerPerson, actor: Actor | None, action: str, after: dict | None, before: dict | None = None) -> None:
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


def national_id_compact(*, schema: str, number: str, where: str = "body") -> str:
    """The compact number, or a 400 naming the field that is wrong (in the body, or the query)."""
    module = NATIONAL_ID_MODULES.get(schema)
    if module is None:
        raise bad_field([where, "national_identification_schema"], "must be NO, SE or DK")
    try:
        valid = module.validate(number)
        return _swedish_twelve_digits(valid) if schema == "SE" else valid
    except StdnumError as exc:
        raise bad_field(
            [where, "national_identification_number"], f"not a valid {NATIONAL_ID_NAMES[schema]} ({exc})"
        ) from None


def customer_person_national_id_add(
    *, person: CustomerPerson, schema: str, number: str, geo_country: GeoCountry | None, actor: Actor | None = None
) -> CustomerPersonNationalIdentification:
    schema = schema.strip().upper()
    compact = national_id_compact(schema=schema, number=number)
    country = geo_country or GeoCountry.objects.get_or_create(key=schema, defaults={"name": NATIONAL_ID_COUNTRIES[schema]})[0]
    duplicate = bad_field(
        ["body", "national_identification_number"], "this number is already recorded for the person", code="already_recorded"
    )
    if person.national_identifications.filter(national_identification_schema=schema, national_identification_number=compact).exists():
        raise duplicate
    try:
        with transaction.atomic():
            # One writer of the config's numbers at a time, so two people cannot both take one number.
            ScreeningConfig.objects.select_for_update().filter(pk=person.screening_config_id).first()
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
            _audit(person, actor, "customer_person.national_id_add", {"national_identification_schema": schema})
            return row
    except IntegrityError:
        raise duplicate from None


def _swedish_twelve_digits(valid: str) -> str:
    """A Swedish number is written with or without the century (and with - or + before the
    last four); stored as its twelve digits, so every spelling is one number."""
    digits = "".join(ch for ch in valid if ch.isdigit())
    if len(digits) == 10:
        digits = f"{personnummer.get_birth_date(valid).year // 100}{digits}"
    return digits


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
        row = CustomerPersonLocation.objects.create(
            customer_person=person, person_location_type=location_type, geo_location_uuid=geo_location_uuid, **values
        )
        _audit(person, actor, "customer_person.location_add", {"postal_place": values["postal_place"], "country_code_two": values["country_code_two"]})
    return row


def customer_person_national_id_remove(*, row: CustomerPersonNationalIdentification, actor: Actor | None = None) -> None:
    """Removes a wrongly recorded number (rectification). Screening does not read national ids, so
    nothing is screened again; the audit log names the schema, never the number."""
    with transaction.atomic():
        removed, _ = CustomerPersonNationalIdentification.objects.filter(pk=row.pk).delete()
        if removed:  # a removal that lost a race to another one records nothing
            _audit(
                row.customer_person, actor, "customer_person.national_id_remove",
                after=None, before={"national_identification_schema": row.national_identification_schema},
            )


def customer_person_location_remove(*, row: CustomerPersonLocation, actor: Actor | None = None) -> None:
    """Removes an address (wrong, or no longer the person's). Screening does not read addresses."""
    with transaction.atomic():
        removed, _ = CustomerPersonLocation.objects.filter(pk=row.pk).delete()
        if removed:
            _audit(
                row.customer_person, actor, "customer_person.location_remove",
                after=None, before={"postal_place": row.postal_place, "country_code_two": row.country_code_two},
            )

