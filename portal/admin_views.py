"""Organisation admin (admins only): invite and deactivate dashboard members, set their dashboard
role, manage the organisation's API users, and read the audit log.

Every change goes through `client.organisation_admin`, whose client acts for the admin
(`client_for_member`): each write carries their `app_membership_uuid`, so the service's audit log names them. Secrets are shown once, on the
answer to the POST that made them (never stored, never in a redirect), with `no-store`.
"""

from __future__ import annotations

import secrets
import uuid

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from portal.access import client_for_member, member_required
from portal.audit_export import audit_changes, audit_csv_response
from portal.admin_forms import ApiUserForm, AuditFilterForm, InviteForm, RoleForm
from portal.feedback import service_error_text
from portal.models import Member
from portal.roles import API_ROLE_DESCRIPTIONS
from portal.service import ServiceBadRequest, ServiceError
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
        "create", "update", "national_id_add", "national_id_remove", "location_add", "location_remove"))),
    "watchlists": ("Watchlists", "watchlist.create,watchlist.rename,watchlist.delete,watchlist.companies_add,watchlist.companies_remove"),
    "api_users": ("API users", "api_user.create,api_user.roles_change,api_user.secret_rotate,api_user.deactivate"),
    "members": ("Members", "app_membership.invite,app_membership.deactivate,app_membership.reactivate"),
}


def _admin_client(request):
    return client_for_member(request.member).organisation_admin


def _form_errors_from(form, exc: ServiceBadRequest, fields: dict[str, str]) -> None:
    """The service's field errors on the form's fields (`fields`: service field -> form field)."""
    placed = False
    for error in exc.errors or []:
        loc = error.get("loc") or []
        field = fields.get(str(loc[-1])) if loc else None
        if field:
            form.add_error(field, error.get("msg") or "invalid")
            placed = True
    if not placed:
        form.add_error(None, service_error_text(exc))


@member_required(ADMIN)
def member_invite(request):
    """A dashboard login, its Member, and the person in the service (one-time password shown once)."""
    form = InviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            person = _admin_client(request).member_invite(email=data["email"], full_name=data["full_name"])
        except ServiceBadRequest as exc:
            _form_errors_from(form, exc, {"email": "email", "full_name": "full_name"})
        except ServiceError as exc:
            form.add_error(None, f"Nobody was invited. {service_error_text(exc)}")
        else:
            password = secrets.token_urlsafe(12)
            first, _, last = data["full_name"].partition(" ")
            with transaction.atomic():
                user = get_user_model().objects.create_user(
                    data["email"], email=data["email"], password=password, first_name=first, last_name=last
                )
                invited = Member.objects.create(
                    user=user, organisation=request.member.organisation, role=data["role"], app_membership_uuid=person.uuid
                )
            response = render(request, "portal/member_invited.html", {"invited": invited, "password": password})
            response["Cache-Control"] = "no-store"
            return response
    return render(request, "portal/member_invite.html", {"form": form}, status=400 if form.errors else 200)


def _member_of_organisation(request, member_uuid: uuid.UUID) -> Member:
    return get_object_or_404(Member.objects.select_related("user"), uuid=member_uuid, organisation=request.member.organisation)


@require_POST
@member_required(ADMIN)
def member_role(request, member_uuid: uuid.UUID):
    target = _member_of_organisation(request, member_uuid)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a dashboard role: viewer, compliance officer or admin.")
    elif target == request.member:
        messages.error(request, "You cannot change your own role: ask another admin.")
    else:
        target.role = form.cleaned_data["role"]
        target.save(update_fields=["role"])
        messages.success(request, f"{target.user.get_username()} is now {target.get_role_display().lower()}.")
    return redirect("members")


@member_required(ADMIN)
def member_deactivate(request, member_uuid: uuid.UUID):
    target = _member_of_organisation(request, member_uuid)
    if target == request.member:
        messages.error(request, "You cannot deactivate yourself: ask another admin.")
        return redirect("members")
    if request.method != "POST":
        return render(request, "portal/admin_confirm.html", {"action": "member_deactivate", "target": target})
    if target.app_membership_uuid:
        try:
            _admin_client(request).member_set_active(
                target.app_membership_uuid, active=False
            )
        except ServiceError as exc:
            messages.error(request, f"{target.user.get_username()} was not deactivated. {service_error_text(exc)}")
            return redirect("members")
    target.user.is_active = False
    target.user.save(update_fields=["is_active"])
    messages.success(
        request,
        f"{target.user.get_username()} is deactivated: they can no longer sign in, review, decide or be assigned cases.",
    )
    return redirect("members")


# --- API users --------------------------------------------------------------------------------------


def _api_user_form(request, data=None) -> ApiUserForm:
    return ApiUserForm(data, organisation_keys=request.member.organisation.role_keys, descriptions=API_ROLE_DESCRIPTIONS)


def _secrets_page(request, credentials, headline: str):
    response = render(request, "portal/api_user_secrets.html", {"credentials": credentials, "headline": headline})
    response["Cache-Control"] = "no-store"
    return response


@member_required(ADMIN)
def api_users(request):
    """The organisation's API users and a form to create one (its secrets are shown once)."""
    form = _api_user_form(request, request.POST or None)
    client = _admin_client(request)
    if request.method == "POST" and form.is_valid():
        try:
            created = client.api_user_create(
                name=form.cleaned_data["name"],
                role_keys=form.cleaned_data["role_keys"],
            )
        except ServiceBadRequest as exc:
            _form_errors_from(form, exc, {"name": "name", "role_keys": "role_keys"})
        except ServiceError as exc:
            form.add_error(None, f"The API user was not created. {service_error_text(exc)}")
        else:
            return _secrets_page(request, created, f"API user “{created.api_user.name}” created")
    rows, error = [], None
    try:
        rows = client.api_users()
    except ServiceError as exc:
        error = service_error_text(exc)
    context = {
        "api_users": rows,
        "form": form,
        "service_error": error,
        "dashboard_client_id": request.member.organisation.api_client_id,
    }
    return render(request, "portal/api_users.html", context, status=400 if form.errors else 200)


def _api_user_of_organisation(request, api_user_uuid: uuid.UUID):
    for api_user in _admin_client(request).api_users():
        if api_user.uuid == api_user_uuid:
            return api_user
    raise Http404("No such API user in your organisation.")


def _refuse_dashboard_connection(request, api_user) -> bool:
    if api_user.token_auth_id == request.member.organisation.api_client_id:
        messages.error(
            request,
            "This is the dashboard's own connection to the service: changing it here would sign everyone out. "
            "Reconnect the dashboard with the dashboard_connect command instead.",
        )
        return True
    return False


@member_required(ADMIN)
def api_user_rotate(request, api_user_uuid: uuid.UUID):
    api_user = _api_user_of_organisation(request, api_user_uuid)
    if _refuse_dashboard_connection(request, api_user):
        return redirect("api-users")
    if request.method != "POST":
        return render(request, "portal/admin_confirm.html", {"action": "api_user_rotate", "api_user": api_user})
    try:
        rotated = _admin_client(request).api_user_rotate(api_user.uuid)
    except ServiceError as exc:
        messages.error(request, f"The secrets were not rotated. {service_error_text(exc)}")
        return redirect("api-users")
    return _secrets_page(request, rotated, f"New secrets for “{api_user.name}”")


@member_required(ADMIN)
def api_user_deactivate(request, api_user_uuid: uuid.UUID):
    api_user = _api_user_of_organisation(request, api_user_uuid)
    if _refuse_dashboard_connection(request, api_user):
        return redirect("api-users")
    if request.method != "POST":
        return render(request, "portal/admin_confirm.html", {"action": "api_user_deactivate", "api_user": api_user})
    try:
        _admin_client(request).api_user_deactivate(api_user.uuid)
    except ServiceError as exc:
        messages.error(request, f"“{api_user.name}” was not deactivated. {service_error_text(exc)}")
        return redirect("api-users")
    messages.success(request, f"“{api_user.name}” is deactivated: its secrets and tokens no longer work.")
    return redirect("api-users")


# --- audit log --------------------------------------------------------------------------------------


def _object_url(event) -> str | None:
    """The dashboard page of an audited object, where one exists."""
    if event.object_uuid is None or event.redacted_at:  # a redacted record's object is gone
        return None
    candidates = {
        "watchlist": ("watchlists:detail", [event.object_uuid]),
        "screening_case": ("screening:case", [event.object_uuid]),
        "screening_config": ("screening:setup", []),
        "screening_batch": ("screening:batch", [event.object_uuid]),
        "api_user": ("api-users", []),
        "app_membership": ("members", []),
    }
    if event.object_type not in candidates or event.action_key == "watchlist.delete":
        return None
    name, args = candidates[event.object_type]
    try:
        return reverse(name, args=args)
    except NoReverseMatch:  # that page does not exist (yet) in this dashboard
        return None


@never_cache
@member_required(ADMIN)
def audit(request):
    """Who did what, newest first, filtered by kind and days (kept in the URL)."""
    filters = _audit_filters(request)
    try:
        page_number = max(1, int(request.GET.get("page", "1")))
    except ValueError:
        page_number = 1
    page, error = None, None
    if filters["valid"]:
        try:
            page = _admin_client(request).audit_events(
                limit=AUDIT_PAGE_SIZE, offset=(page_number - 1) * AUDIT_PAGE_SIZE, **filters["service"]
            )
        except ServiceError as exc:
            error = service_error_text(exc)
    rows = [{"event": e, "url": _object_url(e), "changes": audit_changes(e)} for e in (page.events if page else ())]
    context = {
        "rows": rows,
        "page": page,
        "page_number": page_number,
        "kind": filters["kind"],
        "form": filters["form"],
        "query": filters["query"],
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
        return redirect(back)  # the page says what is wrong with the days
    parts = [slugify(request.member.organisation.name), filters["kind"]] + [
        day.isoformat() for day in (filters["service"]["created_from"], filters["service"]["created_to"]) if day
    ]
    filename = f"audit-log-{'-'.join(p for p in parts if p)}-{timezone.localdate().isoformat()}.csv"
    try:
        return audit_csv_response(admin_client=_admin_client(request), filename=filename, **filters["service"])
    except ServiceError as exc:
        messages.error(request, f"The audit log could not be downloaded: {service_error_text(exc)}")
        return redirect(back)


def _audit_filters(request) -> dict:
    """The audit filter from the URL: the form (for its errors), the kind, the service's filters and
    the query the page's links keep (pages, kinds, the download)."""
    form = AuditFilterForm(request.GET)
    valid = form.is_valid()
    data = form.cleaned_data if valid else {}
    kind = data.get("kind", "") if data.get("kind", "") in AUDIT_GROUPS else ""
    start, end = data.get("created_from"), data.get("created_to")
    query = {key: value for key, value in (("from", start), ("to", end)) if value}
    return {
        "form": form,
        "valid": valid,
        "kind": kind,
        "query": "&".join(f"created_{key}={no.day(day)}" for key, day in query.items()),
        "service": {"action_key": AUDIT_GROUPS[kind][1] if kind else "", "created_from": start, "created_to": end},
    }
