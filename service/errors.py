"""One error shape for every API error.

    {"detail": "human sentence", "code": "machine_code", "errors": [{"loc": [...], "msg": "..."}]}

Service code raises `ApiError` (or a subclass); the NinjaAPI handlers in
`service.api` and the plain views turn it into a JSON response.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.http import JsonResponse


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

    def __init__(self, roles: Sequence[str]) -> None:
        names = ", ".join(roles)
        super().__init__(
            f"Missing role(s): {names}. Do you have access to the role, "
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
        {"detail": error.detail, "code": error.code, "errors": error.errors}, status=error.status
    )
    for name, value in error.headers.items():
        response[name] = value
    return response
