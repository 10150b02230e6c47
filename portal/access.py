"""Dashboard access: every page needs a login tied to an organisation; some need a role."""

from __future__ import annotations

from collections.abc import Sequence
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied

from portal.models import Member
from portal.roles import member_api_role_keys
from portal.service import DashboardClient, service_client_for


def member_required(*roles: str):
    """Login, a member record, and (if given) one of the dashboard roles."""

    def decorator(view):
        @login_required
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            member = getattr(request.user, "member", None)
            if member is None:
                raise PermissionDenied("Your login is not tied to an organisation.")
            if roles and member.role not in roles:
                raise PermissionDenied("Your role does not allow this page.")
            request.member = member
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def client_for_member(member: Member) -> DashboardClient:
    """A client acting for the member: the organisation's credentials, only the roles the member's role grants."""
    organisation = member.organisation
    client = service_client_for(
        client_id=organisation.api_client_id,
        client_secret=organisation.api_client_secret,
        role_keys=member_api_role_keys(member),
        app_customer_uuid=organisation.app_customer_uuid,
    )
    # Writes name the member (reviews, decisions, changes), so the service's audit log says who acted.
    client.acting_app_membership_uuid = str(member.app_membership_uuid) if member.app_membership_uuid else None
    return client


def client_for_organisation(organisation, *, role_keys: Sequence[str] = ()) -> DashboardClient:
    """A client for background work of the organisation (polling, links): reads only.

    No role keys unless the work names them (`role_keys`); of those, only the ones the
    organisation's API user holds are sent (screening.freshness asks for `aml`)."""
    held = set(organisation.role_keys)
    return service_client_for(
        client_id=organisation.api_client_id,
        client_secret=organisation.api_client_secret,
        role_keys=[key for key in role_keys if key in held],
        app_customer_uuid=organisation.app_customer_uuid,
    )
