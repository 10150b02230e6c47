"""Reads for API users: resolving credentials to a principal."""

from __future__ import annotations

import uuid

from service.auth.credentials import secret_hash, secret_matches
from service.auth.models import ApiUser, AppMembership
from service.auth.principal import Principal
from service.auth.principal_cache import KnownCaller, caller_remember, caller_remembered
from service.errors import bad_field


def _known(api_user: ApiUser | None) -> KnownCaller | None:
    if api_user is None:
        return None
    return KnownCaller(
        api_user_uuid=api_user.uuid,
        app_customer_uuid=api_user.app_customer_id,
        assigned_roles=frozenset(role.key for role in api_user.roles.all()),
    )


def _principal(caller: KnownCaller | None, requested_roles: frozenset[str]) -> Principal | None:
    if caller is None:
        return None
    return Principal(
        api_user_uuid=caller.api_user_uuid,
        app_customer_uuid=caller.app_customer_uuid,
        assigned_roles=caller.assigned_roles,
        requested_roles=requested_roles,
    )


def _plausible_id(client_id: str) -> bool:
    # A NUL byte cannot be in any id, and PostgreSQL refuses it in a query (a 500, not a 401).
    return bool(client_id) and "\x00" not in client_id


def api_user_by_basic_credentials(*, client_id: str, secret: str) -> ApiUser | None:
    if not _plausible_id(client_id):
        return None
    api_user = ApiUser.objects.filter(basic_auth_id=client_id, is_active=True).first()
    if api_user is None or not secret_matches(secret, api_user.basic_auth_secret_hash):
        return None
    return api_user


def api_user_by_token_credentials(*, client_id: str, secret: str) -> ApiUser | None:
    if not _plausible_id(client_id):
        return None
    api_user = ApiUser.objects.filter(token_auth_id=client_id, is_active=True).first()
    if api_user is None or not secret_matches(secret, api_user.token_auth_secret_hash):
        return None
    return api_user


def principal_for_basic(*, client_id: str, secret: str, requested_roles: frozenset[str]) -> Principal | None:
    key = ("basic", client_id, secret_hash(secret))
    found, caller = caller_remembered(key)
    if not found:
        caller = _known(api_user_by_basic_credentials(client_id=client_id, secret=secret))
        caller_remember(key, caller)
    return _principal(caller, requested_roles)


def principal_for_api_user(
    *, api_user_uuid: uuid.UUID, credentials_version: int, requested_roles: frozenset[str]
) -> Principal | None:
    """The principal of a token's subject, unless its secrets were rotated since the token was issued."""
    key = ("token", api_user_uuid, credentials_version)
    found, caller = caller_remembered(key)
    if not found:
        caller = _known(
            ApiUser.objects.filter(uuid=api_user_uuid, is_active=True, credentials_version=credentials_version)
            .prefetch_related("roles")
            .first()
        )
        caller_remember(key, caller)
    return _principal(caller, requested_roles)


def app_membership_get(*, app_customer_uuid: uuid.UUID, membership_uuid: uuid.UUID) -> AppMembership | None:
    return AppMembership.objects.filter(app_customer_id=app_customer_uuid, uuid=membership_uuid).first()


def membership_active_check(membership: AppMembership, loc: list) -> AppMembership:
    """A deactivated member can no longer review, decide, be assigned or act: a 400 naming `loc`."""
    if not membership.active_flag:
        raise bad_field(loc, f"{membership.email} is deactivated in this organisation", code="membership_deactivated")
    return membership


def acting_membership_get(
    *, app_customer_uuid: uuid.UUID, membership_uuid: uuid.UUID | None, loc: list
) -> AppMembership | None:
    """The active member named as the one acting (the audit actor), or None when none was named."""
    if membership_uuid is None:
        return None
    membership = app_membership_get(app_customer_uuid=app_customer_uuid, membership_uuid=membership_uuid)
    if membership is None:
        raise bad_field(loc, "not a member of the calling organisation")
    return membership_active_check(membership, loc)
