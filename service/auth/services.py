"""Writes for organisations, memberships and API users."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from service.audit.services import Actor, audit_record
from service.auth.credentials import client_id_generate, secret_generate, secret_hash
from service.auth.models import ROLE_KEYS, ApiUser, AppCustomer, AppMembership, AppRole
from service.errors import ApiError, bad_field


@dataclass(frozen=True)
class IssuedCredentials:
    """Plain credentials, returned once at creation and never stored in plain."""

    api_user: ApiUser
    basic_auth_id: str
    basic_auth_secret: str
    token_auth_id: str
    token_auth_secret: str


def app_customer_create(*, name: str) -> AppCustomer:
    return AppCustomer.objects.create(name=name)


def app_membership_create(*, app_customer: AppCustomer, email: str, full_name: str = "") -> AppMembership:
    membership, _ = AppMembership.objects.get_or_create(
        app_customer=app_customer, email=email.lower(), defaults={"full_name": full_name}
    )
    return membership


def roles_ensure() -> None:
    """Create the spec's role keys (idempotent)."""
    for key, description in ROLE_KEYS:
        AppRole.objects.get_or_create(key=key, defaults={"description": description})


def _roles_for(role_keys: Iterable[str]) -> list[AppRole]:
    roles_ensure()
    wanted = sorted(set(role_keys))
    roles = list(AppRole.objects.filter(key__in=wanted))
    unknown = sorted(set(wanted) - {role.key for role in roles})
    if unknown:
        raise bad_field(["role_keys"], f"unknown role key(s): {', '.join(unknown)}")
    return roles


@transaction.atomic
def api_user_create(
    *, app_customer: AppCustomer, name: str, role_keys: Iterable[str], actor: Actor | None = None
) -> IssuedCredentials:
    roles = _roles_for(role_keys)
    basic_id, basic_secret = client_id_generate("basic"), secret_generate()
    token_id, token_secret = client_id_generate("token"), secret_generate()
    api_user = ApiUser.objects.create(
        app_customer=app_customer,
        name=name,
        basic_auth_id=basic_id,
        basic_auth_secret_hash=secret_hash(basic_secret),
        token_auth_id=token_id,
        token_auth_secret_hash=secret_hash(token_secret),
    )
    api_user.roles.set(roles)
    _audit_api_user(api_user, actor, "api_user.create", None, _api_user_state(api_user))
    return IssuedCredentials(api_user, basic_id, basic_secret, token_id, token_secret)


@transaction.atomic
def api_user_rotate_secrets(
    *, api_user: ApiUser, role_keys: Iterable[str], actor: Actor | None = None, reactivate: bool = False
) -> IssuedCredentials:
    """New secrets (the old ones stop working at once) and the given roles. A deactivated API user
    is a 409, unless `reactivate` (the create_api_user command's --rotate) issues it new secrets.

    "At once": the secrets' hashes and `credentials_version` (carried in tokens) change in this
    transaction, and saving clears this process's memory of callers (principal_cache); other
    processes forget within VAKT_AUTH_CACHE_SECONDS. The row is locked and read again first, so a
    deactivation committed since the caller read it is not undone, and concurrent rotations each
    take a new `credentials_version` (tokens of the first do not outlive the second)."""
    roles = _roles_for(role_keys)
    api_user = ApiUser.objects.select_for_update().get(pk=api_user.pk)
    if not api_user.is_active and not reactivate:
        raise ApiError("This API user is deactivated; create a new one instead.", code="api_user_deactivated", status=409)
    before = _api_user_state(api_user)
    basic_secret, token_secret = secret_generate(), secret_generate()
    api_user.basic_auth_secret_hash = secret_hash(basic_secret)
    api_user.token_auth_secret_hash = secret_hash(token_secret)
    api_user.is_active = True
    api_user.credentials_version += 1  # tokens issued with the old secrets stop working
    api_user.save(update_fields=["basic_auth_secret_hash", "token_auth_secret_hash", "is_active", "credentials_version"])
    api_user.roles.set(roles)
    after = {**_api_user_state(api_user), "credentials_version": api_user.credentials_version}
    _audit_api_user(api_user, actor, "api_user.secret_rotate", {**before, "credentials_version": api_user.credentials_version - 1}, after)
    return IssuedCredentials(api_user, api_user.basic_auth_id, basic_secret, api_user.token_auth_id, token_secret)


@transaction.atomic
def api_user_update(
    *, api_user: ApiUser, role_keys: Iterable[str] | None = None, active_flag: bool | None = None, actor: Actor | None = None
) -> ApiUser:
    """Replaces its roles (`role_keys`) and deactivates it (`active_flag` false): both or neither. Each
    part that changes something has its audit record (`api_user.roles_change`, `api_user.deactivate`).
    A deactivated API user's credentials stop working at once, and it stays deactivated (`active_flag`
    true is a 400). As in `api_user_rotate_secrets`, the row is locked and read again first, so a change
    committed since the caller read it is what the checks and the audit records see."""
    roles = _roles_for(role_keys) if role_keys is not None else None
    api_user = ApiUser.objects.select_for_update().get(pk=api_user.pk)
    if active_flag is True and not api_user.is_active:
        raise bad_field(["body", "active_flag"], "a deactivated API user stays deactivated; create a new one")
    if roles is not None:
        before = _api_user_state(api_user)
        api_user.roles.set(roles)
        if (after := _api_user_state(api_user)) != before:
            _audit_api_user(api_user, actor, "api_user.roles_change", before, after)
    if active_flag is False and api_user.is_active:
        before = _api_user_state(api_user)
        api_user.is_active = False
        api_user.save(update_fields=["is_active"])
        _audit_api_user(api_user, actor, "api_user.deactivate", before, _api_user_state(api_user))
    return api_user


def _api_user_state(api_user: ApiUser) -> dict:
    return {"role_keys": sorted(role.key for role in api_user.roles.all()), "active_flag": api_user.is_active}


def _audit_api_user(api_user: ApiUser, actor: Actor | None, action: str, before: dict | None, after: dict) -> None:
    audit_record(
        app_customer_uuid=api_user.app_customer_id,
        actor=actor,
        action=action,
        object_type="api_user",
        object_uuid=api_user.uuid,
        object_label=api_user.name,
        before=before,
        after=after,
    )


@transaction.atomic
def app_membership_invite(
    *, app_customer: AppCustomer, email: str, full_name: str, actor: Actor | None = None
) -> AppMembership:
    """A new member of the organisation. Inviting the email of a deactivated member makes them
    active again (same person, same history); an active member's email is a 400.

    Two invites of a new email at once both find no row to lock; the unique constraint decides:
    the second insert waits for the first to commit and fails, and is the same 400."""
    email = email.strip().lower()
    already = bad_field(["body", "email"], f"{email} is already a member of the organisation", code="already_member")
    existing = AppMembership.objects.select_for_update().filter(app_customer=app_customer, email=email).first()
    if existing is not None and existing.active_flag:
        raise already
    before = None
    if existing is not None:
        before = _membership_state(existing)
        existing.active_flag, existing.full_name = True, full_name or existing.full_name
        existing.save(update_fields=["active_flag", "full_name"])
        membership = existing
    else:
        try:
            with transaction.atomic():  # a savepoint: the failed insert may be caught
                membership = AppMembership.objects.create(app_customer=app_customer, email=email, full_name=full_name)
        except IntegrityError:
            raise already from None
    _audit_membership(membership, actor, "app_membership.invite", before)
    return membership


@transaction.atomic
def app_membership_active_set(*, membership: AppMembership, active_flag: bool, actor: Actor | None = None) -> AppMembership:
    """Deactivates (or reactivates) a member; the same value again changes nothing."""
    if membership.active_flag == active_flag:
        return membership
    if actor is not None and actor.app_membership is not None and actor.app_membership.pk == membership.pk and not active_flag:
        raise ApiError(
            "You cannot deactivate yourself: ask another admin of the organisation.", code="cannot_deactivate_self", status=409
        )
    before = _membership_state(membership)
    membership.active_flag = active_flag
    membership.save(update_fields=["active_flag"])
    action = "app_membership.deactivate" if not active_flag else "app_membership.reactivate"
    _audit_membership(membership, actor, action, before)
    return membership


@transaction.atomic
def app_membership_password_reset_record(*, membership: AppMembership, actor: Actor | None = None) -> AppMembership:
    """Records that an admin gave an active member a new one-time password. The service keeps no
    password (the dashboard holds its logins): this is the audit log's record of it. A deactivated
    member is a 400 (reactivate them first)."""
    membership = AppMembership.objects.select_for_update().get(pk=membership.pk)
    if not membership.active_flag:
        raise bad_field(["path", "app_membership_uuid"], "the member is deactivated: reactivate them first", code="membership_deactivated")
    audit_record(
        app_customer_uuid=membership.app_customer_id, actor=actor, action="app_membership.password_reset",
        object_type="app_membership", object_uuid=membership.uuid, object_label=membership.email,
        before=None, after={"one_time_password_issued_flag": True},
    )
    return membership


def _membership_state(membership: AppMembership) -> dict:
    return {"email": membership.email, "full_name": membership.full_name, "active_flag": membership.active_flag}


def _audit_membership(membership: AppMembership, actor: Actor | None, action: str, before: dict | None) -> None:
    audit_record(
        app_customer_uuid=membership.app_customer_id,
        actor=actor,
        action=action,
        object_type="app_membership",
        object_uuid=membership.uuid,
        object_label=membership.email,
        before=before,
        after=_membership_state(membership),
    )
