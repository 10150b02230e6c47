"""Monitoring approvals: pending suggestions by company (decide one by one or in bulk),
active monitorings (remove with a reason) and customer persons (add and monitor).

Admins decide; officers read. The decision form works as a plain POST (redirect back to
the same view of the page) and, with htmx, swaps only the pending list.
"""

from __future__ import annotations

import re
import uuid
from datetime import date

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from portal.access import client_for_member, member_required
from portal.feedback import service_error_text
from portal.service import ServiceBadRequest, ServiceError, ServiceNoAnswer, ServiceNotFound, ServiceUnavailable
from screening.customer_person_form import NATIONAL_ID_SCHEMAS, CustomerPersonForm, national_id_held_text, same_person_text
from screening.pages import acted, can_read_national_ids, can_read_screening, no_aml_text, refused, require_admin
from vakt_format.search import NAME_SEARCH_MAX, name_search_text

VIEWS = ("pending", "active", "persons")
PENDING_FETCH = 1000  # the service's largest page: the pending list is read once and grouped here
COMPANIES_PER_PAGE = 15
ACTIVE_PER_PAGE = 50
PERSONS_PER_PAGE = 50
# A search of digits (with the spaces, dashes or + a national id is written with) looks for a national id.
NUMBER_LIKE = re.compile(r"[\d][\d +-]{5,18}[\d]")
DECISIONS = {"approve": True, "decline": False}  # a choice: anything else decides nothing
NOT_SET_UP = "Set up screening first: nobody is suggested or screened before it is."
TYPE_WORDS = {
    "beneficial_owners": "Beneficial owner",
    "alternative_beneficial_owners": "Standing in for the owners",
    "company": "The company itself",
    "other": "Customer person",
}
ORIGIN_WORDS = {  # how a monitoring came about, after "Since <day>"
    "suggestion": "suggested by the screening setup",
    "auto_approve": "suggested by the screening setup, approved automatically",
    "user": "added by a person",
    "api": "added through the API",
}
ROLE_WORDS = {
    "shareholder": "shareholder",
    "board_chair": "chair of the board",
    "board_member": "board member",
    "deputy_board_member": "deputy board member",
    "ceo": "CEO",
    "signature_right": "signature right",
    "procuration": "procuration",
}


@member_required()
def approvals(request):
    member = request.member
    view = request.GET.get("view") if request.GET.get("view") in VIEWS else "pending"
    context = {
        "view": view, "can_decide": member.can_administer, "no_aml": None, "config": None, "next_url": request.get_full_path(),
    }
    if not can_read_screening(member):
        context["no_aml"] = no_aml_text(member)
        return render(request, "screening/approvals.html", context)
    client = client_for_member(member)
    try:
        config = client.screening.current_config()
        if config is not None:
            context["config"] = config
            context.update(_pending(request, client, config))
            if view == "active":
                context.update(_active(request, client, config))
            elif view == "persons":
                context.update(_persons(request, client, config, form=None))
    except ServiceError as exc:
        context["service_error"] = service_error_text(exc)
        return render(request, "screening/approvals.html", context, status=503)
    return render(request, "screening/approvals.html", context)


@require_POST
@member_required()
def decide(request):
    require_admin(request.member)
    back = _back(request)
    comment = " ".join(request.POST.get("comment", "").split())
    client = client_for_member(request.member)
    screening = client.screening
    try:
        config = screening.current_config()
        if config is None:
            messages.error(request, f"Nothing was decided. {NOT_SET_UP}")
            return _after_decision(request, back)
        approved, uuids = _chosen(request, screening, config)
    except ServiceError as exc:
        refused(request, "Nothing was decided.", exc)
        return _after_decision(request, back)
    if approved is None:
        messages.error(request, "Nothing was decided: choose approve or decline.")
    elif not uuids:
        messages.warning(request, "Choose at least one monitoring to approve or decline.")
    elif not approved and not comment:
        messages.error(request, "Nothing was declined: say why in the comment (it is kept with the decision).")
    else:
        done, failures = [], []
        for monitoring_uuid in uuids:
            try:
                done.append(
                    screening.decide(config.uuid, monitoring_uuid, approved=approved, comment=comment)
                )
            except ServiceError as exc:
                failures.append(service_error_text(exc))
        if done:
            acted(request, _decided_text(done, approved))
        if failures:
            messages.error(request, f"{len(failures)} not decided: {failures[0]}")
    return _after_decision(request, back)


@require_POST
@member_required()
def remove(request):
    require_admin(request.member)
    reason = " ".join(request.POST.get("reason", "").split())
    name = request.POST.get("name") or "The monitoring"
    back = _back(request, default=f"{reverse('screening:approvals')}?view=active")
    if not reason:
        messages.error(request, f"{name} was not removed: say why (the reason is kept with the monitoring).")
        return redirect(back)
    screening = client_for_member(request.member).screening
    try:
        config = screening.current_config()
        if config is None:
            messages.error(request, f"{name} was not removed. {NOT_SET_UP}")
            return redirect(back)
        screening.remove_monitoring(config.uuid, request.POST.get("monitoring", ""), reason=reason)
    except ServiceError as exc:
        refused(request, f"{name} was not removed.", exc)
        return redirect(back)
    acted(request, f"{name} is no longer screened. Reason kept: “{reason}”.")
    return redirect(back)


@require_POST
@member_required()
def customer_person_add(request):
    require_admin(request.member)
    client = client_for_member(request.member)
    screening = client.screening
    try:
        config = screening.current_config()
        if config is None:
            messages.error(request, "Set up screening first: customer persons are screened under the organisation's config.")
            return redirect("screening:setup")
        context = {"view": "persons", "can_decide": True, "config": config, "no_aml": None, "next_url": request.get_full_path()}
        context.update(_pending(request, client, config))
        context.update(_persons(request, client, config, form=request.POST))
    except ServiceError as exc:
        refused(request, "The person was not added.", exc)
        return redirect(f"{reverse('screening:approvals')}?view=persons")
    form = context["person_form"]
    if not form.is_valid():
        return render(request, "screening/approvals.html", context)
    monitoring = _customer_person_save(screening, config, context, form)
    if monitoring is None:  # a form with errors, as after the form's own checks: the page itself is fine
        if form.data.get("customer_person_uuid") and not request.POST.get("customer_person_uuid"):
            try:  # the person saved before the refusal is listed beside the form that says so
                context["customer_persons"] = screening.customer_persons(config.uuid)
            except ServiceError:
                pass  # the list as read before: the form's message names the person
        return render(request, "screening/approvals.html", context)
    state = "is screened from now on" if monitoring.status_key == "active" else "waits for approval under Pending"
    acted(request, f"{monitoring.entity_name} added as a customer person and {state}.")
    return redirect(f"{reverse('screening:approvals')}?view=persons")


def _customer_person_save(screening, config, context, form):
    """The person, national id, address and monitoring, in as many calls; the monitoring, or None with
    the form saying what was saved and what not.

    A form sent again after a refused later step carries the saved person's uuid: it continues with
    that person (read first: another organisation's or a deleted one is a 404, and nothing is written)
    and skips what the person already has."""
    data = form.cleaned_data
    saved = None  # the person, once they exist in the service
    step = "person"
    try:
        if data.get("customer_person_uuid") is None:
            if data.get("national_id_number"):  # checked, and its holder looked for, before anyone is saved
                step = "national_id"
                holder = screening.customer_person_with_national_id(
                    config.uuid, schema=data["national_id_schema"], number=data["national_id_number"]
                )
                if holder is not None:
                    form.add_error("national_id_number", national_id_held_text(holder))
                    form.add_error(None, "Nothing was saved.")
                    return None
                step = "person"
            twin = None if data.get("someone_else") else _same_person(screening, config, data)
            if twin is not None:
                form.add_error(None, same_person_text(twin))
                form.twin = twin
                return None
            saved = screening.create_customer_person(
                config.uuid, full_name=data["full_name"], birth_date=data.get("birth_date"), gender_uuid=data.get("gender") or None
            )
            locations = ()
        else:
            detail = screening.customer_person(data["customer_person_uuid"])
            saved, locations = detail.person, detail.locations
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


def _same_person(screening, config, data):
    """A customer person with the form's name (any case, runs of spaces as one) and birth date (both
    without one counts as the same), if any: most likely the same customer, to be screened once."""
    name = " ".join(data["full_name"].split())
    for person in screening.customer_persons(config.uuid, name_contains=name[:NAME_SEARCH_MAX], limit=1000):
        if person.full_name.casefold() == name.casefold() and person.birth_date == data.get("birth_date"):
            return person
    return None


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


# --- reading -----------------------------------------------------------------------------------


def _pending(request, client, config) -> dict:
    """The pending monitorings grouped by company; the page's companies with who/why details."""
    try:
        company = str(uuid.UUID(request.GET.get("company") or ""))
    except ValueError:  # no filter, or not a company's uuid: every company, as the queue drops it
        company = None
    page = client.screening.monitorings(config.uuid, status_key="pending", related_company_uuid=company, limit=PENDING_FETCH)
    groups: dict = {}
    for monitoring in page.rows:
        key = monitoring.related_company.uuid if monitoring.related_company else None
        groups.setdefault(key, []).append(monitoring)
    ordered = sorted(groups.items(), key=lambda item: (item[0] is None, item[1][0].related_company.name if item[0] else ""))
    paginator = Paginator(ordered, COMPANIES_PER_PAGE)
    company_page = paginator.get_page(request.GET.get("page"))
    suggested = {}
    with_persons = [uuid for uuid, rows in company_page if uuid and any(m.person_uuid for m in rows)]
    if with_persons:
        suggested = client.screening.suggested_persons(config.uuid, with_persons)
    companies = []
    for company_uuid, rows in company_page:
        why = {p.person_uuid: p for p in suggested.get(company_uuid, ())}
        companies.append(
            {
                "company": rows[0].related_company,
                "rows": [_pending_row(m, why.get(m.person_uuid)) for m in rows],
            }
        )
    return {
        "pending_count": len(page.rows),
        "pending_more": page.has_more,
        # Customer persons have no company: they wait in a group of their own, not counted as one.
        "pending_company_count": sum(1 for key in groups if key is not None),
        "pending_person_count": len(groups.get(None, ())),
        "pending_companies": companies,
        "company_page": company_page,
        "company_filter": company,
        "page_uuids": [row["monitoring"].uuid for group in companies for row in group["rows"]],
    }


def _pending_row(monitoring, suggestion) -> dict:
    roles = []
    if suggestion:
        roles = [ROLE_WORDS.get(key, key.replace("_", " ")) for key in suggestion.role_keys if key != "shareholder"]
    return {
        "monitoring": monitoring,
        "type_words": TYPE_WORDS.get(monitoring.type_key, monitoring.type_key),
        "roles": roles,
        "share": suggestion.effective_share if suggestion else None,
        "chains": suggestion.chains if suggestion else (),
    }


def _page_number(request) -> int:
    """The page asked for (`page`, from 1); anything else is the first."""
    try:
        return max(1, int(request.GET.get("page") or 1))
    except ValueError:
        return 1


def _active(request, client, config) -> dict:
    number = _page_number(request)
    page = client.screening.monitorings(
        config.uuid, status_key="active", limit=ACTIVE_PER_PAGE, offset=(number - 1) * ACTIVE_PER_PAGE
    )
    rows = [{"monitoring": m, "type_words": TYPE_WORDS.get(m.type_key, m.type_key)} for m in page.rows]
    return {"active_rows": rows, "active_page": number, "active_more": page.has_more}


def _persons(request, client, config, *, form) -> dict:
    screening = client.screening
    search = name_search_text(request.GET.get("q"))[:NAME_SEARCH_MAX]
    number = _page_number(request)
    national_ids = can_read_national_ids(request.member)
    by_national_id = national_ids and NUMBER_LIKE.fullmatch(search) is not None
    genders, countries, types, location_types, persons = client.gather(
        screening.genders, screening.countries, screening.monitoring_types, screening.person_location_types,
        (lambda: _national_id_holders(screening, config, search)) if by_national_id else
        # One more than a page: whether a next page exists.
        lambda: screening.customer_persons(
            config.uuid, name_contains=search, limit=PERSONS_PER_PAGE + 1, offset=(number - 1) * PERSONS_PER_PAGE
        ),
    )
    initial = _person_prefill(request.GET) if form is None else None
    person_form = CustomerPersonForm(form, genders=genders, countries=countries, national_ids=national_ids, initial=initial)
    return {
        "person_form": person_form,
        "customer_persons": persons[:PERSONS_PER_PAGE],
        "persons_search": search,
        "persons_by_national_id": by_national_id,
        "persons_page": number,
        "persons_more": len(persons) > PERSONS_PER_PAGE,
        "national_ids_allowed": national_ids,
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
    """The form filled from a link (a name checked on the Batch screening page): the name, a full ISO
    birth date and the comment; what is not given or not a day is left empty, never refused."""
    initial = {"full_name": query.get("full_name", "")[:300], "comment": query.get("comment", "")[:4000]}
    try:
        initial["birth_date"] = date.fromisoformat(query.get("birth_date", ""))
    except ValueError:
        pass  # only a year or a month: typed in by hand
    return {key: value for key, value in initial.items() if value}


# --- deciding ------------------------------------------------------------------------------------


def _chosen(request, screening, config) -> tuple[bool | None, list[str]]:
    """Approve (True) or decline (False), and for which monitorings: one row's button (`action=approve:<uuid>`),
    all of a company (`company_all=approve:<company uuid>`), the whole page (`page_all=approve`), or the ticked
    rows (`action=approve`). None when the request says neither (nothing is decided then)."""
    if request.POST.get("company_all"):
        verb, _, company = request.POST["company_all"].partition(":")
        if verb not in DECISIONS:
            return None, []
        page = screening.monitorings(config.uuid, status_key="pending", related_company_uuid=company, limit=PENDING_FETCH)
        return DECISIONS[verb], [str(m.uuid) for m in page.rows]
    if request.POST.get("page_all"):
        return DECISIONS.get(request.POST["page_all"]), request.POST.getlist("page_monitoring")
    verb, _, one = request.POST.get("action", "").partition(":")
    return DECISIONS.get(verb), [one] if one else request.POST.getlist("monitoring")


def _decided_text(done, approved: bool) -> str:
    verb = "Approved" if approved else "Declined"
    effect = "screened from now on" if approved else "not screened"
    if len(done) == 1:
        m = done[0]
        where = f" ({m.related_company.name})" if m.related_company and m.entity_key != "company" else ""
        return f"{verb}: {m.entity_name}{where} is {effect}."
    companies = {m.related_company.uuid for m in done if m.related_company}
    return f"{verb} {len(done)} monitorings for {len(companies)} compan{'y' if len(companies) == 1 else 'ies'}: {effect}."


def _back(request, default: str | None = None) -> str:
    back = request.POST.get("next") or ""
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}) and back.startswith("/"):
        return back
    return default or reverse("screening:approvals")


def _after_decision(request, back: str):
    if not request.htmx:
        return redirect(back)
    # htmx: the pending list again, as the page it came from shows it (query of `next`)
    query = back.split("?", 1)[1] if "?" in back else ""
    request.GET = QueryDict(query)
    client = client_for_member(request.member)
    context = {"view": "pending", "can_decide": True, "next_url": back}
    try:
        config = client.screening.current_config()
        context.update(config=config, **(_pending(request, client, config) if config else {}))
    except ServiceError as exc:
        context["service_error"] = service_error_text(exc)
    return render(request, "screening/approvals_pending.html", context)


def _type_uuid(context, key: str):
    return next(t.uuid for t in context["monitoring_types"] if t.key == key)


def residence_uuid(location_types):
    """The location type of an address typed in the dashboard: where the person lives."""
    return next((t.uuid for t in location_types if t.key == "residence"), None)


def _step_words(step: str) -> str:
    return {"national_id": "given its national id", "location": "given its address", "monitoring": "put under monitoring"}.get(
        step, "complete"
    )
