"""The error shapes, shaped here and nowhere else.

The APIs:

    {"detail": "human sentence", "code": "machine_code", "errors": [{"loc": [...], "msg": "..."}],
     "request_id": "..."}

The token endpoint (`/oauth/`), as RFC 6749 §5.2 has it:

    {"error": "invalid_client", "error_description": "human sentence", "request_id": "..."}

Service code raises `ApiError` (or a subclass); the NinjaAPI handlers in
`service.api`, the middleware and the plain views turn it into a JSON response.
`request_id` is the one in the `X-Request-Id` header and in the log lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.http import JsonResponse

from service.request_id import current_request_id

OAUTH_PREFIX = "/oauth/"


class ApiError(Exception):
    status = 400
    code = "bad_request"

    def __init__(
        self,
        detail: str,
        *,
        code: str | None = None,
        status: int | None = None,
        errors: Iterable[dict] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = code
        if status:
            self.status = status
        self.errors = list(errors or [])
        self.headers = headers or {}


class BadRequest(ApiError):
    status = 400
    code = "bad_request"


class NotFound(ApiError):
    status = 404
    code = "not_found"


class RoleMissing(ApiError):
    status = 403
    code = "role_missing"

    def __init__(self, roles: Sequence[str], *, why: str = "") -> None:
        names = ", ".join(roles)
        super().__init__(
            f"{why}Missing role(s): {names}. Do you have access to the role, "
            "and have you added it to the Nk-Role-Keys header?",
            errors=[{"loc": ["header", "Nk-Role-Keys"], "msg": f"missing role: {r}"} for r in roles],
        )


class NotAuthenticated(ApiError):
    status = 401
    code = "not_authenticated"


class RateLimited(ApiError):
    status = 429
    code = "rate_limited"


def field_error(loc: Sequence[str | int], msg: str) -> dict:
    return {"loc": list(loc), "msg": msg}


def bad_field(loc: Sequence[str | int], msg: str, *, code: str = "invalid_parameter") -> BadRequest:
    """A 400 naming one field: `raise bad_field(["query", "limit"], "must be at most 1000")`."""
    name = str(loc[-1]) if loc else "request"
    return BadRequest(f"Invalid value for {name}: {msg}", code=code, errors=[field_error(loc, msg)])


def error_response(error: ApiError) -> JsonResponse:
    response = JsonResponse(
        {"detail": error.detail, "code": error.code, "errors": error.errors, "request_id": current_request_id()},
        status=error.status,
    )
    for name, value in error.headers.items():
        response[name] = value
    return response


def no_store(response: JsonResponse) -> JsonResponse:
    """Token responses must not be cached by anyone (RFC 6749 §5.1)."""
    response["Cache-Control"] = "no-store"
    response["Pragma"] = "no-cache"
    return response


# OAuth error codes for errors raised as ApiError; anything else the caller got wrong is invalid_request.
_OAUTH_ERROR_BY_STATUS = {401: "invalid_client", 429: "slow_down", 500: "server_error"}


def oauth_error_response(
    error: str, description: str, *, status: int, headers: dict[str, str] | None = None
) -> JsonResponse:
    response = JsonResponse(
        {"error": error, "error_description": description, "request_id": current_request_id()}, status=status
    )
    if status == 401:
        response["WWW-Authenticate"] = 'Basic realm="token"'
    for name, value in (headers or {}).items():
        response[name] = value
    return no_store(response)


def error_response_for(path: str, error: ApiError) -> JsonResponse:
    """`error` in the shape of the endpoint at `path`: OAuth for the token endpoint, else the API's."""
    if not path.startswith(OAUTH_PREFIX):
        return error_response(error)
    oauth_error = _OAUTH_ERROR_BY_STATUS.get(error.status, "invalid_request")
    return oauth_error_response(oauth_error, error.detail, status=error.status, headers=error.headers)


def not_found(what: str, value: object, loc: Sequence[str | int] | None = None) -> NotFound:
    """`raise not_found("watchlist", uuid, ["body", "watchlist_uuid"])`."""
    errors = [field_error(loc, f"no {what} {value}")] if loc else []
    return NotFound(f"No {what} {value}.", errors=errors)


def found(queryset, what: str, value: object, loc: Sequence[str | int] | None = None):
    """The one row of `queryset`, or the 404 of `not_found` naming `loc`. The caller's queryset is
    scoped to its organisation, so another organisation's row is a 404 too."""
    row = queryset.first()
    if row is None:
        raise not_found(what, value, loc)
    return row
