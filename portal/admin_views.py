"""Organisation admin (admins only): invite, deactivate and reactivate dashboard members, give one a
new one-time password, set their dashboard role, and manage the organisation's API users (the
audit log: portal.audit_views).

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
from django.views.decorators.http import require_POST

from portal.access import client_for_member, member_required
from portal.admin_forms import ApiUserForm, InviteForm, RoleForm
from portal.feedback import service_error_text
from portal.models import Member
from portal.roles import API_ROLE_DESCRIPTIONS
from portal.service import ServiceBadRequest, ServiceError

ADMIN = Member.Role.ADMIN
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
    form = InviteForm(request.POST or None, organisation=request.member.organisation)
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
    return _member_set_active(
        request, target, active=False, refused="was not deactivated",
        done="is deactivated: they can no longer sign in, review, decide or be assigned cases.",
    )


@member_required(ADMIN)
def member_reactivate(request, member_uuid: uuid.UUID):
    """A deactivated member signs in again, with their dashboard role and password as they were:
    the service first (where the audit log records it), then the login."""
    target = _member_of_organisation(request, member_uuid)
    if target.user.is_active:
        messages.info(request, f"{target.user.get_username()} is already active.")
        return redirect("members")
    if request.method != "POST":
        return render(request, "portal/admin_confirm.html", {"action": "member_reactivate", "target": target})
    return _member_set_active(
        request, target, active=True, refused="was not reactivated",
        done=f"is active again as {target.get_role_display().lower()}: they sign in with their password as it was. "
        "If they lost it, give them a new one-time password.",
    )


def _member_set_active(request, target: Member, *, active: bool, refused: str, done: str):
    """The service first (where the audit log records it), then the login; back to the members page."""
    name = target.user.get_username()
    if target.app_membership_uuid:
        try:
            _admin_client(request).member_set_active(target.app_membership_uuid, active=active)
        except ServiceError as exc:
            messages.error(request, f"{name} {refused}. {service_error_text(exc)}")
            return redirect("members")
    target.user.is_active = active
    target.user.save(update_fields=["is_active"])
    messages.success(request, f"{name} {done}")
    return redirect("members")


@member_required(ADMIN)
def member_password(request, member_uuid: uuid.UUID):
    """A new one-time password for an active member who lost theirs (shown once, `no-store`); their
    sessions elsewhere end (a login's sessions hold its password's hash). Recorded in the service's
    audit log first: without that record nothing changes."""
    target = _member_of_organisation(request, member_uuid)
    if target == request.member:
        messages.error(request, "Change your own password in your account, not here: ask another admin if you lost it.")
        return redirect("members")
    if not target.user.is_active:
        messages.error(request, f"{target.user.get_username()} is deactivated: reactivate them first.")
        return redirect("members")
    if request.method != "POST":
        return render(request, "portal/admin_confirm.html", {"action": "member_password", "target": target})
    if target.app_membership_uuid:
        try:
            _admin_client(request).member_password_reset(target.app_membership_uuid)
        except ServiceError as exc:
            messages.error(request, f"{target.user.get_username()}'s password was not changed. {service_error_text(exc)}")
            return redirect("members")
    password = secrets.token_urlsafe(12)
    target.user.set_password(password)
    target.user.save(update_fields=["password"])
    response = render(request, "portal/member_invited.html", {"invited": target, "password": password, "reset": True})
    response["Cache-Control"] = "no-store"
    return response


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
