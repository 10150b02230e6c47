"""A customer person's page (the service's app_url for them): who they are (with the organisation's
customer reference), their national ids and addresses, monitoring and cases; admins correct the name,
customer reference, birth date, gender or nationalities, add or remove a national id or an address,
put a person whose monitoring was removed (or who never had one) under monitoring again, merge a
second record of the same customer into this one (or only stop screening it), and place or release a
legal hold on the person's records there.

Each form posts to its own view, which reads the person as the page does (another organisation's
person is a 404 before anything is sent), checks the form, makes one call, and comes back to the
page with a message; a refused form is the page again with the service's complaints at the
fields. A removal names a national id or an address the page read (any other uuid is a 404 and
nothing is sent) and says what went without repeating a whole national id. A correction screens
the person again at once in the service, under every monitoring that screens them; cases raised
before stay.
"""

from __future__ import annotations

import uuid
from functools import wraps
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from portal.access import client_for_member, member_required
from portal.feedback import service_error_text
from portal.service import ServiceError, ServiceUnavailable
from screening.customer_person_form import (
    AddressAddForm, MonitoringForm, NationalIdAddForm, PersonCorrectionForm, national_id_held_text, reference_held_text,
)
from screening.holds import hold_forms, hold_in_force_text, hold_keep_send, hold_place_send, hold_release_send
from screening.pages import (
    acted, can_read_national_ids, can_read_screening, first_found, form_refused, no_aml_text, refused, require_admin,
)
from screening.customer_person_duplicates import duplicate_choices, merge_moves
from screening.customer_persons_tab import (
    SimilarRecords, reference_holder, residence_uuid, same_customer_persons, similar_customer_persons,
)
from vakt_format.norwegian import day
from vakt_format.search import NAME_SEARCH_MAX, name_search_text

TEMPLATE = "screening/approvals_customer_person.html"
NOTHING_CHANGED = "Nothing changed."
MONITORED_AGAIN = "Put under monitoring again on the customer person's page."


class _PageDown(Exception):
    """The page's reads failed: the page says so (the service's error text), with status 503."""

    def __init__(self, response) -> None:
        self.response = response


def _admin_form(*, national_ids: bool = False):
    """An admin's POST to the page: checks who may send it (403), reads the page as the page view
    does (a 404 or the page saying the service is down, before anything is sent) and calls the view
    with what it read."""

    def decorate(view):
        @require_POST
        @member_required()
        @wraps(view)
        def wrapper(request, customer_person_uuid: uuid.UUID, **kwargs):
            require_admin(request.member)
            if national_ids:
                _require_national_ids(request.member)
            try:
                page = _read(request, customer_person_uuid)
            except _PageDown as down:
                return down.response
            return view(request, page, **kwargs)

        return wrapper

    return decorate


@member_required()
def customer_person_page(request, customer_person_uuid: uuid.UUID):
    member = request.member
    if not can_read_screening(member):
        context = {"no_aml": no_aml_text(member), "national_ids_allowed": can_read_national_ids(member)}
        return render(request, TEMPLATE, context)
    try:
        page = _read(request, customer_person_uuid)
    except _PageDown as down:
        return down.response
    return _render(request, page)


@_admin_form()
def customer_person_correct(request, page: dict):
    person = page["detail"].person
    form = PersonCorrectionForm(request.POST, person=person, genders=page["genders"])
    if not form.is_valid():
        return _render(request, page, correct_form=form)
    changes = form.changes(person)
    if not changes:
        messages.info(request, NOTHING_CHANGED)
        return _back(page)
    try:
        reference = changes.get("customer_reference", "")  # the person's own, unchanged, is not in the changes
        if (holder := reference_holder(page["screening"], person.config_uuid, reference, but=person.uuid)) is not None:
            form.refuse_held("customer_reference", reference_held_text(reference, holder), holder)
            return _render(request, page, correct_form=form)
        corrected = page["screening"].update_customer_person(person.uuid, **changes)  # a reference taken meanwhile: refused
    except ServiceError as exc:
        return _refused(request, page, "correct_form", form, exc)
    acted(request, _corrected_text(corrected, changes, screened=_screened(page["monitorings"])))
    return _back(page)


def _corrected_text(corrected, changes: dict, *, screened: bool) -> str:
    """What a correction did: a new (or no) customer reference alone is not screened (the service screens
    only what it compares); any other change is, when a monitoring screens the person."""
    if set(changes) == {"customer_reference"}:
        if corrected.customer_reference:
            return f"{corrected.full_name}'s customer reference is now {corrected.customer_reference}."
        return f"{corrected.full_name} has no customer reference any more."
    again = " Screened again with the new details." if screened else ""
    return f"{corrected.full_name}'s details are corrected.{again}"


@_admin_form(national_ids=True)
def customer_person_national_id_add(request, page: dict):
    person = page["detail"].person
    form = NationalIdAddForm(request.POST)
    if not form.is_valid():
        return _render(request, page, national_id_form=form)
    data = form.cleaned_data
    try:
        holder = page["screening"].customer_person_with_national_id(
            person.config_uuid, schema=data["national_id_schema"], number=data["national_id_number"]
        )
        if holder is not None and holder.uuid != person.uuid:  # the person's own: the service says so
            form.refuse_held("national_id_number", national_id_held_text(holder), holder)
            return _render(request, page, national_id_form=form)
        page["screening"].add_national_id(person.uuid, schema=data["national_id_schema"], number=data["national_id_number"])
    except ServiceError as exc:
        return _refused(request, page, "national_id_form", form, exc)
    if person.birth_date is None:  # the service gives the person the number's birth date
        again = " and screened again with it" if _screened(page["monitorings"]) else ""
        acted(request, f"{person.full_name}'s national id is added. Their birth date is now the number's{again}.")
    else:
        acted(request, f"{person.full_name}'s national id is added.")
    return _back(page)


@_admin_form()
def customer_person_address_add(request, page: dict):
    detail = page["detail"]
    form = AddressAddForm(request.POST, countries=page["countries"])
    if form.is_valid() and form.address in [place.address for place in detail.locations]:
        form.add_error(None, f"{detail.person.full_name} already has this address.")
    if not form.is_valid():
        return _render(request, page, address_form=form)
    try:
        page["screening"].add_location(detail.person.uuid, form.address, location_type_uuid=residence_uuid(page["location_types"]))
    except ServiceError as exc:
        return _refused(request, page, "address_form", form, exc)
    acted(request, f"{detail.person.full_name}'s address is added.")
    return _back(page)


@_admin_form(national_ids=True)
def customer_person_national_id_remove(request, page: dict, national_identification_uuid: uuid.UUID):
    person = page["detail"].person
    number = _one_of(page["detail"].national_ids or (), national_identification_uuid)
    return _remove(
        request, page, lambda: page["screening"].remove_national_id(person.uuid, number.uuid),
        done=f"{number.masked} removed from {person.full_name}.", failed=f"{number.masked} was not removed.",
    )


@_admin_form()
def customer_person_address_remove(request, page: dict, location_uuid: uuid.UUID):
    person = page["detail"].person
    place = _one_of(page["detail"].locations, location_uuid)
    return _remove(
        request, page, lambda: page["screening"].remove_location(person.uuid, place.uuid),
        done=f"The address {place.one_line} is removed from {person.full_name}.", failed=f"The address {place.one_line} was not removed.",
    )


@_admin_form()
def customer_person_monitor(request, page: dict):
    person = page["detail"].person
    if _live(page["monitorings"]) is not None:  # a second monitoring is refused by the service too
        messages.info(request, f"{person.full_name} is already under monitoring.")
        return _back(page)
    form = MonitoringForm(request.POST)
    if not form.is_valid():
        return _render(request, page, monitor_form=form)
    data = form.cleaned_data
    other = next(t.uuid for t in page["monitoring_types"] if t.key == "other")
    try:
        monitoring = page["screening"].monitor_customer_person(
            person.config_uuid, person.uuid, monitoring_type_uuid=other, approve=data["approve"],
            comment=data["comment"] or MONITORED_AGAIN,
        )
    except ServiceError as exc:
        return _refused(request, page, "monitor_form", form, exc)
    state = "is screened from now on" if monitoring.status_key == "active" else "waits for approval under Pending"
    acted(request, f"{person.full_name} {state}.")
    return _back(page)


@_admin_form()
def customer_person_duplicate_remove(request, page: dict, duplicate_uuid: uuid.UUID):
    """Keep this record and stop screening a namesake the page named as possibly the same customer (any
    other uuid is a 404, nothing sent): its monitoring is removed with a reason naming this record, so
    one customer is screened once. Its cases, national ids and addresses stay on it."""
    person = page["detail"].person
    duplicate = next((other for other in page["namesakes"] if other.uuid == duplicate_uuid), None)
    if duplicate is None:
        raise Http404("Not a customer person of the same name and birth date as this one.")
    if not _screened(page["monitorings"]):  # stopping the other would leave the customer unscreened
        messages.error(request, f"{person.full_name} is not screened under this record: approve its monitoring first, "
                                "or the customer would not be screened at all.")
        return _back(page)
    screening = page["screening"]
    try:
        live = _live(screening.monitorings(person.config_uuid, entity_uuid=duplicate.uuid).rows)
        if live is None:
            messages.info(request, f"{_added(duplicate)} is not under monitoring: nothing to stop.")
            return _back(page)
        screening.remove_monitoring(person.config_uuid, live.uuid, reason=duplicate_reason(person))
    except ServiceError as exc:
        refused(request, f"{_added(duplicate)} is still screened.", exc)
        return _render(request, page, status=503) if isinstance(exc, ServiceUnavailable) else _back(page)
    acted(request, f"{_added(duplicate)} is no longer screened: a duplicate of this record. Its cases stay on it.")
    return _back(page)


@_admin_form(national_ids=True)
def customer_person_merge(request, page: dict, duplicate_uuid: uuid.UUID):
    """Merge a namesake the page named into this record (any other uuid is a 404, nothing sent): the service
    moves its reference, national ids, addresses, nationalities and gender here and stops its screening, in
    one step, or refuses with the reason (two people; the customer would go unscreened)."""
    person = page["detail"].person
    duplicate = next((other for other in page["namesakes"] if other.uuid == duplicate_uuid), None)
    if duplicate is None:
        raise Http404("Not a customer person of the same name and birth date as this one.")
    try:
        merge = page["screening"].merge_customer_person(person.uuid, duplicate.uuid)
    except ServiceError as exc:
        refused(request, f"{_added(duplicate)} was not merged.", exc)
        return _render(request, page, status=503) if isinstance(exc, ServiceUnavailable) else _back(page)
    moved = merge_moves(merge)
    moved_text = f" Moved here: {'; '.join(moved)}." if moved else ""
    acted(request, f"{_added(duplicate)} is merged into this record and no longer screened.{moved_text} Its cases stay on it.")
    return _back(page)


def duplicate_reason(kept) -> str:
    """The removal reason of a duplicate record: the record kept, findable by name, birth date and uuid."""
    born = f", born {day(kept.birth_date)}" if kept.birth_date else ""
    return f"A duplicate of the customer person {kept.full_name}{born} ({kept.uuid}), who is screened under that record."


def _added(person) -> str:
    """ "Kari Nordmann (K-10041), added 01.02.2026": which of two namesakes."""
    return f"{person.name_and_reference}, added {day(person.created_at)}," if person.created_at else person.name_and_reference


@_admin_form()
def customer_person_hold_place(request, page: dict):
    person = page["detail"].person
    if page["detail"].hold is not None:
        messages.info(request, hold_in_force_text(person.full_name))
        return _back(page)
    refused = hold_place_send(request, page["holds_area"], config_uuid=person.config_uuid, entity_key="customer_person",
                              entity_uuid=person.uuid, name=person.full_name)
    return _back(page) if refused is None else _render(request, page, status=refused.status, **refused.forms())


@_admin_form()
def customer_person_hold_release(request, page: dict, hold_uuid: uuid.UUID):
    refused = hold_release_send(request, page["holds_area"], _hold_of(page, hold_uuid), name=page["detail"].person.full_name)
    return _back(page) if refused is None else _render(request, page, status=refused.status, **refused.forms())


@_admin_form()
def customer_person_hold_keep(request, page: dict, hold_uuid: uuid.UUID):
    refused = hold_keep_send(request, page["holds_area"], _hold_of(page, hold_uuid), name=page["detail"].person.full_name)
    return _back(page) if refused is None else _render(request, page, status=refused.status, **refused.forms())


def _hold_of(page: dict, hold_uuid: uuid.UUID):
    """The hold in force the page read; any other is a 404, with nothing sent."""
    hold = page["detail"].hold
    if hold is None or hold.uuid != hold_uuid:
        raise Http404("No such hold in force on this person's records.")
    return hold


def _back(page: dict):
    return redirect("screening:customer-person", page["detail"].person.uuid)


def _require_national_ids(member) -> None:
    if not can_read_national_ids(member):
        raise PermissionDenied("National ids need the API role person_national_identification.")


def _one_of(items, item_uuid):
    """The person's national id or address with this uuid (as the page read them); any other is a 404."""
    for item in items:
        if item.uuid == item_uuid:
            return item
    raise Http404("The person has no such national id or address.")


def _remove(request, page: dict, call, *, done: str, failed: str):
    """Make the removal's one call, then back to the page saying what happened (read again: a refusal
    as "removed by someone else in the meantime" shows what is); a service that cannot be reached is
    the page as read, with status 503."""
    try:
        call()
    except ServiceError as exc:
        refused(request, failed, exc)
        if isinstance(exc, ServiceUnavailable):
            return _render(request, page, status=503)
    else:
        acted(request, done)
    return _back(page)


# --- the page ---------------------------------------------------------------------------------------


def _read(request, customer_person_uuid) -> dict:
    """What the page shows: the person (another organisation's is a 404), their monitorings and, for
    admins, the lookups of the forms. Raises _PageDown with the page saying the service's error."""
    member = request.member
    can_edit = member.can_administer
    client = client_for_member(member)
    screening = client.screening
    try:
        detail = first_found([lambda: screening.customer_person(customer_person_uuid)])
        person = detail.person
        reads = [
            lambda: screening.monitorings(person.config_uuid, entity_uuid=person.uuid).rows,
            lambda: same_customer_persons(screening, person.config_uuid, full_name=person.full_name, birth_date=person.birth_date),
            lambda: similar_customer_persons(screening, person.config_uuid, person=person),
        ]
        if can_edit:
            reads += [screening.genders, screening.countries, screening.person_location_types, screening.monitoring_types]
        monitorings, namesakes, similar, *lookups = client.gather(*reads)
    except ServiceError as exc:
        context = {"no_aml": None, "national_ids_allowed": can_read_national_ids(member), "service_error": service_error_text(exc)}
        raise _PageDown(render(request, TEMPLATE, context, status=503)) from exc
    genders, countries, location_types, monitoring_types = lookups or ((), (), (), ())
    namesakes = [p for p in namesakes if p.uuid != person.uuid]  # possibly a second record of this customer
    return {
        "screening": screening,
        "holds_area": client.holds,
        "detail": detail,
        "monitorings": monitorings,
        "namesakes": namesakes,
        "similar": similar,
        "gather": client.gather,
        "can_edit": can_edit,
        "genders": genders,
        "countries": countries,
        "location_types": location_types,
        "monitoring_types": monitoring_types,
    }


def _render(request, page: dict, status: int = 200, **forms):
    """The page, with the forms for admins: a form sent back with its errors, the others as new."""
    detail = page["detail"]
    context = {
        "no_aml": None,
        "national_ids_allowed": can_read_national_ids(request.member),
        "detail": detail,
        "monitorings": page["monitorings"],
        # A record merged into another is settled: not a possible duplicate any more.
        "namesakes": [other for other in page["namesakes"] if other.merged_into_uuid is None],
        "merged_here": [other for other in page["namesakes"] if other.merged_into_uuid == detail.person.uuid],
        "similar": page["similar"] if detail.person.merged_into_uuid is None else SimilarRecords([], []),
        "screened": _screened(page["monitorings"]),
        "live_monitoring": _live(page["monitorings"]),
        "evidence_monitoring": _evidence_monitoring(page["monitorings"]),
        "can_edit": page["can_edit"],
        "hold": detail.hold,
        "cases_query": urlencode({"q": name_search_text(detail.person.full_name)[:NAME_SEARCH_MAX], "status": "all"}),
    }
    if page["can_edit"]:
        context["correct_form"] = forms.get("correct_form") or PersonCorrectionForm(person=detail.person, genders=page["genders"])
        context["national_id_form"] = forms.get("national_id_form") or NationalIdAddForm()
        context["address_form"] = forms.get("address_form") or AddressAddForm(countries=page["countries"])
        context["monitor_form"] = forms.get("monitor_form") or MonitoringForm()
        context.update(hold_forms(forms))
        if detail.person.merged_into_uuid is None:  # asked when the page is shown, not for the forms' posts
            choices = duplicate_choices(
                person=detail.person, namesakes=context["namesakes"], screening=page["screening"], gather=page["gather"],
                screened=context["screened"], merge_allowed=context["national_ids_allowed"],
            )
            # Two people by the service's rule are not "possibly the same customer": said apart, calmly.
            context["two_people"] = [choice for choice in choices if choice.two_people]
            context["duplicate_choices"] = [choice for choice in choices if not choice.two_people]
            apart = {choice.other.uuid for choice in context["two_people"]}
            context["namesakes"] = [other for other in context["namesakes"] if other.uuid not in apart]
    return render(request, TEMPLATE, context, status=status)


def _live(monitorings):
    """The person's monitoring that is not removed (pending, active or declined), if any: a customer
    person has at most one."""
    return next((m for m in monitorings if m.status_key != "removed"), None)


def _evidence_monitoring(monitorings):
    """Whose evidence of screening the page shows: the monitoring that counts now, unless it has
    none and a removed one has (monitored again, not yet screened); None when there is none."""
    live = _live(monitorings)
    if live is not None and live.screened_against:
        return live
    return next((m for m in reversed(monitorings) if m.screened_against), live)


def _screened(monitorings) -> bool:
    """Whether a monitoring screens the person now (the service screens a corrected person again under it)."""
    return any(m.status_key == "active" for m in monitorings)


def _refused(request, page: dict, name: str, form, error: ServiceError):
    """The page again with the service's answer on the form (`pages.form_refused`)."""
    return _render(request, page, status=form_refused(form, error), **{name: form})
