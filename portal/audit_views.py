"""The organisation's audit log (admins only): who did what, newest first, filtered in the URL by
kind, who acted (a member or an API user), what it is about (an object's uuid) and days; the CSV
download takes the same filters. Another organisation's records are never read: the service
answers only with the calling organisation's."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.cache import never_cache

from portal.access import client_for_member, member_required
from portal.admin_forms import AuditFilterForm
from portal.audit_export import audit_csv_response
from portal.audit_fields import audit_changes
from portal.feedback import service_error_text
from portal.models import Member
from portal.service import ServiceError
from vakt_format import norwegian as no

ADMIN = Member.Role.ADMIN
AUDIT_PAGE_SIZE = 50
# The audit filter's groups, by the service's action keys.
AUDIT_GROUPS = {
    "cases": ("Case reviews and assignments", "screening_case.review,screening_case.assign"),
    "monitoring": ("Monitoring decisions, removals and record holds",
                   "entity_monitoring.decide,entity_monitoring.remove,screening_records.delete,"
                   "records_hold.place,records_hold.release_request,records_hold.release,records_hold.keep"),
    "setup": ("Screening setup", ",".join(f"screening_config.{a}" for a in (
        "create", "update", "category_select", "category_unselect", "watchlist_attach", "watchlist_detach"))),
    "batches": ("Batch screening", "screening_batch.create,screening_batch.delete"),
    "persons": ("Customer persons", ",".join(f"customer_person.{a}" for a in (
        "create", "update", "national_id_add", "national_id_remove", "location_add", "location_remove", "merge"))),
    "watchlists": ("Watchlists", "watchlist.create,watchlist.rename,watchlist.delete,watchlist.companies_add,watchlist.companies_remove"),
    "api_users": ("API users", "api_user.create,api_user.roles_change,api_user.secret_rotate,api_user.deactivate"),
    "members": ("Members", "app_membership.invite,app_membership.deactivate,app_membership.reactivate,app_membership.password_reset"),
}

# The page where a member sees a record's subject (the service says which subject, while it exists).
SUBJECT_PAGES = {
    "watchlist": ("watchlists:detail", True),
    "screening_case": ("screening:case", True),
    "screening_config": ("screening:config", True),
    "screening_batch": ("screening:batch", True),
    "entity_monitoring": ("screening:monitoring", True),
    "customer_person": ("screening:customer-person", True),
    "company": ("companies:detail", True),
    "register_person": ("screening:approvals", False),  # the Record holds tab lists a register person's hold
    "api_user": ("api-users", False),
    "app_membership": ("members", False),
}
SUBJECT_QUERIES = {"register_person": "?view=holds"}


def _admin_client(request):
    return client_for_member(request.member).organisation_admin


def object_url(event) -> str | None:
    """The dashboard page of an audited object while it exists (none once deleted or redacted)."""
    if event.subject_uuid is None or event.subject_type not in SUBJECT_PAGES:
        return None
    name, by_uuid = SUBJECT_PAGES[event.subject_type]
    try:
        url = reverse(name, args=[event.subject_uuid] if by_uuid else [])
    except NoReverseMatch:  # that page does not exist in this dashboard
        return None
    return url + SUBJECT_QUERIES.get(event.subject_type, "")


@never_cache
@member_required(ADMIN)
def audit(request):
    """Who did what, newest first, filtered by kind, who, subject and days (kept in the URL)."""
    filters = _audit_filters(request)
    try:
        page_number = max(1, int(request.GET.get("page", "1")))
    except ValueError:
        page_number = 1
    page, error = None, filters["service_error"]
    if filters["valid"]:
        try:
            page = _admin_client(request).audit_events(
                limit=AUDIT_PAGE_SIZE, offset=(page_number - 1) * AUDIT_PAGE_SIZE, **filters["service"]
            )
        except ServiceError as exc:
            error = service_error_text(exc)
    events = page.events if page else ()
    rows = [{"event": e, "url": object_url(e), "changes": audit_changes(e)} for e in events]
    subject = filters["service"].get("object_uuid")
    context = {
        "rows": rows,
        "page": page,
        "page_number": page_number,
        "kind": filters["kind"],
        "form": filters["form"],
        "query": filters["query"],
        "kind_query": filters["kind_query"],
        "days_query": filters["days_query"],
        "actors": filters["actors"],
        "who": filters["who"],
        "subject": subject,
        "subject_label": next((e.object_label or e.action for e in events), ""),
        "groups": [(key, label) for key, (label, _) in AUDIT_GROUPS.items()],
        "service_error": error,
    }
    return render(request, "portal/audit.html", context, status=200 if filters["valid"] else 400)


@never_cache
@member_required(ADMIN)
def audit_export(request):
    """Every record the audit page's filter selects, as a CSV file."""
    filters = _audit_filters(request)
    back = f"{reverse('audit')}?{request.GET.urlencode()}" if request.GET else reverse("audit")
    if not filters["valid"]:
        return redirect(back)  # the page says what is wrong with the filter
    service = filters["service"]
    who = filters["who"]
    parts = [
        slugify(request.member.organisation.name),
        filters["kind"],
        f"by-{slugify(re.sub(r'[@.]', '-', who['name']))}" if who else "",
        f"about-{service['object_uuid']}" if service.get("object_uuid") else "",
    ] + [day.isoformat() for day in (service["created_from"], service["created_to"]) if day]
    filename = f"audit-log-{'-'.join(p for p in parts if p)}-{timezone.localdate().isoformat()}.csv"
    try:
        return audit_csv_response(admin_client=_admin_client(request), filename=filename, **service)
    except ServiceError as exc:
        messages.error(request, f"The audit log could not be downloaded: {service_error_text(exc)}")
        return redirect(back)


def _actors(request) -> tuple[list[dict], str | None]:
    """Who can have acted: the organisation's members (also deactivated ones) and API users."""
    client = _admin_client(request)
    try:
        members, api_users = client.members(), client.api_users()
    except ServiceError as exc:
        return [], service_error_text(exc)
    actors = [{"uuid": m.uuid, "name": m.email, "kind": "member", "active": m.active} for m in sorted(members, key=lambda m: m.email)]
    actors += [{"uuid": u.uuid, "name": u.name, "kind": "api_user", "active": u.active} for u in sorted(api_users, key=lambda u: u.name.lower())]
    return actors, None


def _audit_filters(request) -> dict:
    """The audit filter from the URL: the form (for its errors), the kind, who, the service's filters
    and the queries the page's links keep (pages, kinds, the download)."""
    actors, actors_error = _actors(request)
    form = AuditFilterForm(request.GET, actors=actors)
    valid = form.is_valid()
    data = form.cleaned_data if valid else {}
    kind = data.get("kind", "") if data.get("kind", "") in AUDIT_GROUPS else ""
    start, end = data.get("created_from"), data.get("created_to")
    who = data.get("who")
    days = {f"created_{key}": no.day(day) for key, day in (("from", start), ("to", end)) if day}
    others = {"who": who["uuid"] if who else None, "object_uuid": data.get("object_uuid")}
    others = {key: str(value) for key, value in others.items() if value}
    return {
        "form": form,
        "valid": valid,
        "kind": kind,
        "who": who,
        "actors": actors,
        "service_error": actors_error,
        "query": urlencode({**others, **days}),  # everything but the kind
        "kind_query": urlencode({**({"kind": kind} if kind else {}), **others}),  # everything but the days
        "days_query": urlencode(days),
        "service": {
            "action_key": AUDIT_GROUPS[kind][1] if kind else "",
            "actor_app_membership_uuid": who["uuid"] if who and who["kind"] == "member" else None,
            "actor_api_user_uuid": who["uuid"] if who and who["kind"] == "api_user" else None,
            "object_uuid": data.get("object_uuid"),
            "created_from": start,
            "created_to": end,
        },
    }
