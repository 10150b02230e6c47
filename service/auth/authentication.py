"""Ninja auth classes: basic auth on every API, bearer tokens per API audience."""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import HttpBasicAuth, HttpBearer

from service.auth.principal import Principal, requested_roles_from
from service.auth.ratelimit import rate_limit_check
from service.auth.selectors import principal_for_api_user, principal_for_basic
from service.auth.throttle import auth_failure_record, auth_retry_after
from service.auth.tokens import audience_for, token_subject
from service.errors import RateLimited


def _admit(request: HttpRequest, principal: Principal | None) -> Principal | None:
    if principal is not None:
        rate_limit_check(request=request, api_user_key=str(principal.api_user_uuid))
    return principal


class BasicAuth(HttpBasicAuth):
    def authenticate(self, request: HttpRequest, username: str, password: str) -> Principal | None:
        address = request.META.get("REMOTE_ADDR", "")
        retry_after = auth_retry_after(client_id=username, address=address)
        if retry_after is not None:
            raise RateLimited(
                "Too many failed authentications for this client id or from this address; "
                f"retry after {retry_after} seconds.",
                code="too_many_failed_authentications",
                headers={"Retry-After": str(retry_after)},
            )
        principal = principal_for_basic(
            client_id=username, secret=password, requested_roles=requested_roles_from(request)
        )
        if principal is None:
            auth_failure_record(client_id=username, address=address)
        return _admit(request, principal)


class TokenAuth(HttpBearer):
    """Accepts only tokens issued for this API's audience (`<base>/<api_name>`)."""

    def __init__(self, api_name: str) -> None:
        super().__init__()
        self.api_name = api_name

    def authenticate(self, request: HttpRequest, token: str) -> Principal | None:
        subject = token_subject(token, audience=audience_for(request, self.api_name))
        if subject is None:
            return None
        return _admit(
            request,
            principal_for_api_user(
                api_user_uuid=subject.api_user_uuid,
                credentials_version=subject.credentials_version,
                requested_roles=requested_roles_from(request),
            )
        )


def api_auth(api_name: str) -> list:
    return [BasicAuth(), TokenAuth(api_name)]
