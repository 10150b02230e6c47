"""Writes for organisations, memberships and API users."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from service.auth.credentials import client_id_generate, secret_generate, secret_hash
from service.auth.models import ROLE_KEYS, ApiUser, AppCustomer, AppMembership, AppRole
from service.errors import bad_field


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
def api_user_create(*, app_customer: AppCustomer, name: str, role_keys: Iterable[str]) -> IssuedCredentials:
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
    return IssuedCredentials(api_user, basic_id, basic_secret, token_id, token_secret)


@transaction.atomic
def api_user_rotate_secrets(*, api_user: ApiUser, role_keys: Iterable[str]) -> IssuedCredentials:
    """New secrets (the old ones stop working at once) and the given roles."""
    roles = _roles_for(role_keys)
    basic_secret, token_secret = secret_generate(), secret_generate()
    api_user.basic_auth_secret_hash = secret_hash(basic_secret)
    api_user.token_auth_secret_hash = secret_hash(token_secret)
    api_user.is_active = True
    api_user.credentials_version += 1  # tokens issued with the old secrets stop working
    api_user.save(update_fields=["basic_auth_secret_hash", "token_auth_secret_hash", "is_active", "credentials_version"])
    api_user.roles.set(roles)
    return IssuedCredentials(api_user, api_user.basic_auth_id, basic_secret, api_user.token_auth_id, token_secret)
