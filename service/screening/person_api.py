"""Customer person endpoints (spec §4.7) and the extension reads. Every endpoint needs `aml`;
national ids also need `person_national_identification`, to write and to read them."""

from __future__ import annotations

import uuid
from datetime import date

from django.http import HttpRequest
from ninja import Field, Query, Router, Status

from service.errors import bad_field, found
from service.screening.models import CustomerPerson
from service.screening import person_merge
from service.name_search import name_search_parse
from service.pagination import PageQuery, collection
from service.screening import person_schemas as s
from service.screening import person_selectors as selectors
from service.screening import person_services as services
from service.screening.person_national_ids import birth_date_disagrees, national_id_compact
from service.screening.access import EXTENSION, NATIONAL_ID, aml_principal
from service.screening.config_api import acting, config_of, same_as_path
from vakt_limits.customer_persons import CUSTOMER_REFERENCE_MAX

router = Router(tags=["Screening customer persons"])


class CustomerPersonQuery(PageQuery):
    name_contains: str | None = None
    customer_reference: str | None = Field(None, max_length=CUSTOMER_REFERENCE_MAX)
    national_identification_schema: str | None = None
    national_identification_number: str | None = None
    check_birth_date: date | None = None

    def national_id(self, request: HttpRequest) -> tuple[str, str] | None:
        """(schema, compact number) to look a person up by, or None. Needs the national-id role: whoever
        may not read numbers may not find out who has one either. With `check_birth_date`, a number of
        someone born on another day is refused as an add to a person born then would be."""
        schema, number = self.national_identification_schema, self.national_identification_number
        if schema is None and number is None:
            if self.check_birth_date is not None:
                raise bad_field(["query", "check_birth_date"], "give it with a national id's schema and number")
            return None
        request.auth.require("aml", NATIONAL_ID)
        if not schema or not number:
            missing = "national_identification_number" if schema else "national_identification_schema"
            raise bad_field(["query", missing], "give the schema and the number together")
        if why := services.birth_date_problem(self.check_birth_date):
            raise bad_field(["query", "check_birth_date"], why)
        schema = schema.strip().upper()
        compact = national_id_compact(schema=schema, number=number, where="query")
        if why := birth_date_disagrees(schema=schema, compact=compact, birth_date=self.check_birth_date):
            raise bad_field(["query", "national_identification_number"], why, code="birth_date_disagrees")
        return schema, compact


class DuplicateQuery(PageQuery):
    customer_person_uuid: uuid.UUID | None = None


def _person(request: HttpRequest, customer_person_uuid: uuid.UUID):
    principal = aml_principal(request)
    return selectors.customer_person_get(
        app_customer_uuid=principal.app_customer_uuid, customer_person_uuid=customer_person_uuid
    )


@router.post(
    "/screening-config/{screening_config_uuid}/customer-person",
    response={201: s.CustomerPersonOut},
    summary="Create a customer person",
    description=(
        "A person screened without a company. Never screened automatically (rule 4): create an entity "
        "monitoring with an approving decision for it. `birth_date` may not be in the future. Extension: "
        "`nationalities`, countries' two letters, weighed by screening as a name check's nationality."
    ),
)
def customer_person_create(request: HttpRequest, screening_config_uuid: uuid.UUID, payload: s.CustomerPersonIn):
    config = config_of(request, screening_config_uuid)
    same_as_path(payload.screening_config_uuid, config.uuid, "screening_config_uuid")
    gender = None
    if payload.gender_uuid is not None:
        gender = selectors.gender_get(gender_uuid=payload.gender_uuid, loc=["body", "gender_uuid"])
    person = services.customer_person_create(
        config=config, full_name=payload.full_name, birth_date=payload.birth_date, gender=gender,
        nationalities=payload.nationalities or [], customer_reference=payload.customer_reference or "",
        actor=acting(request, payload.app_membership_uuid),
    )
    return Status(201, s.customer_person_out(person))


@router.get(
    "/screening-config/{screening_config_uuid}/customer-person",
    response=list[s.CustomerPersonListed],
    summary="Extension: the config's customer persons",
    description=(
        "Sorted by name, each with its monitoring's status; `name_contains` keeps those whose name contains the text (any case; runs of "
        "spaces are one; at most 200 characters); `national_identification_schema` with `national_identification_number` "
        "(checked as when added; needs the `person_national_identification` role) the person who has that number, if any, "
        "and with `check_birth_date` a number of someone born on another day is a 400 as when added to a person born then "
        "(code `birth_date_disagrees`; it filters nothing); `customer_reference` the person with that reference (extension); "
        "`limit` (default 100, at most 1000) and `offset` as in rule 6: the end is reached when fewer than `limit` come back."
    ),
    openapi_extra=EXTENSION,
)
def customer_person_list(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[CustomerPersonQuery]):
    config = config_of(request, screening_config_uuid)
    page = query.page()
    name = name_search_parse(query.name_contains)
    national_id = query.national_id(request)
    rows = selectors.customer_persons_list(
        config=config, name_contains=name, national_id=national_id, customer_reference=(query.customer_reference or "").strip() or None,
    )[
        page.offset : page.offset + page.limit
    ]
    return [s.customer_person_listed_out(p) for p in rows]


@router.get(
    "/screening-config/{screening_config_uuid}/customer-person-duplicate",
    response=list[s.CustomerPersonDuplicateCollection],
    summary="Extension: possible second records of one customer",
    description=(
        "Groups of the config's customer persons not merged that are possibly one customer entered twice, unless their "
        "customer references tell every two of them apart: `same_name` (the same name, any case, runs of spaces as one, "
        "and birth date: merge one into the other with `.../merge`) and `similar_name` (one birth date, names written "
        "two ways: a letter missed or doubled, the words in another order, a middle or second family name added; "
        "correct the misspelt one, then merge) and `similar_birth_date` (one name, birth dates a slip of each other: day "
        "and month swapped, two neighbouring digits swapped, one digit another; correct the mistyped one, then merge). "
        "`same_name` groups first, then `similar_name`, then `similar_birth_date` (the likeliest second records "
        "first); each kind by name, each group oldest first. `customer_person_uuid`: only that person's groups, with "
        "the records born the day they were or on a slip of it (a person not of this config is a 404 naming it). "
        "`limit` (default 100, at most 1000) and `offset` count groups."
    ),
    openapi_extra=EXTENSION,
)
def customer_person_duplicate_list(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[DuplicateQuery]):
    config = config_of(request, screening_config_uuid)
    page = query.page()
    of = None
    if query.customer_person_uuid is not None:
        of = found(CustomerPerson.objects.filter(uuid=query.customer_person_uuid, screening_config=config),
                   "customer person", query.customer_person_uuid, ["query", "customer_person_uuid"])
    groups = selectors.customer_person_duplicate_groups(config=config, of=of)
    shown = groups[page.offset : page.offset + page.limit]
    persons = selectors.customer_persons_of([person for group in shown for person in group.person_uuids])
    elements = [
        {"match_key": group.match_key, "full_name": group.full_name, "birth_date": group.birth_date,
         "customer_persons": [s.customer_person_listed_out(persons[p]) for p in group.person_uuids if p in persons]}
        for group in shown
    ]
    return collection(elements, count=len(groups), page=page)


@router.get(
    "/customer-person/{customer_person_uuid}",
    response=s.CustomerPersonComposite,
    summary="Extension: a customer person with national ids and locations",
    description="National ids only with the `person_national_identification` role (null without it).",
    openapi_extra=EXTENSION,
)
def customer_person_detail(request: HttpRequest, customer_person_uuid: uuid.UUID):
    person = _person(request, customer_person_uuid)
    with_ids = request.auth.has_role(NATIONAL_ID)
    return s.customer_person_composite_out(person, with_national_ids=with_ids)


@router.patch(
    "/customer-person/{customer_person_uuid}",
    response=s.CustomerPersonOut,
    summary="Extension: correct a customer person's name, birth date, gender, nationalities or customer reference",
    description=(
        "Send only the fields to change (`full_name`, `birth_date`, `gender_uuid`, `nationalities`, `customer_reference`; a null birth "
        "date or gender clears it, as a null or empty list does the nationalities); sending none of them is a 400. "
        "A birth date that disagrees with a national id recorded for the person is a 400 naming `birth_date` "
        "(code `birth_date_disagrees`; the number is named, masked, only with the `person_national_identification` role). "
        "A change of what screening compares screens the "
        "person again at once under every monitoring that screens them; cases raised on the old details stay."
    ),
    openapi_extra=EXTENSION,
)
def customer_person_update(request: HttpRequest, customer_person_uuid: uuid.UUID, payload: s.CustomerPersonPatch):
    person = _person(request, customer_person_uuid)
    sent = payload.dict(exclude_unset=True)
    changes = {}
    if "full_name" in sent:
        if sent["full_name"] is None:
            raise bad_field(["body", "full_name"], "must not be blank")
        changes["full_name"] = sent["full_name"]
    if "birth_date" in sent:
        changes["birth_date"] = sent["birth_date"]
    if "gender_uuid" in sent:
        loc = ["body", "gender_uuid"]
        changes["gender"] = None if sent["gender_uuid"] is None else selectors.gender_get(gender_uuid=sent["gender_uuid"], loc=loc)
    if "nationalities" in sent:
        changes["nationalities"] = sent["nationalities"] or []
    if "customer_reference" in sent:
        changes["customer_reference"] = sent["customer_reference"] or ""
    if not changes:
        raise bad_field(["body"], "send at least one of full_name, birth_date, gender_uuid, nationalities and customer_reference")
    actor = acting(request, payload.app_membership_uuid)
    corrected = services.customer_person_update(
        person=person, changes=changes, actor=actor, national_ids_shown=request.auth.has_role(NATIONAL_ID)
    )
    return s.customer_person_out(corrected)


@router.post(
    "/customer-person/{customer_person_uuid}/merge",
    response=s.CustomerPersonMergeOut,
    summary="Extension: merge a second record of the customer into this one",
    description=(
        "Needs the `person_national_identification` role besides `aml` (national ids move); `dry_run` answers what a merge "
        "now would do, or its refusal, writing nothing, with `aml` alone (national ids null without the other role). In one "
        "transaction the "
        "duplicate's customer reference, national ids, the addresses this record lacks, its nationalities and its gender "
        "(where this record has none) move to this record (screened again if what screening compares changed); the "
        "duplicate's monitoring is removed with a reason naming this record, and the duplicate is marked merged: never "
        "monitored again, never found by an import. Its cases stay on it. A 400 naming `duplicate_customer_person_uuid`, "
        "nothing written, when they could be two people (`not_same_customer`: another name or birth date; "
        "`references_differ`; `national_ids_differ`), when either was merged already (`merged_already`), when the "
        "duplicate has a monitoring and this record none (`kept_not_monitored`) or is screened and this record is not "
        "(`kept_not_screened`), and when the duplicate is monitored for a company (`monitored_for_company`). Another "
        "organisation's record, or one of another screening config, is a 404 naming it."
    ),
    openapi_extra=EXTENSION,
)
def customer_person_merge(request: HttpRequest, customer_person_uuid: uuid.UUID, payload: s.CustomerPersonMergeIn):
    if not payload.dry_run:
        request.auth.require("aml", NATIONAL_ID)
    kept = _person(request, customer_person_uuid)
    with_ids = request.auth.has_role(NATIONAL_ID)
    loc = ["body", "duplicate_customer_person_uuid"]
    duplicate = found(
        CustomerPerson.objects.filter(uuid=payload.duplicate_customer_person_uuid, screening_config_id=kept.screening_config_id),
        "customer person of the screening config", payload.duplicate_customer_person_uuid, loc,
    )
    result = person_merge.customer_person_merge(
        kept=kept, duplicate=duplicate, actor=acting(request, payload.app_membership_uuid), dry_run=payload.dry_run,
        national_ids_shown=with_ids,
    )
    return s.customer_person_merge_out(result, dry_run=payload.dry_run, with_national_ids=with_ids)


@router.post(
    "/customer-person/{customer_person_uuid}/customer-person-national-identification",
    response={201: s.NationalIdOut},
    summary="Add a national identification number",
    description=(
        "Needs the `person_national_identification` role besides `aml`. NO (fødselsnummer or D-number), "
        "SE (personnummer or samordningsnummer) and DK (CPR) numbers are checked, check digits included, each refusal "
        "saying what is wrong in plain words. A number of someone born on another day than the person is a 400 "
        "(`birth_date_disagrees`); a person without a birth date takes the number's (screened again as a "
        "correction is). A number recorded twice "
        "for the person is a 400 (`already_recorded`), and so is one already recorded for another customer person of "
        "the config (`recorded_for_another_person`, naming that person)."
    ),
)
def national_id_add(request: HttpRequest, customer_person_uuid: uuid.UUID, payload: s.NationalIdIn):
    request.auth.require("aml", NATIONAL_ID)
    person = _person(request, customer_person_uuid)
    same_as_path(payload.customer_person_uuid, person.uuid, "customer_person_uuid")
    country = None
    if payload.geo_country_uuid is not None:
        country = selectors.geo_country_get(geo_country_uuid=payload.geo_country_uuid, loc=["body", "geo_country_uuid"])
    row = services.customer_person_national_id_add(
        person=person,
        schema=payload.national_identification_schema,
        number=payload.national_identification_number,
        geo_country=country,
        actor=acting(request, payload.app_membership_uuid),
    )
    return Status(201, s.national_id_out(row))


@router.get(
    "/customer-person/{customer_person_uuid}/customer-person-national-identification",
    response=list[s.NationalIdOut],
    summary="Extension: the person's national identification numbers",
    description="Needs the `person_national_identification` role besides `aml`.",
    openapi_extra=EXTENSION,
)
def national_id_list(request: HttpRequest, customer_person_uuid: uuid.UUID):
    request.auth.require("aml", NATIONAL_ID)
    person = _person(request, customer_person_uuid)
    return [s.national_id_out(row) for row in person.national_identifications.order_by("create_timestamp", "uuid")]


@router.delete(
    "/customer-person/{customer_person_uuid}/customer-person-national-identification/{national_identification_uuid}",
    response={204: None},
    summary="Extension: remove a wrongly recorded national identification number",
    description=(
        "Needs the `person_national_identification` role besides `aml`. A number that is not this person's is a "
        "404 naming `national_identification_uuid`. The audit log names the schema, never the number. Extension "
        "query parameter `app_membership_uuid`: the member who makes the change, for the audit log."
    ),
    openapi_extra=EXTENSION,
)
def national_id_remove(
    request: HttpRequest, customer_person_uuid: uuid.UUID, national_identification_uuid: uuid.UUID,
    app_membership_uuid: uuid.UUID | None = None,
):
    request.auth.require("aml", NATIONAL_ID)
    person = _person(request, customer_person_uuid)
    row = found(
        person.national_identifications.filter(uuid=national_identification_uuid).select_related("customer_person__screening_config"),
        "national identification", national_identification_uuid, ["path", "national_identification_uuid"],
    )
    actor = acting(request, app_membership_uuid, ["query", "app_membership_uuid"])
    services.customer_person_national_id_remove(row=row, actor=actor)
    return Status(204, None)


@router.post(
    "/customer-person/{customer_person_uuid}/customer-person-location",
    response={201: s.LocationOut},
    summary="Add a location",
)
def location_add(request: HttpRequest, customer_person_uuid: uuid.UUID, payload: s.LocationIn):
    person = _person(request, customer_person_uuid)
    same_as_path(payload.customer_person_uuid, person.uuid, "customer_person_uuid")
    location_type = None
    if payload.person_location_type_uuid is not None:
        location_type = selectors.location_type_get(
            location_type_uuid=payload.person_location_type_uuid, loc=["body", "person_location_type_uuid"]
        )
    texts = payload.dict(include=set(services.LOCATION_TEXT_FIELDS))
    if not any((value or "").strip() for value in texts.values()) and payload.geo_location_uuid is None:
        raise bad_field(["body"], "a location needs an address, a place or a country")
    row = services.customer_person_location_add(
        person=person, location_type=location_type, geo_location_uuid=payload.geo_location_uuid, texts=texts,
        actor=acting(request, payload.app_membership_uuid),
    )
    return Status(201, s.location_out(row))


@router.get(
    "/customer-person/{customer_person_uuid}/customer-person-location",
    response=list[s.LocationOut],
    summary="Extension: the person's locations",
    openapi_extra=EXTENSION,
)
def location_list(request: HttpRequest, customer_person_uuid: uuid.UUID):
    person = _person(request, customer_person_uuid)
    return [s.location_out(row) for row in person.locations.order_by("create_timestamp", "uuid")]


@router.delete(
    "/customer-person/{customer_person_uuid}/customer-person-location/{customer_person_location_uuid}",
    response={204: None},
    summary="Extension: remove a location",
    description=(
        "A location that is not this person's is a 404 naming `customer_person_location_uuid`. Extension query "
        "parameter `app_membership_uuid`: the member who makes the change, for the audit log."
    ),
    openapi_extra=EXTENSION,
)
def location_remove(
    request: HttpRequest, customer_person_uuid: uuid.UUID, customer_person_location_uuid: uuid.UUID,
    app_membership_uuid: uuid.UUID | None = None,
):
    person = _person(request, customer_person_uuid)
    row = found(
        person.locations.filter(uuid=customer_person_location_uuid).select_related("customer_person__screening_config"),
        "location", customer_person_location_uuid, ["path", "customer_person_location_uuid"],
    )
    actor = acting(request, app_membership_uuid, ["query", "app_membership_uuid"])
    services.customer_person_location_remove(row=row, actor=actor)
    return Status(204, None)

