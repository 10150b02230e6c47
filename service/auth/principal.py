"""Who is calling: the API user, its organisation and the roles it may use now."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.http import HttpRequest

from service.errors import NotFound, RoleMissing

ROLE_HEADER = "Nk-Role-Keys"


@dataclass(frozen=True)
class Principal:
    api_user_uuid: uuid.UUID
    app_customer_uuid: uuid.UUID
    assigned_roles: frozenset[str]
    requested_roles: frozenset[str]

    @property
    def granted_roles(self) -> frozenset[str]:
        """Spec §5.3: a role counts only when it is both requested in the header and assigned."""
        return self.assigned_roles & self.requested_roles

    def has_role(self, role: str) -> bool:
        return role in self.granted_roles

    def own_app_customer(self, app_customer_uuid: uuid.UUID) -> uuid.UUID:
        """The organisation named in a path, when it is the caller's own; any other is 404 (no existence leak)."""
        if app_customer_uuid != self.app_customer_uuid:
            raise NotFound("No such app customer.")
        return app_customer_uuid

    def require(self, *roles: str) -> None:
        missing = [role for role in roles if role not in self.granted_roles]
        if missing:
            raise RoleMissing(missing)


def requested_roles_from(request: HttpRequest) -> frozenset[str]:
    raw = request.headers.get(ROLE_HEADER, "")
    return frozenset(part.strip() for part in raw.split(",") if part.strip())


def principal_of(request: HttpRequest) -> Principal:
    """The principal set by the API's auth classes (ninja puts it on request.auth)."""
    return request.auth  # type: ignore[attr-defined]


def require_roles(request: HttpRequest, *roles: str) -> Principal:
    principal = principal_of(request)
    principal.require(*roles)
    return principal
