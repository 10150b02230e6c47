"""Actions on the cases selected in the queue: assign them, or close them as false positives.

Most possible hits are false positives, and many come at once (a list update, a common name);
an officer who has compared a page of them closes the ones she selected in one go, with one
comment for the audit trail. Confirmed hits are never closed in bulk: each is a decision of its
own (and with four eyes a second officer's). The service reviews or assigns the cases all or none
(its batch extensions), each exactly as the case page does one. A refusal shows the queue again
with the same cases selected and the comment kept.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from portal.access import client_for_member, member_required
from portal.feedback import service_error_text
from portal.formatting import member_label
from portal.service import ServiceError
from screening import freshness
from screening.pages import current_config_or_message
from screening.views_cases import COMMENT_MAX, REVIEWERS, case_queue, colleagues_for, queue_back_url

BATCH_MAX = 100  # the service's limit; a queue page holds 50
ACTIONS = ("assign", "false_positive")


@require_POST
@member_required(*REVIEWERS)
def case_batch(request):
    back = queue_back_url(request)
    form = {
        "back": back,
        "action": request.POST.get("action", ""),
        "to": request.POST.get("to", "me"),
        "comment": request.POST.get("comment", "").strip(),
        "selected": set(request.POST.getlist("case")),
    }
    target = _assignee(request, form["to"]) if form["action"] == "assign" else None
    case_uuids, problems = _checked(request, form, target)
    if problems:
        return case_queue(request, batch={**form, "problems": problems, "status": 400})
    client = client_for_member(request.member)
    config, error = current_config_or_message(client)
    if config is None:
        return case_queue(request, batch={**form, "problems": [error], "status": 503})
    try:
        if form["action"] == "assign":
            assignee, whom = target
            client.cases.assign_many(config.uuid, case_uuids, assignee)
            done = f"{_cases(len(case_uuids))} assigned to {whom}."
        else:
            client.cases.review_many(config.uuid, case_uuids, status_key="false_positive", decision_key="no_match",
                                     comment=form["comment"])
            done = f"{_cases(len(case_uuids))} closed as false positive{'s' if len(case_uuids) != 1 else ''}."
    except ServiceError as exc:
        # All or none: nothing changed. Which case stopped it is in the service's sentence (a four-eyes
        # refusal names the case and says that no case was reviewed).
        status = 503 if exc.status >= 500 or exc.status == 0 else 409 if exc.status == 409 else 400
        text = service_error_text(exc) if status == 409 else f"Nothing was changed. {service_error_text(exc)}"
        return case_queue(request, batch={**form, "problems": [text], "status": status})
    freshness.forget(organisation_uuid=request.member.organisation.app_customer_uuid)
    messages.success(request, done)
    return redirect(back)


def _checked(request, form: dict, target) -> tuple[list[uuid.UUID], list[str]]:
    problems = []
    try:
        case_uuids = sorted(uuid.UUID(value) for value in form["selected"])
    except ValueError:
        case_uuids = []
        problems.append("A selected case is not one of the queue's; reload the page and select again.")
    if not form["selected"]:
        problems.append("Select the cases first: tick the box at the start of each row.")
    elif len(case_uuids) > BATCH_MAX:
        problems.append(f"Select at most {BATCH_MAX} cases at a time.")
    if form["action"] not in ACTIONS:
        problems.append("Choose what to do with the selected cases: assign them or close them as false positives.")
    if form["action"] == "false_positive":
        if not form["comment"]:
            problems.append("Say why they are not the listed persons or companies: the comment goes into each case's review.")
        elif len(form["comment"]) > COMMENT_MAX:
            problems.append(f"The comment is too long: at most {COMMENT_MAX} characters.")
    if form["action"] == "assign" and target is None:
        problems.append("Choose yourself, nobody or a colleague who reviews cases.")
    if request.member.app_membership_uuid is None and (form["action"] == "false_positive" or form["to"] == "me"):
        problems.append("Your login is not linked to a person in the service, so it cannot act on cases. Ask an admin.")
    return case_uuids, problems


def _assignee(request, to: str) -> tuple[uuid.UUID | None, str] | None:
    """The service person to assign to and how the message names them; None when `to` is not me,
    nobody or one of the colleagues the queue offers."""
    if to == "me":
        return request.member.app_membership_uuid, "you"
    if to == "nobody":
        return None, "nobody"
    colleague = next((c for c in colleagues_for(request.member) if str(c.uuid) == to), None)
    return (colleague.app_membership_uuid, member_label(colleague)) if colleague else None


def _cases(count: int) -> str:
    return "1 case" if count == 1 else f"{count} cases"
