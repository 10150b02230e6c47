"""Monitoring approvals: pending suggestions by company (decide one by one or in bulk),
active monitorings (remove with a reason) and customer persons (add and monitor).

Admins decide; officers read. The decision form works as a plain POST (redirect back to
the same view of the page) and, with htmx, swaps only the pending list.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from portal.access import client_for_member, member_required
from portal.feedback import service_error_text
from portal.service import ServiceError, ServiceNotFound
from screening import freshness
from screening.customer_person_import import NOTHING_IMPORTED, CustomerPersonImportForm, import_file, job_context
from screening.customer_persons_tab import customer_person_save, persons_tab
from screening.pages import (
    acted, can_read_screening, current_config_or_message, no_aml_text, page_number, refused, require_admin,
    sanction_list_selected,
)
from vakt_format.monitoring_reason import MONITORING_TYPE_WORDS

VIEWS = ("pending", "active", "persons", "holds")
HOLDS_PER_PAGE = 50
PENDING_FETCH = 1000  # the service's largest page: the pending list is read once and grouped here
COMPANIES_PER_PAGE = 15
ACTIVE_PER_PAGE = 50
DECISIONS = {"approve": True, "decline": False}  # a choice: anything else decides nothing
NOT_SET_UP = "Set up screening first: nobody is suggested or screened before it is."
TYPE_WORDS = MONITORING_TYPE_WORDS  # the case report PDF says them too
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
                context.update(persons_tab(request, client, config, form=None))
            elif view == "holds":
                context.update(_holds(request, client, config))
    except ServiceError as exc:
        context["service_error"] = service_error_text(exc)
        return render(request, "screening/approvals.html", context, status=503)
    return render(request, "screening/approvals.html", context)


def _holds(request, client, config) -> dict:
    """The Record holds tab: every legal hold of the config, newest first (one more than a page:
    whether a next page exists)."""
    number = page_number(request)
    holds = client.holds.page(config.uuid, limit=HOLDS_PER_PAGE + 1, offset=(number - 1) * HOLDS_PER_PAGE)
    return {"holds": holds[:HOLDS_PER_PAGE], "holds_page": number, "holds_more": len(holds) > HOLDS_PER_PAGE}


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
    acted(request, f"{name} is no longer screened. Reason kept: “{reason.rstrip('.')}”.")  # one stop, not two
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
        context = _persons_page(request, client, config, form=request.POST)
    except ServiceError as exc:
        refused(request, "The person was not added.", exc)
        return redirect(f"{reverse('screening:approvals')}?view=persons")
    form = context["person_form"]
    if not form.is_valid():
        return render(request, "screening/approvals.html", context)
    monitoring = customer_person_save(screening, config, context, form)
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


@require_POST
@member_required()
def customer_person_import(request):
    """Check (a dry run, `dry_run=1`) or import a file of customer persons. With htmx (*Check the file*) the
    answer is the result panel alone, so the file stays chosen in the form for the import; without, the tab
    again with the result under the form. After an import, the cached screening state is forgotten."""
    require_admin(request.member)
    form = CustomerPersonImportForm(request.POST, request.FILES)
    dry_run = request.POST.get("dry_run") == "1"
    client = client_for_member(request.member)
    panel = {"import_form": form}
    config, error = current_config_or_message(client)
    if config is None:
        panel["import_error"] = f"{NOTHING_IMPORTED} {error}"
    elif not form.is_valid():
        panel["import_problems"] = form.problems()
    else:
        panel.update(import_file(client.screening, config, form, dry_run=dry_run))
        if not dry_run and "import_result" in panel:
            freshness.forget(organisation_uuid=request.member.organisation.app_customer_uuid)
        _forget_after(request, panel.get("import_job"))
    if request.htmx:
        return render(request, "screening/approvals_persons_import.html#result", panel)
    if job := panel.get("import_job"):  # a page to reload while it runs, not a POST to send again
        return redirect(reverse("screening:customer-person-import-job", args=[job.uuid]) + "#person-import-result")
    if config is None:
        messages.error(request, panel["import_error"])
        return redirect(f"{reverse('screening:approvals')}?view=persons")
    try:  # read after the import: its persons are listed, its monitorings counted
        context = _persons_page(request, client, config, form=None)
    except ServiceError as exc:
        context = {**_admin_page(request, config), "service_error": service_error_text(exc)}
        return render(request, "screening/approvals.html", context, status=503)
    context.update(panel)
    return render(request, "screening/approvals.html", context)


@require_GET
@member_required()
def customer_person_import_job(request, job_uuid: uuid.UUID):
    """A large file's import job (customer_person_import sent it): with htmx its result panel, polled every 2 s
    while the job runs; until the job is done the poll is answered 204, so the panel stays as it is (and is not
    read out again). Without htmx the tab with the panel: where an import (a plain POST) lands, so a completed
    import reloads it, listing the persons imported; a check's panel is swapped alone, keeping the file chosen."""
    require_admin(request.member)
    client = client_for_member(request.member)
    config, _ = current_config_or_message(client)
    if config is None:
        raise Http404("Screening is not set up.")
    try:
        job = client.screening.import_job(config.uuid, job_uuid)
    except ServiceNotFound:
        raise Http404("No such import job.") from None
    except ServiceError as exc:
        if request.htmx:
            return HttpResponse(status=204)  # the poll tries again in 2 s
        return render(request, "screening/approvals.html", {**_admin_page(request, config), "service_error": service_error_text(exc)},
                      status=503)
    if request.htmx and not job.done:
        return HttpResponse(status=204)
    _forget_after(request, job)
    if request.htmx:
        response = render(request, "screening/approvals_persons_import.html#result", job_context(job))
        if job.status == "complete" and not job.dry_run:
            response["HX-Refresh"] = "true"  # this page, read again: the tab lists the persons imported
        return response
    try:
        context = _persons_page(request, client, config, form=None)
    except ServiceError as exc:
        context = {**_admin_page(request, config), "service_error": service_error_text(exc)}
        return render(request, "screening/approvals.html", context, status=503)
    return render(request, "screening/approvals.html", {**context, **job_context(job)})


def _forget_after(request, job) -> None:
    """A job that imported (not a check) has changed the screening state: no cached state is older."""
    if job is not None and job.status == "complete" and not job.dry_run:
        freshness.forget(organisation_uuid=request.member.organisation.app_customer_uuid)


def _admin_page(request, config) -> dict:
    """The approvals page's context on its Customer persons tab, as an admin's POST answers it."""
    return {"view": "persons", "can_decide": True, "config": config, "no_aml": None, "next_url": request.get_full_path()}


def _persons_page(request, client, config, *, form) -> dict:
    """That context with the pending counts and the tab (its add form as sent, or new)."""
    return {**_admin_page(request, config), **_pending(request, client, config), **persons_tab(request, client, config, form=form)}


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


def _active(request, client, config) -> dict:
    number = page_number(request)
    page = client.screening.monitorings(
        config.uuid, status_key="active", limit=ACTIVE_PER_PAGE, offset=(number - 1) * ACTIVE_PER_PAGE
    )
    rows = [{"monitoring": m, "type_words": TYPE_WORDS.get(m.type_key, m.type_key)} for m in page.rows]
    unscreened_company = any(m.type_key == "company" and not m.screened_against for m in page.rows)
    return {
        "active_rows": rows, "active_page": number, "active_more": page.has_more,
        "no_sanction_list": unscreened_company and not sanction_list_selected(client, config.uuid),
    }


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


