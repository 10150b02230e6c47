"""Organisation admin (extension): invite and deactivate members, manage API users.

Every endpoint needs the `app_admin` role (an extension role key: officers' dashboard role does
not send it). A member or API user of another organisation is 404. Changes are written through
`service.auth.services` and land in the audit log with the calling API user and the member
named in `app_membership_uuid`.
"""

from __future__ import annotations

import uuid

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.http import HttpRequest
from ninja import Status

from service.audit.services import actor_of
from service.auth import schemas as s
from service.auth import services
from service.auth.models import ApiUser, AppCustomer, AppMembership
from service.auth.principal import Principal, require_roles
from service.auth.selectors import acting_membership_get
from service.errors import ApiError, RoleMissing, bad_field, found
from service.openapi import conflict_answer
from service.pagination import composite_collection, page_from

from service.auth.api import router  # the membership collection's GET is there: one router per path

ADMIN_ROLE = "app_admin"
EXTENSION = {"x-vakt-extension": True}


def _admin(request: HttpRequest, app_customer_uuid: uuid.UUID) -> tuple[Principal, AppCustomer]:
    principal = require_roles(request, ADMIN_ROLE)
    return principal, AppCustomer.objects.get(uuid=principal.own_app_customer(app_customer_uuid))


def _actor(request: HttpRequest, customer: AppCustomer, membership_uuid: uuid.UUID | None):
    acting = acting_membership_get(
        app_customer_uuid=customer.uuid, membership_uuid=membership_uuid, loc=["body", "app_membership_uuid"]
    )
    return actor_of(request, acting)


def _api_user(customer: AppCustomer, api_user_uuid: uuid.UUID) -> ApiUser:
    return found(ApiUser.objects.filter(app_customer=customer, uuid=api_user_uuid).prefetch_related("roles"), "API user", api_user_uuid)


def _not_held(principal: Principal, role_keys: list[str]) -> list[str]:
    """The roles the calling admin's own API user does not hold: it hands none of them on."""
    return [key for key in role_keys if key not in principal.assigned_roles]


def _grantable(principal: Principal, role_keys: list[str]) -> list[str]:
    """An admin grants only roles its own API user holds: no API user gets more than the organisation has."""
    keys = sorted({key.strip() for key in role_keys if key.strip()})
    if beyond := _not_held(principal, keys):
        raise bad_field(["body", "role_keys"], f"the organisation does not have the role(s) {', '.join(beyond)}")
    return keys


def _rotatable(principal: Principal, api_user: ApiUser) -> list[str]:
    """New secrets work with every role of the API user: an admin obtains them only for an API user
    whose roles its own API user holds, as with granting (403 naming the others)."""
    keys = [role.key for role in api_user.roles.all()]
    if beyond := _not_held(principal, keys):
        raise RoleMissing(beyond)
    return keys


@router.post(
    "/app-customer/{app_customer_uuid}/app-membership",
    response={201: s.AppMembershipOut},
    summary="Extension: invite a member",
    description="A person who can review, decide and be assigned. An active member's email again is a 400; "
    "a deactivated member's email makes them active again.",
    openapi_extra=EXTENSION,
    tags=["Extensions"],
)
def membership_invite(request: HttpRequest, app_customer_uuid: uuid.UUID, payload: s.AppMembershipIn):
    _, customer = _admin(request, app_customer_uuid)
    email = payload.email.strip()
    try:
        validate_email(email)
    except ValidationError:
        raise bad_field(["body", "email"], "must be an email address") from None
    actor = _actor(request, customer, payload.app_membership_uuid)
    membership = services.app_membership_invite(
        app_customer=customer, email=email, full_name=payload.full_name.strip(), actor=actor
    )
    return Status(201, s.app_membership_out(membership))


@router.patch(
    "/app-customer/{app_customer_uuid}/app-membership/{app_membership_uuid}",
    response=s.AppMembershipOut,
    summary="Extension: deactivate or reactivate a member",
    description="`active_flag` false: the member can no longer review, decide, be assigned or act (400 "
    "`membership_deactivated`); their past work keeps their name. Deactivating yourself is a 409.",
    openapi_extra={**EXTENSION, **conflict_answer("Deactivating yourself (cannot_deactivate_self)")},
    tags=["Extensions"],
)
def membership_update(request: HttpRequest, app_customer_uuid: uuid.UUID, app_membership_uuid: uuid.UUID, payload: s.AppMembershipPatch):
    _, customer = _admin(request, app_customer_uuid)
    membership = found(AppMembership.objects.filter(app_customer=customer, uuid=app_membership_uuid), "app membership", app_membership_uuid)
    actor = _actor(request, customer, payload.app_membership_uuid)
    return s.app_membership_out(services.app_membership_active_set(membership=membership, active_flag=payload.active_flag, actor=actor))


@router.post(
    "/app-customer/{app_customer_uuid}/app-membership/{app_membership_uuid}/password-reset",
    response=s.AppMembershipOut,
    summary="Extension: record a member's new one-time password",
    description="The calling client (the dashboard, which holds the logins) gave the active member a new "
    "one-time password: the audit log records it (`app_membership.password_reset`, with the acting member). "
    "The service stores no password. A deactivated member is a 400 `membership_deactivated`.",
    openapi_extra=EXTENSION,
    tags=["Extensions"],
)
def membership_password_reset(request: HttpRequest, app_customer_uuid: uuid.UUID, app_membership_uuid: uuid.UUID, payload: s.ActingIn):
    _, customer = _admin(request, app_customer_uuid)
    membership = found(AppMembership.objects.filter(app_customer=customer, uuid=app_membership_uuid), "app membership", app_membership_uuid)
    actor = _actor(request, customer, payload.app_membership_uuid)
    return s.app_membership_out(services.app_membership_password_reset_record(membership=membership, actor=actor))


@router.get(
    "/app-customer/{app_customer_uuid}/api-user",
    response=list[s.ApiUserCollection],
    summary="Extension: the organisation's API users",
    description="By name, each with its role keys and whether it is active. Secrets are never shown again.",
    openapi_extra=EXTENSION,
    tags=["Extensions"],
)
def api_user_collection(request: HttpRequest, app_customer_uuid: uuid.UUID, limit: int | None = None, offset: int | None = None):
    _, customer = _admin(request, app_customer_uuid)
    users = ApiUser.objects.filter(app_customer=customer).prefetch_related("roles")
    return composite_collection(users, page_from(limit, offset), s.api_user_out, ordering=("name", "uuid"))


@router.post(
    "/app-customer/{app_customer_uuid}/api-user",
    response={201: s.ApiUserCredentialsOut},
    summary="Extension: create an API user",
    description="Answers its basic and token auth ids and secrets: the secrets are shown only in this answer. "
    "`role_keys`: only roles the calling API user holds (else 400 naming `role_keys`).",
    openapi_extra=EXTENSION,
    tags=["Extensions"],
)
def api_user_create(request: HttpRequest, app_customer_uuid: uuid.UUID, payload: s.ApiUserIn):
    principal, customer = _admin(request, app_customer_uuid)
    name = payload.name.strip()
    if not name:
        raise bad_field(["body", "name"], "must not be blank")
    role_keys = _grantable(principal, payload.role_keys)
    actor = _actor(request, customer, payload.app_membership_uuid)
    issued = services.api_user_create(app_customer=customer, name=name, role_keys=role_keys, actor=actor)
    return Status(201, s.credentials_out(issued))


@router.patch(
    "/app-customer/{app_customer_uuid}/api-user/{api_user_uuid}",
    response=s.ApiUserOut,
    summary="Extension: change an API user's roles, or deactivate it",
    description="`role_keys` replaces its roles (only roles the calling API user holds). `active_flag` false "
    "deactivates it: its secrets and tokens stop working at once. Both in one PATCH: both or neither. An API "
    "user cannot deactivate itself (409).",
    openapi_extra={**EXTENSION, **conflict_answer("An API user deactivating itself (cannot_deactivate_self)")},
    tags=["Extensions"],
)
def api_user_update(request: HttpRequest, app_customer_uuid: uuid.UUID, api_user_uuid: uuid.UUID, payload: s.ApiUserPatch):
    principal, customer = _admin(request, app_customer_uuid)
    api_user = _api_user(customer, api_user_uuid)
    role_keys = _grantable(principal, payload.role_keys) if payload.role_keys is not None else None
    if payload.active_flag is False and api_user.uuid == principal.api_user_uuid:
        raise ApiError("An API user cannot deactivate itself: use another admin API user.", code="cannot_deactivate_self", status=409)
    actor = _actor(request, customer, payload.app_membership_uuid)
    services.api_user_update(api_user=api_user, role_keys=role_keys, active_flag=payload.active_flag, actor=actor)
    return s.api_user_out(_api_user(customer, api_user_uuid))


@router.post(
    "/app-customer/{app_customer_uuid}/api-user/{api_user_uuid}/secret-rotation",
    response={201: s.ApiUserCredentialsOut},
    summary="Extension: rotate an API user's secrets",
    description="New basic and token auth secrets, shown only in this answer. The old secrets, and every token "
    "issued with them, stop working at once. A deactivated API user is a 409; an API user holding a role the "
    "calling API user does not hold is a 403 (its secrets would carry that role).",
    openapi_extra={**EXTENSION, **conflict_answer("The API user is deactivated (api_user_deactivated)")},
    tags=["Extensions"],
)
def api_user_rotate(request: HttpRequest, app_customer_uuid: uuid.UUID, api_user_uuid: uuid.UUID, payload: s.ActingIn):
    principal, customer = _admin(request, app_customer_uuid)
    api_user = _api_user(customer, api_user_uuid)
    keys = _rotatable(principal, api_user)
    actor = _actor(request, customer, payload.app_membership_uuid)
    return Status(201, s.credentials_out(services.api_user_rotate_secrets(api_user=api_user, role_keys=keys, actor=actor)))
