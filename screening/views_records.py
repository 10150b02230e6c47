"""The page the service's app_url names for a monitoring (a customer person's page is
views_customer_person).

A monitoring's page shows who is monitored, for which company and why, its status and
every decision; admins decide or remove it there too (the forms post to the approvals
views and come back here). The monitoring is looked up in each of the organisation's
configs (usually one); in none of them, it is a 404, as in the service. Every monitoring,
as a CSV file for an auditor, is `monitorings_export`.
"""

from __future__ import annotations

import uuid
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from portal.access import client_for_member, member_required
from portal.feedback import service_error_text
from portal.service import ServiceError, ServiceUnavailable
from screening.holds import hold_forms, hold_in_force_text, hold_keep_send, hold_place_send, hold_release_send
from screening.monitoring_export import monitorings_csv_response
from screening.pages import (
    assignee_names, can_read_screening, current_config_or_message, decided_by, first_found,
    no_aml_text, refused, require_admin, sanction_list_selected,
)
from screening.views_approvals import ORIGIN_WORDS, TYPE_WORDS
from vakt_format.search import NAME_SEARCH_MAX, name_search_text

TEMPLATE = "screening/approvals_monitoring.html"


@member_required()
def monitoring_page(request, monitoring_uuid: uuid.UUID):
    return _page(request, monitoring_uuid)


def _page(request, monitoring_uuid: uuid.UUID, *, status: int = 200, **forms):
    """The page; `forms`: a hold or release form sent back with its errors (status: the answer's)."""
    member = request.member
    # The decide and remove forms come back here, also when this is a refused hold form's answer.
    context = {"can_decide": member.can_administer, "no_aml": None,
               "next_url": reverse("screening:monitoring", args=[monitoring_uuid])}
    if not can_read_screening(member):
        context["no_aml"] = no_aml_text(member)
        return render(request, TEMPLATE, context)
    client = client_for_member(member)
    try:
        monitoring = _monitoring(client, monitoring_uuid)
    except ServiceError as exc:
        context["service_error"] = service_error_text(exc)
        return render(request, TEMPLATE, context, status=503)
    names = assignee_names(member, [d.app_membership_uuid for d in monitoring.decisions if d.app_membership_uuid])
    context.update(
        monitoring=monitoring,
        type_words=TYPE_WORDS.get(monitoring.type_key, monitoring.type_key),
        origin_words=ORIGIN_WORDS.get(monitoring.origin_key, monitoring.origin_key.replace("_", " ")),
        decisions=[{"decision": d, "by": decided_by(d, names)} for d in monitoring.decisions],
        # The queue searched by the name, every status: the cases to look at before removing it.
        cases_query=urlencode({"q": name_search_text(monitoring.entity_name)[:NAME_SEARCH_MAX], "status": "all"}),
    )
    if monitoring.type_key == "company" and not monitoring.screened_against:
        try:
            context["no_sanction_list"] = not sanction_list_selected(client, monitoring.config_uuid)
        except ServiceError:
            pass  # the page reads well without the reason
    if monitoring.entity_key != "customer_person":  # a customer person's page says it
        try:
            context["records"] = _retention(client, monitoring)
        except ServiceError:
            pass  # the page reads well without it
        if member.can_administer:
            context.update(hold_forms(forms))
    return render(request, TEMPLATE, context, status=status)


@require_POST
@member_required()
def monitoring_hold_place(request, monitoring_uuid: uuid.UUID):
    """A legal hold on the register person's or company's records in the config."""
    require_admin(request.member)
    client = client_for_member(request.member)
    try:
        monitoring, records = _held_entity(client, monitoring_uuid)
    except ServiceError as exc:
        return _unread(request, monitoring_uuid, "The hold was not placed.", exc)
    if records.hold is not None:
        messages.info(request, hold_in_force_text(monitoring.entity_name))
        return redirect("screening:monitoring", monitoring.uuid)
    refused = hold_place_send(request, client.holds, config_uuid=monitoring.config_uuid, entity_key=monitoring.entity_key,
                              entity_uuid=monitoring.entity_uuid, name=monitoring.entity_name)
    return _after(request, monitoring_uuid, refused)


@require_POST
@member_required()
def monitoring_hold_release(request, monitoring_uuid: uuid.UUID, hold_uuid: uuid.UUID):
    return _on_hold(request, monitoring_uuid, hold_uuid, hold_release_send, "The hold was not released.")


@require_POST
@member_required()
def monitoring_hold_keep(request, monitoring_uuid: uuid.UUID, hold_uuid: uuid.UUID):
    return _on_hold(request, monitoring_uuid, hold_uuid, hold_keep_send, "The hold was not kept.")


def _on_hold(request, monitoring_uuid, hold_uuid, send, unread: str):
    """An admin's form on the hold in force the page read (any other is a 404, nothing sent)."""
    require_admin(request.member)
    client = client_for_member(request.member)
    try:
        monitoring, records = _held_entity(client, monitoring_uuid)
    except ServiceError as exc:
        return _unread(request, monitoring_uuid, unread, exc)
    if records.hold is None or records.hold.uuid != hold_uuid:
        raise Http404("No such hold in force on these records.")
    return _after(request, monitoring_uuid, send(request, client.holds, records.hold, name=monitoring.entity_name))


def _after(request, monitoring_uuid, refused):
    """Back to the page when the service accepted, else the page with the form refused."""
    if refused is None:
        return redirect("screening:monitoring", monitoring_uuid)
    return _page(request, monitoring_uuid, status=refused.status, **refused.forms())


def _unread(request, monitoring_uuid, what: str, error: ServiceError):
    """What was read before sending could not be read: say nothing was sent, and show the page
    (saying the service did not answer when it is away)."""
    refused(request, what, error)
    return _page(request, monitoring_uuid, status=503 if isinstance(error, ServiceUnavailable) else 200)


def _monitoring(client, monitoring_uuid):
    """The monitoring in whichever of the organisation's configs has it (a 404 in none)."""
    screening = client.screening
    configs = screening.configs()
    return first_found([lambda config=config: screening.monitoring(config.uuid, monitoring_uuid) for config in configs])


def _retention(client, monitoring):
    return client.holds.retention(monitoring.config_uuid, entity_key=monitoring.entity_key, entity_uuid=monitoring.entity_uuid)


def _held_entity(client, monitoring_uuid):
    """The monitoring of a register person or company and its records' retention, read as the page
    reads them (a 404 for a customer person's: its page holds them). ServiceError when unread."""
    monitoring = _monitoring(client, monitoring_uuid)
    if monitoring.entity_key == "customer_person":
        raise Http404("A customer person's records are held on the person's page.")
    return monitoring, _retention(client, monitoring)


@member_required()
def monitorings_export(request):
    """Every monitoring of the organisation's config (removed and declined too), oldest first, as CSV:
    who is screened, why, on whose decision, and what each was last screened against."""
    back = f"{reverse('screening:approvals')}?view=active"
    if not can_read_screening(request.member):
        messages.error(request, no_aml_text(request.member))
        return redirect(back)
    client = client_for_member(request.member)
    config, error = current_config_or_message(client)
    if config is None:
        messages.error(request, f"The monitorings could not be downloaded. {error}")
        return redirect(back)
    name = slugify(request.member.organisation.name) or "organisation"
    try:
        return monitorings_csv_response(
            client=client, member=request.member, config_uuid=config.uuid, type_words=TYPE_WORDS,
            filename=f"screening-monitorings-{name}-{timezone.localdate().isoformat()}.csv",
        )
    except ServiceError as exc:
        messages.error(request, f"The monitorings could not be downloaded. {service_error_text(exc)}")
        return redirect(back)
