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

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from portal.access import client_for_member, member_required
from portal.feedback import service_error_text
from portal.service import ServiceError
from screening.monitoring_export import monitorings_csv_response
from screening.pages import (
    assignee_names, can_read_screening, current_config_or_message, decided_by, first_found, no_aml_text,
    sanction_list_selected,
)
from screening.views_approvals import ORIGIN_WORDS, TYPE_WORDS


@member_required()
def monitoring_page(request, monitoring_uuid: uuid.UUID):
    member = request.member
    context = {"can_decide": member.can_administer, "no_aml": None, "next_url": request.get_full_path()}
    if not can_read_screening(member):
        context["no_aml"] = no_aml_text(member)
        return render(request, "screening/approvals_monitoring.html", context)
    client = client_for_member(member)
    screening = client.screening
    try:
        configs = screening.configs()
        monitoring = first_found(
            [lambda config=config: screening.monitoring(config.uuid, monitoring_uuid) for config in configs]
        )
    except ServiceError as exc:
        context["service_error"] = service_error_text(exc)
        return render(request, "screening/approvals_monitoring.html", context, status=503)
    names = assignee_names(member, [d.app_membership_uuid for d in monitoring.decisions if d.app_membership_uuid])
    context.update(
        monitoring=monitoring,
        type_words=TYPE_WORDS.get(monitoring.type_key, monitoring.type_key),
        origin_words=ORIGIN_WORDS.get(monitoring.origin_key, monitoring.origin_key.replace("_", " ")),
        decisions=[{"decision": d, "by": decided_by(d, names)} for d in monitoring.decisions],
    )
    if monitoring.type_key == "company" and not monitoring.screened_against:
        try:
            context["no_sanction_list"] = not sanction_list_selected(client, monitoring.config_uuid)
        except ServiceError:
            pass  # the page reads well without the reason
    return render(request, "screening/approvals_monitoring.html", context)


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
