"""The case queue and the case page: where compliance officers spend their day.

Everything goes through `client.cases` (portal.service.cases). Every member reads (viewers send
`aml` only to read); officers and admins review and assign, as themselves: each write carries
the member's `app_membership_uuid` and only their role's keys, and afterwards the organisation's
cached screening state is forgotten (screening.freshness), so no page shows a state older than
the member's own action.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import date
from urllib.parse import urlencode, urlsplit

from django.contrib import messages
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, format_html, format_html_join
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from portal.access import client_for_member, member_required
from portal.feedback import service_error_text
from portal.formatting import member_label
from portal.models import Member
from portal.service import ServiceError, ServiceNotFound
from portal.service.cases import Case, review_refusal_field
from screening import freshness
from screening.case_export import cases_csv_response
from screening.four_eyes import (
    REVIEWERS, RULE_TEXT, escalation_badge_title, four_eyes_for, proposal_badge_title, reviewers_of, too_few_reviewers,
)
from screening.name_parts import name_parts
from screening.pages import current_config_or_message, member_names
from screening.queue_filters import ASSIGNEE_CHOICES, HIT_CHOICES, SCREENED_CHOICES, SORT_CHOICES, QueueFilters, list_choices
from screening.templatetags.screening_cases import list_name
from screening.views_approvals import TYPE_WORDS
from vakt_format import norwegian as no
from vakt_format.case_status import PROPOSAL_WORDS, escalated_words
from vakt_format.match_explanation import adjustment_verdict

REVIEW_STATUSES = (
    ("in_review", "In review", "I am looking at it: the case is assigned to me and stays open"),
    ("escalated", "Escalated", "Hand it on for a second opinion; the case stays open"),
    ("false_positive", "False positive", "Not the listed person or company; closes the case"),
    ("confirmed_hit", "Confirmed hit", "The listed person or company; closes the case"),
)
MATCH_DECISIONS = (("no_match", "No match"), ("possible_match", "Possible match"), ("match", "Match"))
# The service's rule (a closing review's decision agrees with its status), in words: the form says it
# beforehand, and at the match decision when the service refuses one; the service alone checks it.
DECISION_RULE = "A false positive goes with the match decision No match, a confirmed hit with Match."
DECISION_REFUSED = f"This match decision does not go with the status you chose. {DECISION_RULE}"
COMMENT_MAX = 4000


@member_required()
def case_queue(request, *, batch: dict | None = None):
    """The queue. `batch`: a refused action on selected cases (views_case_batch), shown again on the page
    it came from (`batch["back"]`) with its cases still selected, its comment kept and its problems."""
    filters = QueueFilters.from_query(QueryDict(urlsplit(batch["back"]).query) if batch else request.GET)
    canonical = filters.query()
    if batch is None and request.GET and canonical != f"?{request.META.get('QUERY_STRING', '')}":
        # The filter form sends every field (empty ones, defaults): the queue's URL says only what narrows it.
        return redirect(f"{reverse('screening:queue')}{canonical if canonical != '?' else ''}")
    client = client_for_member(request.member)
    can_review = request.member.role in REVIEWERS
    context = {"filters": filters, "page": None, "service_error": None, "can_review": can_review,
               "hit_choices": HIT_CHOICES, "screened_choices": SCREENED_CHOICES, "assignee_choices": ASSIGNEE_CHOICES, "sort_choices": SORT_CHOICES,
               "linked": request.member.app_membership_uuid is not None, "batch": batch or {},
               "colleagues": colleagues_for(request.member) if can_review else []}
    config, context["service_error"] = current_config_or_message(client)
    if config is not None:
        context["too_few_reviewers"] = too_few_reviewers(request.member, on=config.four_eyes_review)
        try:
            filters, context["list_choices"] = _known_list(client, filters)
            context["filters"] = filters
            service_filters = filters.service_filters(me=request.member.app_membership_uuid)
            page, counts = client.gather(
                lambda: client.cases.page(config.uuid, service_filters, sort_order=filters.sort_order,
                                          limit=filters.page_size, offset=filters.offset),
                lambda: client.cases.status_counts(config.uuid, service_filters),
            )
        except ServiceError as exc:
            context["service_error"] = service_error_text(exc)
        else:
            context.update(page=page, tabs=filters.status_tabs(counts.per_status()), **_page_links(request, filters, page))
            if batch:
                context["back"] = batch["back"]
            context["rows"] = _rows(request.member, page.cases, filters=filters, back=context["back"],
                                    four_eyes=config.four_eyes_review, selected=context["batch"].get("selected", ()))
            context["company_name"] = _company_name(filters.company, page.cases)
            context["listed_name"] = page.cases[0].list_entry.primary_name if filters.listed_as and page.cases else "one list entry"
            context["export_query"] = filters.query(page=1)
    status = 503 if context["service_error"] and config is not None else batch["status"] if batch else 200
    return render(request, "screening/queue.html", context, status=status)


@member_required()
def case_export(request):
    """Every case the queue's filters select (all pages), as CSV, in the queue's order."""
    filters = QueueFilters.from_query(request.GET)
    back = f"{reverse('screening:queue')}{filters.query(page=1)}"
    client = client_for_member(request.member)
    config, error = current_config_or_message(client)
    if config is None:
        messages.error(request, f"The cases could not be downloaded. {error}")
        return redirect(back)
    name = slugify(f"{request.member.organisation.name} {filters.status}") or "cases"
    try:
        filters, _ = _known_list(client, filters)
        return cases_csv_response(
            client=client, member=request.member, config_uuid=config.uuid,
            filters=filters.service_filters(me=request.member.app_membership_uuid), sort_order=filters.sort_order,
            filename=f"screening-cases-{name}-{timezone.localdate().isoformat()}.csv",
        )
    except ServiceError as exc:
        messages.error(request, f"The cases could not be downloaded. {service_error_text(exc)}")
        return redirect(back)


def _known_list(client, filters: QueueFilters) -> tuple[QueueFilters, dict[str, str]]:
    """The List filter's choices, and the filters without a list the service does not know (an
    old or hand-edited link opens the queue of every list)."""
    choices = list_choices(client.screening.list_categories())
    return (filters if filters.list_key in choices else replace(filters, list_key="")), choices


def _page_links(request, filters: QueueFilters, page) -> dict:
    first = filters.offset + 1 if page.cases else 0
    return {
        "first_shown": first,
        "last_shown": filters.offset + len(page.cases),
        "prev_url": filters.query(page=filters.page - 1) if filters.page > 1 else None,
        "next_url": filters.query(page=filters.page + 1) if page.has_more else None,
        "clear_company_url": filters.query(company=None),
        "clear_listed_url": filters.query(listed_as=None),
        "clear_all_url": filters.query(hit="", company=None, assignee="", listed_as=None),
        "back": request.get_full_path(),
    }


def _rows(member: Member, cases: tuple[Case, ...], *, filters: QueueFilters | None = None, back: str = "",
          four_eyes: bool = False, selected=()) -> list[dict]:
    names = _assignee_names(member, cases)
    today = timezone.localdate()
    filters = filters or QueueFilters()
    # URLs made here once, not reversed four times a row in the template (a page has 50 rows).
    case_base = reverse("screening:case", args=[uuid.UUID(int=0)]).replace(str(uuid.UUID(int=0)), "{}")
    back_query = f"?{urlencode({'back': back})}" if back else ""
    return [
        {
            "case": case,
            "url": case_base.format(case.uuid) + back_query,
            "assign_url": case_base.format(case.uuid) + "assign/",
            "assignee": names.get(case.assignee_uuid) if case.assignee_uuid else None,
            "mine": case.assignee_uuid is not None and case.assignee_uuid == member.app_membership_uuid,
            "selected": str(case.uuid) in selected,
            "proposal": proposal_badge_title(case, member, on=four_eyes),
            "escalation": escalation_badge_title(case, member, on=four_eyes),
            "escalation_label": escalated_words(four_eyes),
            "proposal_label": PROPOSAL_WORDS,
            **_raised(case, today),
            **_lines(case),
            "companies": [(company, filters.query(company=company.uuid)) for company in case.related_companies],
        }
        for case in cases
    ]


KIND_LABELS = {"company": "Company", "customer_person": "Customer", "person": "Person"}


def _lines(case: Case) -> dict:
    """A row's small print, made once here (the template engine is the page's largest cost): a customer
    person's customer reference ("Customer K-10231 · US"), both sides' birth dates and nationalities, the list, the programme and the name the hit was on, so an officer
    judges (and closes) most hits from the queue without opening each case."""
    subject, entry, explanation = case.subject, case.list_entry, case.explanation
    born = f" · born {no.day(subject.birth_date)}" if subject.birth_date else ""
    nationalities = f" · {', '.join(subject.nationalities)}" if subject.nationalities else ""
    programmes = f" · {', '.join(entry.programmes)}" if entry.programmes else ""
    matched = explanation.matched_name
    reference = f" {subject.customer_reference}" if subject.customer_reference else ""  # a customer person's number
    return {
        "subject_line": KIND_LABELS.get(subject.kind, subject.kind) + reference + born + nationalities,
        "list_line": list_name(entry.category_key) + programmes,
        "list_title": f"{list_name(entry.category_key)}, entry {entry.source_id}" if entry.source_id else "",
        "matched_alias": matched if matched and matched != entry.primary_name else "",
        "weak_alias": explanation.matched_name_quality == "weak",
        "listed_facts": _listed_facts(case),
        "score": no.decimal(case.score, 2),
    }


LISTED_DATES_SHOWN = 3  # a list entry may give many possible birth dates; the case page has them all


def _listed_facts(case: Case) -> str:
    """The list entry's birth dates and nationalities, each followed by whether it agrees with the screened
    person's (the engine's adjustment, as the case page shows it); "" for a company's case (an entry of a
    company has neither)."""
    if case.subject.kind == "company":
        return ""
    entry, explanation = case.list_entry, case.explanation
    dates = _listed_dates(entry.birth_dates)
    if dates:
        more = f" +{len(dates) - LISTED_DATES_SHOWN} more" if len(dates) > LISTED_DATES_SHOWN else ""
        born = format_html("born {}{}{}", ", ".join(dates[:LISTED_DATES_SHOWN]), more,
                           _verdict(explanation.birth_date_adjustment, "birth date"))
    else:
        born = mark_safe('<span class="text-secondary">no birth date listed</span>')  # a constant
    parts = [born]
    if entry.nationalities:
        parts.append(format_html("{}{}", ", ".join(entry.nationalities), _verdict(explanation.nationality_adjustment, "nationality")))
    return format_html_join(" · ", "{}", ((part,) for part in parts))


VERDICT_STYLES = {  # verdict: (class, title)
    "agrees": ("text-success-emphasis", "Agrees with the screened {}: raised the score by {}"),
    "differs": ("text-danger-emphasis", "Differs from the screened {}: lowered the score by {}"),
}


def _verdict(adjustment: float | None, what: str) -> str:
    verdict = adjustment_verdict(adjustment)
    if not verdict:  # none, or no effect on the score
        return ""
    style, title = VERDICT_STYLES[verdict]
    return format_html(' <span class="{} fw-semibold" title="{}">{}</span>',
                       style, title.format(what, no.decimal(abs(adjustment), 2)), verdict)


def _raised(case: Case, today: date) -> dict:
    if case.created_at is None:
        return {"raised_day": "–", "raised_at": "", "age": ""}
    days = (today - timezone.localdate(case.created_at)).days
    age = "today" if days <= 0 else "1 day ago" if days == 1 else f"{no.amount(days)} days ago"
    return {"raised_day": no.day(case.created_at), "raised_at": no.moment(case.created_at), "age": age}


def _assignee_names(member: Member, cases) -> dict:
    return member_names(member, (case.assignee_uuid for case in cases))


def _company_name(company_uuid, cases) -> str | None:
    if company_uuid is None:
        return None
    for case in cases:
        for company in case.related_companies:
            if company.uuid == company_uuid:
                return company.name
    return "the chosen company"


@member_required()
def case_detail(request, case_uuid: uuid.UUID):
    if request.method == "POST":
        # The review form posts to the case's own address: after a refusal the browser is on the case
        # page with the form and its problem, and a reload or a bookmark opens the case.
        return case_review(request, case_uuid)
    return _case_page(request, case_uuid)


def _case_page(request, case_uuid, *, form: dict | None = None, status: int = 200):
    client = client_for_member(request.member)
    config, error = current_config_or_message(client)
    if config is None:
        return render(request, "screening/case.html", {"service_error": error, "case": None}, status=503)
    try:
        case = client.cases.get(config.uuid, case_uuid)
        others = client.cases.of_entity(config.uuid, case.subject.uuid, limit=20)
        same_listed = client.cases.of_listed_entity(config.uuid, case.uuid, limit=20)
        monitorings = client.screening.monitorings(config.uuid, entity_uuid=case.subject.uuid).rows
    except ServiceNotFound:
        raise Http404("No such screening case.") from None
    except ServiceError as exc:
        return render(request, "screening/case.html", {"service_error": service_error_text(exc), "case": None}, status=503)
    explanation = case.explanation
    context = {
        "case": case,
        "others": [c for c in others.cases if c.uuid != case.uuid],
        "others_count": max(others.count - 1, 0),
        # Who else the organisation screens is a possible hit on the same listed person or company.
        "same_listed": [c for c in same_listed.cases if c.uuid != case.uuid],
        "same_listed_count": max(same_listed.count - 1, 0),
        "monitored_for": _monitored_for(monitorings),
        "query_parts": name_parts(explanation.query_name or case.subject.name, explanation, side="query"),
        "listed_parts": name_parts(explanation.matched_name or case.list_entry.primary_name, explanation, side="listed"),
        "other_names": [n for n in case.list_entry.names if n[0] != (explanation.matched_name or case.list_entry.primary_name)],
        "birth_dates": _listed_dates(case.list_entry.birth_dates),
        "mine": case.assignee_uuid is not None and case.assignee_uuid == request.member.app_membership_uuid,
        "assignee": _assignee_names(request.member, [case]).get(case.assignee_uuid),
        "colleagues": [c for c in colleagues_for(request.member) if c.app_membership_uuid != case.assignee_uuid],
        "can_review": request.member.role in REVIEWERS,
        "review_statuses": REVIEW_STATUSES,
        "match_decisions": MATCH_DECISIONS,
        "decision_rule": DECISION_RULE,
        "review_url": _case_url(case.uuid, queue_back_url(request)),
        "form": form or _form_from(case),
        "four_eyes": four_eyes_for(case, on=config.four_eyes_review, member=request.member),
        # An escalated case reads as the queue reads it: "In review" with "Escalated · needs 2nd officer".
        "escalation": escalation_badge_title(case, request.member, on=config.four_eyes_review),
        "escalation_label": escalated_words(config.four_eyes_review),
        "four_eyes_rule": RULE_TEXT,
        "too_few_reviewers": too_few_reviewers(request.member, on=config.four_eyes_review),
        "back": queue_back_url(request),
    }
    return render(request, "screening/case.html", context, status=status)


def _monitored_for(monitorings) -> list[dict]:
    """Each company the screened person or company is monitored for (monitorings not removed), with
    how it is tied to it and why: the officer judges a hit knowing whose customer it concerns."""
    return [
        {"monitoring": m, "type_words": TYPE_WORDS.get(m.type_key, m.type_key)}
        for m in monitorings
        if m.status_key != "removed"
    ]


def _listed_dates(values) -> list[str]:
    return [no.day(value) for value in values]  # a year or a month stays as listed


def _form_from(case: Case) -> dict:
    """The form starts from the latest review, so a reviewer changes what moved."""
    latest = case.latest_review
    return {
        "status_key": "",
        "decision_key": latest.decision_key if latest else "",
        "pep_confirmed": bool(latest and latest.pep_confirmed),
        "comment": "",
    }


def queue_back_url(request) -> str:
    """The queue as the reviewer left it (its filters), when they came from it."""
    back = request.GET.get("back") or request.POST.get("back") or ""
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}) and back.startswith(reverse("screening:queue")):
        return back
    return reverse("screening:queue")


COMMENT_NEEDED = ("escalated", "false_positive", "confirmed_hit")  # as the queue's batch close needs one


@member_required(*REVIEWERS)
def case_review(request, case_uuid: uuid.UUID):
    if request.method != "POST":  # the form's former address, reloaded or bookmarked: the case
        return redirect(_case_url(case_uuid, queue_back_url(request)))
    form = {
        "status_key": request.POST.get("status", ""),
        "decision_key": request.POST.get("decision", ""),
        "pep_confirmed": request.POST.get("pep_confirmed") == "on",
        "comment": request.POST.get("comment", "").strip(),
    }
    problems = []
    if form["status_key"] not in {key for key, _, _ in REVIEW_STATUSES}:
        problems.append("Choose what the review says: in review, escalated, false positive or confirmed hit.")
    if form["decision_key"] not in {key for key, _ in MATCH_DECISIONS}:
        problems.append("Choose the match decision: match, possible match or no match.")
    if form["status_key"] in COMMENT_NEEDED and not form["comment"]:
        problems.append("Say why in the comment: escalating or closing a case needs a reason the record keeps.")
    if len(form["comment"]) > COMMENT_MAX:
        problems.append(f"The comment is too long: at most {COMMENT_MAX} characters.")
    if request.member.app_membership_uuid is None:
        problems.append("Your login is not linked to a person in the service, so a review cannot name you. Ask an admin.")
    if problems:
        return _case_page(request, case_uuid, form={**form, "problems": problems}, status=400)
    client = client_for_member(request.member)
    config, error = current_config_or_message(client)
    if config is None:
        return _case_page(request, case_uuid, form={**form, "problems": [error]}, status=503)
    try:
        case = client.cases.review(
            config.uuid, case_uuid, status_key=form["status_key"],
            decision_key=form["decision_key"], pep_confirmed=form["pep_confirmed"], comment=form["comment"],
        )
    except ServiceNotFound:
        raise Http404("No such screening case.") from None
    except ServiceError as exc:
        # A refusal with a reason (a four-eyes rule, a bad field) is shown at the form, the text kept; a
        # refused match decision at that field, in words, not the API's field name.
        status = 503 if exc.status >= 500 or exc.status == 0 else 409 if exc.status == 409 else 400
        if review_refusal_field(exc) == "decision" and exc.code == "decision_contradicts_status":
            form = {**form, "problems": ["The review was not saved."], "decision_problem": DECISION_REFUSED}
        else:
            form = {**form, "problems": [f"The review was not saved. {service_error_text(exc)}"]}
        return _case_page(request, case_uuid, form=form, status=status)
    label = dict((key, label) for key, label, _ in REVIEW_STATUSES)[form["status_key"]]
    closed = "The case is closed." if case.status_key == "complete" else "The case stays open."
    not_assigned = ""
    if form["status_key"] == "in_review":
        closed, not_assigned = _take_up(request, client, config, case)
    freshness.forget(organisation_uuid=request.member.organisation.app_customer_uuid)
    if form["status_key"] == "confirmed_hit" and case.hit_proposal is not None:
        closed = "Four-eyes review: the hit is proposed, and the case stays open until a second officer confirms it."
    messages.success(request, f"Review saved: {label.lower()}. {closed}")
    if not_assigned:
        messages.warning(request, not_assigned)
    return redirect(_case_url(case_uuid, queue_back_url(request)))


def _take_up(request, client, config, case: Case) -> tuple[str, str]:
    """"In review" says "I am looking at it": the case is assigned to the reviewer as well (the API's assignee,
    the queue's "Assigned to"), taken from a colleague it was assigned to (the message names them). A second
    call, after the review: when it fails the review stands, and a warning says the case was not assigned.
    Answers the success message's sentence and that warning ("" when assigned)."""
    me = request.member.app_membership_uuid
    if case.assignee_uuid == me:
        return "The case stays open, assigned to you.", ""
    before = _assignee_names(request.member, [case]).get(case.assignee_uuid) if case.assignee_uuid else None
    try:
        client.cases.assign(config.uuid, case.uuid, me)
    except ServiceError as exc:
        return "The case stays open.", f"The case could not be assigned to you. {service_error_text(exc)}"
    return f"The case stays open, assigned to you{f' (it was assigned to {before})' if before else ''}.", ""


def _case_url(case_uuid, back: str) -> str:
    url = reverse("screening:case", args=[case_uuid])
    return f"{url}?{urlencode({'back': back})}" if back != reverse("screening:queue") else url


@require_POST
@member_required(*REVIEWERS)
def case_assign(request, case_uuid: uuid.UUID):
    """`to`: "me", "nobody" or a colleague (a member's uuid, one of `colleagues_for`). From a queue row
    with htmx, answers the row; else back where it came from."""
    to = request.POST.get("to")
    me = request.member.app_membership_uuid
    back = queue_back_url(request)
    target = back if request.POST.get("from") == "queue" else _case_url(case_uuid, back)
    if to == "me":
        if me is None:
            text = "Your login is not linked to a person in the service, so no case can be assigned to you. Ask an admin."
            return _assign_answer(request, None, case_uuid, target, error=text)
        person, success = me, "Assigned to you."
    elif to == "nobody":
        person, success = None, "The case is assigned to nobody now."
    else:
        colleague = next((c for c in colleagues_for(request.member) if str(c.uuid) == to), None)
        if colleague is None:
            text = "Choose yourself, nobody or a colleague who reviews cases (an active officer or admin)."
            return _assign_answer(request, None, case_uuid, target, error=text)
        person, success = colleague.app_membership_uuid, f"Assigned to {member_label(colleague)}."
    client = client_for_member(request.member)
    config, error = current_config_or_message(client)
    if config is None:
        return _assign_answer(request, None, case_uuid, target, error=error)
    try:
        case = client.cases.assign(config.uuid, case_uuid, person)
    except ServiceNotFound:
        raise Http404("No such screening case.") from None
    except ServiceError as exc:
        return _assign_answer(request, None, case_uuid, target, error=f"The case was not assigned. {service_error_text(exc)}")
    freshness.forget(organisation_uuid=request.member.organisation.app_customer_uuid)
    return _assign_answer(request, case, case_uuid, target, success=success, four_eyes=config.four_eyes_review)


def colleagues_for(member: Member) -> list[Member]:
    """Whom the member can hand a case to: the organisation's other officers and admins who can sign
    in and are linked to a person of the service (a case is assigned to that person)."""
    return list(reviewers_of(member.organisation).exclude(pk=member.pk).select_related("user").order_by("user__email", "user__username"))


def _assign_answer(request, case, case_uuid, target: str, *, success: str = "", error: str = "", four_eyes: bool = False):
    if request.htmx and case is not None:
        back = queue_back_url(request)
        filters = QueueFilters.from_query(QueryDict(urlsplit(back).query))
        row = _rows(request.member, (case,), filters=filters, back=back, four_eyes=four_eyes)[0]
        context = {"row": row, "flash": success, "back": back,
                   "can_review": True}
        return render(request, "screening/queue.html#queue-row", context)
    if request.htmx:
        return HttpResponse(f'<div class="alert alert-danger py-1 small mb-0" role="alert">{escape(error)}</div>', status=200)
    (messages.success if success else messages.error)(request, success or error)
    return redirect(target)


@member_required()
def case_report(request, case_uuid: uuid.UUID):
    """The case report PDF as a download: `screening-case-<name>-<date>.pdf`."""
    client = client_for_member(request.member)
    config, error = current_config_or_message(client)
    if config is None:
        messages.error(request, f"The case report could not be made. {error}")
        return redirect("screening:case", case_uuid)
    try:
        case = client.cases.get(config.uuid, case_uuid)
        pdf = client.cases.report_pdf(config.uuid, case_uuid)
    except ServiceNotFound:
        raise Http404("No such screening case.") from None
    except ServiceError as exc:
        messages.error(request, f"The case report could not be made. {service_error_text(exc)}")
        return redirect("screening:case", case_uuid)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{_report_filename(case)}"'
    return response


def _report_filename(case: Case) -> str:
    slug = slugify(case.subject.name)[:60].strip("-") or "case"
    return f"screening-case-{slug}-{timezone.localdate():%Y-%m-%d}.pdf"
