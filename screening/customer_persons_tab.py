"""The Customer persons tab of the approvals page: the list (by name, or by a national id typed
in the search; the person whose customer reference the search is comes first either way), the form
that adds a customer person and puts them under monitoring, and the one that imports a file of them
(screening/customer_person_import.py).

Adding takes up to four calls (person, national id, address, monitoring). Before the first, the
form asks the service who has the customer reference and the national id, and whether a customer
person of the same name and birth date exists, so a taken reference, a wrong or taken number, or a
customer added twice, saves nothing (the field names and links to the one who has it). When a
later call is refused, the person already exists: the form carries their uuid, and sending it
again continues with them (see screening/customer_person_form.py).
"""

from __future__ import annotations

import re
from datetime import date
from typing import NamedTuple

from portal.feedback import service_error_text
from portal.service import ServiceBadRequest, ServiceError, ServiceNoAnswer, ServiceNotFound, ServiceUnavailable
from screening.customer_person_form import (
    NATIONAL_ID_SCHEMAS, CustomerPersonForm, national_id_held_text, reference_held_text, same_person_text,
)
from screening.customer_person_import import CustomerPersonImportForm
from screening.pages import can_read_national_ids, page_number
from vakt_format.national_ids import national_id_birth_date
from vakt_format.persons import customer_person_key
from vakt_format.search import NAME_SEARCH_MAX, name_search_text
from vakt_limits.customer_persons import CUSTOMER_REFERENCE_MAX

PERSONS_PER_PAGE = 50
# A search of digits (with the spaces, dashes or + a national id is written with) looks for a national id.
NUMBER_LIKE = re.compile(r"[\d][\d +-]{5,18}[\d]")


DUPLICATE_GROUPS_SHOWN = 10  # possible second records of a customer listed above the customer persons


def persons_tab(request, client, config, *, form) -> dict:
    """The tab's context: a page of customer persons (by name, or who has the national id searched
    for; on the first page, the person whose customer reference the search is, exactly, first and
    listed once) and the add form, new or as sent."""
    screening = client.screening
    search = name_search_text(request.GET.get("q"))[:NAME_SEARCH_MAX]
    number = page_number(request)
    national_ids = can_read_national_ids(request.member)
    by_national_id = national_ids and NUMBER_LIKE.fullmatch(search) is not None
    by_reference = bool(search) and len(search) <= CUSTOMER_REFERENCE_MAX and number == 1
    # Asked for, not read with every page: it is one pass over all the config's names (1.6 s for 100,000 on SQLite).
    find_duplicates = request.GET.get("duplicates") == "1"
    genders, countries, types, location_types, persons, referenced, (duplicates, duplicate_count) = client.gather(
        screening.genders, screening.countries, screening.monitoring_types, screening.person_location_types,
        (lambda: _national_id_holders(screening, config, search)) if by_national_id else
        # One more than a page: whether a next page exists.
        lambda: screening.customer_persons(
            config.uuid, name_contains=search, limit=PERSONS_PER_PAGE + 1, offset=(number - 1) * PERSONS_PER_PAGE
        ),
        (lambda: screening.customer_persons(config.uuid, customer_reference=search, limit=1)) if by_reference else list,
        (lambda: screening.customer_person_duplicates(config.uuid, limit=DUPLICATE_GROUPS_SHOWN)) if find_duplicates else (lambda: ([], 0)),
    )
    first = {person.uuid for person in referenced}  # the exact match leads, and is not listed again below
    initial = _person_prefill(request.GET) if form is None else None
    person_form = CustomerPersonForm(form, genders=genders, countries=countries, national_ids=national_ids, initial=initial)
    return {
        "person_form": person_form,
        "import_form": CustomerPersonImportForm(),
        "customer_persons": [*referenced, *(person for person in persons[:PERSONS_PER_PAGE] if person.uuid not in first)],
        "persons_search": search,
        "persons_by_national_id": by_national_id,
        "persons_by_reference": by_reference,
        "persons_page": number,
        "persons_more": len(persons) > PERSONS_PER_PAGE,
        "national_ids_allowed": national_ids,
        "find_duplicates": find_duplicates,
        "duplicate_groups": duplicates,
        "duplicate_group_count": duplicate_count,
        "monitoring_types": types,
        "location_types": location_types,
    }


def _national_id_holders(screening, config, search: str) -> list:
    """Who has the national id typed in the search: the service is asked for each country's number it
    could be (one that is not valid for a country is refused there, and skipped)."""
    holders = {}
    for schema, _ in NATIONAL_ID_SCHEMAS[1:]:
        try:
            holder = screening.customer_person_with_national_id(config.uuid, schema=schema, number=search)
        except ServiceBadRequest:
            continue
        if holder is not None:
            holders[holder.uuid] = holder
    return list(holders.values())


def _person_prefill(query) -> dict:
    """The form filled from a link (a name checked on the Batch screening page): the name, the customer
    reference (the file's id; one longer than a reference may be is left out), a full ISO birth date,
    the nationalities (as the batch wrote them, "NO;SE") and the comment; what is not given or not a day
    is left empty, never refused (the service checks the countries, the form who has the reference, when sent)."""
    reference = query.get("customer_reference", "").strip()
    initial = {"full_name": query.get("full_name", "")[:300], "comment": query.get("comment", "")[:4000],
               "customer_reference": reference if len(reference) <= CUSTOMER_REFERENCE_MAX else "",  # never cut to another number
               "nationalities": ", ".join(code for code in query.get("nationalities", "")[:100].split(";") if code.strip())}
    try:
        initial["birth_date"] = date.fromisoformat(query.get("birth_date", ""))
    except ValueError:
        pass  # only a year or a month: typed in by hand
    return {key: value for key, value in initial.items() if value}


def customer_person_save(screening, config, context, form):
    """The person, national id, address and monitoring, in as many calls; the monitoring, or None with
    the form saying what was saved and what not.

    A form sent again after a refused later step carries the saved person's uuid: it continues with
    that person (read first: another organisation's or a deleted one is a 404, and nothing is written),
    corrects the name, birth date and gender to the form's when they were changed meanwhile (the
    person is screened as the officer sees them), and skips what the person already has."""
    data = form.cleaned_data
    saved = None  # the person, once they exist in the service
    step = "person"
    try:
        if data.get("customer_person_uuid") is None:
            # Whoever has the reference or the national id is looked for before anyone is saved.
            reference = data.get("customer_reference") or ""
            if (holder := reference_holder(screening, config.uuid, reference)) is not None:
                form.refuse_held("customer_reference", reference_held_text(reference, holder), holder)
            if data.get("national_id_number"):
                step = "national_id"
                holder = screening.customer_person_with_national_id(  # a number of someone born on another day: refused
                    config.uuid, schema=data["national_id_schema"], number=data["national_id_number"],
                    birth_date=data.get("birth_date"),
                )
                if holder is not None:
                    form.refuse_held("national_id_number", national_id_held_text(holder), holder)
                step = "person"
            if form.held_by:
                form.add_error(None, "Nothing was saved.")
                return None
            birth_date = data.get("birth_date")
            if birth_date is None and data.get("national_id_number"):  # the number (checked above) says it
                birth_date = national_id_birth_date(schema=data["national_id_schema"], number=data["national_id_number"])
            twins = [] if data.get("someone_else") else [  # a merged record points to the record kept, also one of them
                twin for twin in same_customer_persons(screening, config.uuid, full_name=data["full_name"], birth_date=birth_date)
                if twin.merged_into_uuid is None
            ]
            twin = twins[0] if twins else None
            if twin is not None:
                form.add_error(None, same_person_text(twin))
                form.twin = twin
                return None
            saved = screening.create_customer_person(  # a reference taken meanwhile: refused, nothing saved
                config.uuid, full_name=data["full_name"], birth_date=birth_date, gender_uuid=data.get("gender") or None,
                nationalities=data.get("nationalities") or (), customer_reference=data.get("customer_reference") or "",
            )
            locations = ()
        else:
            detail = screening.customer_person(data["customer_person_uuid"])
            saved, locations = detail.person, detail.locations
            if changes := form.changes(saved):  # the details corrected before sending again
                saved = screening.update_customer_person(saved.uuid, **changes)
        step = "national_id"
        if data.get("national_id_number"):
            try:
                screening.add_national_id(saved.uuid, schema=data["national_id_schema"], number=data["national_id_number"])
            except ServiceBadRequest as exc:
                if exc.code != "already_recorded":  # recorded by the earlier send: done
                    raise
        step = "location"
        address = form.address
        if address.given and address not in [place.address for place in locations]:
            screening.add_location(saved.uuid, address, location_type_uuid=residence_uuid(context["location_types"]))
        step = "monitoring"
        return screening.monitor_customer_person(
            config.uuid, saved.uuid, monitoring_type_uuid=_type_uuid(context, "other"), approve=data["approve"],
            comment=data["comment"] or "Added as a customer person in the dashboard.",
        )
    except ServiceError as exc:
        _not_saved(form, step=step, saved=saved, error=exc)
        return None


def reference_holder(screening, config_uuid, reference: str, *, but=None):
    """The config's customer person, other than `but`, whose customer reference this is (exactly, as the
    service has one customer person's per config), or None; a blank reference is nobody's."""
    if not reference:
        return None
    holders = screening.customer_persons(config_uuid, customer_reference=reference, limit=2)
    return next((person for person in holders if person.uuid != but), None)


def same_customer_persons(screening, config_uuid, *, full_name: str, birth_date: date | None) -> list:
    """The config's customer persons with this name (any case, runs of spaces as one) and birth date
    (both without one counts as the same): most likely the same customer, to be screened once
    (`vakt_format.persons`, the rule the service's file import applies too)."""
    name = " ".join(full_name.split())
    key = customer_person_key(name, birth_date)
    return [
        person for person in screening.customer_persons(config_uuid, name_contains=name[:NAME_SEARCH_MAX], limit=1000)
        if customer_person_key(person.full_name, person.birth_date) == key
    ]


class SimilarRecords(NamedTuple):
    """The records the service takes for possibly the same customer as a person, written another way."""

    names: list  # born the same day, the name written another way
    birth_dates: list  # the same name, the birth date typed another way


def similar_customer_persons(screening, config_uuid, *, person) -> SimilarRecords:
    """The records the service takes for possibly the same customer as `person` written another way: its
    `similar_name` groups of this person (born the same day, a letter missed, another word order, a name added)
    and its `similar_birth_date` groups (the same name, the birth date with a slip: day and month swapped, a digit
    another), not told apart by references, oldest first, namesakes aside. Nothing for a person without a birth
    date (a name alone is no evidence), without asking."""
    if person.birth_date is None:
        return SimilarRecords([], [])
    groups, _ = screening.customer_person_duplicates(config_uuid, customer_person_uuid=person.uuid)
    key = customer_person_key(person.full_name, person.birth_date)
    names, birth_dates = {}, {}  # a namesake in a group is named by the page's other notice
    for group in groups:
        found = names if group.similar_names else birth_dates if group.similar_birth_dates else None
        if found is not None:
            found.update((other.uuid, other) for other in group.persons
                         if customer_person_key(other.full_name, other.birth_date) != key)
    return SimilarRecords(list(names.values()), list(birth_dates.values()))


def _not_saved(form, *, step: str, saved, error: ServiceError) -> None:
    """Put the refusal on the form, saying what was saved before it: nothing, or the person."""
    gone = form.cleaned_data.get("customer_person_uuid") is not None and saved is None and isinstance(error, ServiceNotFound)
    if saved or gone:
        form.data = form.data.copy()  # what sending the form again continues with: the saved person, or a new one
        form.data["customer_person_uuid"] = str(saved.uuid) if saved else ""
    bad_request = isinstance(error, ServiceBadRequest)
    if bad_request and error.code != "already_monitored":
        form.add_service_errors(error, step=step)
    if gone:
        text = ("Nothing was saved: the person this form continued with was not found (it may have been deleted). "
                "Send the form again to add the person anew.")
    elif saved is None and isinstance(error, ServiceNoAnswer):
        text = service_error_text(error)  # the person may have been saved: the list says
    elif saved is None:
        text = "Nothing was saved. " + ("Correct the field and send again." if bad_request else service_error_text(error))
    elif bad_request and error.code == "already_monitored":
        text = f"{saved.full_name} was saved and is already monitored in this screening config."
    elif bad_request:
        text = f"{saved.full_name} was saved, but not yet {_step_words(step)}. Correct the field and send again."
    else:
        plainly_down = isinstance(error, ServiceUnavailable) and not isinstance(error, ServiceNoAnswer)
        reason = "The service could not be reached." if plainly_down else service_error_text(error)
        text = f"{saved.full_name} was saved, but not yet {_step_words(step)}. {reason} Send the form again to continue."
    form.add_error(None, text)


def _step_words(step: str) -> str:
    return {"national_id": "given its national id", "location": "given its address", "monitoring": "put under monitoring"}.get(
        step, "complete"
    )


def _type_uuid(context, key: str):
    return next(t.uuid for t in context["monitoring_types"] if t.key == key)


def residence_uuid(location_types):
    """The location type of an address typed in the dashboard: where the person lives."""
    return next((t.uuid for t in location_types if t.key == "residence"), None)
