"""The two NinjaAPI instances, their auth, error handlers and routers.

Each domain app owns a ninja Router in its `api.py`; this module only mounts
them under `/v1/`. Every error leaves here in the one shape of `service.errors`.
"""

from __future__ import annotations

import logging

import redis
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

from service.audit.api import router as audit_router
from service.auth.api import router as auth_router
from service.auth.authentication import api_auth
from service.companies.analysis.api import router as company_analysis_router
from service.companies.datasets.api import router as datasets_router
from service.companies.register.api import router as register_router
from service.companies.sector.api import router as sector_router
from service.docs import docs_login_required
from service.errors import ApiError, NotAuthenticated, NotFound, error_response
from service.input_checks import input_checked
from service.openapi import DocumentedErrorsNinjaAPI
from service.reports.api import router as reports_router
from service.screening.api import router as screening_router
from service.watchlists.api import router as watchlists_router

logger = logging.getLogger(__name__)
# Failures of what the service stands on, not of the request: 503 with Retry-After, not 500.
UNAVAILABLE = (OperationalError, InterfaceError, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)

ROLE_HEADER_DOC = (
    "Authenticate with HTTP basic auth (basic auth id and secret) or a bearer token from "
    "`POST /oauth/token` (token auth id and secret, `audience` = `<base>/{api}`). Data protected "
    "by a role needs the `Nk-Role-Keys` header listing it; the role must also be assigned to "
    "the API user. Errors always have the shape "
    '`{"detail": "...", "code": "...", "errors": [{"loc": [...], "msg": "..."}], "request_id": "..."}`; '
    "`request_id` is also in the `X-Request-Id` header."
)


class _BodyParser(Parser):
    """Ninja's JSON body parser, with a body nested too deep to read a 400 instead of a RecursionError (500)."""

    def parse_body(self, request: HttpRequest):
        try:
            return super().parse_body(request)
        except RecursionError:
            raise ApiError(
                "The body is nested too deeply to read.",
                code="invalid_request",
                errors=[{"loc": ["body"], "msg": "nested too deeply"}],
            ) from None


def _build_api(name: str, title: str) -> NinjaAPI:
    api = DocumentedErrorsNinjaAPI(  # documents the error answers of every operation
        parser=_BodyParser(),
        title=title,
        version="v1",
        description=ROLE_HEADER_DOC.replace("{api}", name),
        urls_namespace=name,
        auth=api_auth(name),
        docs_url="/",
        openapi_url="/openapi.json",
        docs_decorator=docs_login_required,
    )
    _install_error_handlers(api)
    api.add_decorator(input_checked)  # NUL characters and out-of-range integers: 400 before the endpoint runs
    return api


def _install_error_handlers(api: NinjaAPI) -> None:
    @api.exception_handler(ApiError)
    def on_api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
        return error_response(exc)

    @api.exception_handler(ValidationError)
    def on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        errors = [{"loc": _caller_loc(err.get("loc", [])), "msg": err.get("msg", "invalid")} for err in exc.errors]
        # named by field, not by a list's index: "check screening_case_uuids", not "check 0"
        fields = ", ".join(dict.fromkeys(_field_name(e["loc"]) for e in errors if e["loc"])) or "request"
        return error_response(
            ApiError(f"Invalid request: check {fields}.", code="invalid_request", status=400, errors=errors)
        )

    @api.exception_handler(AuthenticationError)
    def on_auth_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        return error_response(
            NotAuthenticated(
                "Authentication required: send valid basic auth credentials or a bearer token for this API.",
                headers={"WWW-Authenticate": 'Basic realm="vakt", Bearer'},
            )
        )

    @api.exception_handler(Http404)
    def on_not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return error_response(NotFound(str(exc) or "Not found."))

    @api.exception_handler(HttpError)
    def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        return error_response(ApiError(str(exc), code="http_error", status=exc.status_code))

    @api.exception_handler(Exception)
    def on_unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
        if isinstance(exc, UNAVAILABLE):
            # The database or Redis is away (restarting, failing over, unreachable): a temporary
            # state the caller should retry; the next request opens new connections.
            logger.warning("Unavailable on %s %s: %s: %s", request.method, request.path, type(exc).__name__, exc)
            return error_response(ApiError(
                "The service is temporarily unavailable (its database or cache cannot be reached); try again shortly.",
                code="service_unavailable", status=503, headers={"Retry-After": "5"},
            ))
        logger.exception("Unhandled error on %s %s", request.method, request.path)
        return error_response(ApiError("Internal server error.", code="internal_error", status=500))


BODY_ARGUMENTS = ("payload", "body")  # the views' names for their JSON body


def _caller_loc(loc) -> list[str]:
    """A request parsing error's `loc` as the caller reads it: ninja puts the view's argument name after
    "body" (`["body", "payload", "full_name"]`), which names nothing the caller sent; every other 400
    says `["body", "full_name"]` (docs/screening.md, *Errors*)."""
    parts = [str(part) for part in loc]
    if len(parts) >= 2 and parts[0] == "body" and parts[1] in BODY_ARGUMENTS:
        del parts[1]
    return parts


def _field_name(loc: list[str]) -> str:
    return next((part for part in reversed(loc) if not part.isdigit()), loc[-1])


analysis_api = _build_api("analysis", "Vakt analysis API")
analysis_api.add_router("/v1/", auth_router)
analysis_api.add_router("/v1/", register_router)
analysis_api.add_router("/v1/", company_analysis_router)
analysis_api.add_router("/v1/", sector_router)
analysis_api.add_router("/v1/", watchlists_router)
analysis_api.add_router("/v1/", screening_router)
analysis_api.add_router("/v1/", reports_router)
analysis_api.add_router("/v1/", audit_router)

datasets_api = _build_api("datasets", "Vakt datasets API")
datasets_api.add_router("/v1/", datasets_router)
