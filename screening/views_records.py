"""The page the service's app_url names for a monitoring (a customer person's page is
views_customer_person).

A monitoring's page shows who is monitored, for which company and why, its status and
every decision; admins decide or remove it there too (the forms post to the approvals
views and come back here). The monitoring is looked up in each of the organisation's
configs (usually one); in none of them, it is a 404, as in the service.
"""

from __future__ import annotations

import uuid

from django.shortcuts import render

from portal.access import client_for_member, member_required
from portal.models import Member
from portal.feedback import service_error_text
from portal.service import ServiceError
from screening.pages import can_read_screening, first_found, no_aml_text
from screening.views_approvals import ORIGIN_WORDS, TYPE_WORDS


@member_required()
def monitoring_page(request, monitoring_uuid: uuid.UUID):
    member = request.member
    context = {"can_decide": member.can_administer, "no_aml": None, "next_url": request.get_full_path()}
    if not can_read_screening(member):
        context["no_aml"] = no_aml_text(member)
        return render(request, "screening/approvals_monitoring.html", context)
    screening = client_for_member(member).screening
    try:
        configs = screening.configs()
        monitoring = first_found(
            [lambda config=config: screening.monitoring(config.uuid, monitoring_uuid) for config in configs]
        )
    except ServiceError as exc:
        context["service_error"] = service_error_text(exc)
        return render(request, "screening/approvals_monitoring.html", context, status=503)
    context.update(
        monitoring=monitoring,
        type_words=TYPE_WORDS.get(monitoring.type_key, monitoring.type_key),
        origin_words=ORIGIN_WORDS.get(monitoring.origin_key, monitoring.origin_key.replace("_", " ")),
        decisions=[{"decision": d, "by": _decided_by(member, d)} for d in monitoring.decisions],
    )
    return render(request, "screening/approvals_monitoring.html", context)


def _decided_by(member, decision) -> str:
    """Who decided, in words: the dashboard member behind the membership, or how it was decided."""
    if decision.origin_key == "auto_approve":
        return "Automatic (auto-approval)"
    if decision.app_membership_uuid:
        found = Member.objects.filter(
            organisation=member.organisation, app_membership_uuid=decision.app_membership_uuid
        ).select_related("user").first()
        if found:
            return found.user.get_full_name() or found.user.get_username()
    return "An API user" if decision.origin_key != "user" else "A member"
