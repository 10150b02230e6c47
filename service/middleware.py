"""API-wide HTTP rules around routing: body size, JSON for unknown paths and failures, content negotiation,
the rate limit headers.

Errors leave in the shape of the endpoint: the token endpoint's OAuth shape under /oauth/, the API's elsewhere.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from service.auth.ratelimit import rate_limit_headers_add
from service.errors import ApiError, NotFound, error_response_for

API_PREFIXES = ("/analysis/", "/datasets/", "/oauth/")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


# Uploads of a customer person import job take files beyond the API's body limit (their own limit).
LARGE_UPLOAD_SUFFIX = "/customer-person-import-job"


def _body_limit(request: HttpRequest) -> int:
    if request.method == "POST" and request.path.endswith(LARGE_UPLOAD_SUFFIX):
        return settings.VAKT_IMPORT_JOB_MAX_BYTES + 64 * 1024  # the file and its multipart framing
    return settings.VAKT_MAX_BODY_BYTES


class ApiBoundaryMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PREFIXES):
            return self.get_response(request)
        return rate_limit_headers_add(request, self._answer(request))

    def _answer(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = _body_limit(request)
        if length > limit:
            return error_response_for(
                request.path,
                ApiError(
                    f"Request body too large: {length} bytes, the limit is {limit}.",
                    code="payload_too_large",
                    status=413,
                ),
            )
        # Every write answers JSON, so refuse a write that cannot take JSON before it happens;
        # reads are judged on what they answer (some answer plain text, CSV or PDF).
        if request.method not in SAFE_METHODS and not request.accepts("application/json"):
            return _not_acceptable(request)
        response = self.get_response(request)
        content_type = response.get("Content-Type", "")
        if response.status_code == 404 and not content_type.startswith("application/json"):
            return error_response_for(request.path, NotFound(f"No endpoint at {request.path}."))
        if response.status_code == 405 and not content_type.startswith("application/json"):
            allowed = response.get("Allow", "")
            error = error_response_for(
                request.path,
                ApiError(
                    f"Method {request.method} is not allowed on {request.path}; allowed: {allowed or 'none'}.",
                    code="method_not_allowed",
                    status=405,
                ),
            )
            error["Allow"] = allowed
            return error
        if response.status_code == 500 and not content_type.startswith("application/json"):
            # An exception Django turned into its HTML page (already logged with the request id).
            return error_response_for(
                request.path, ApiError("Internal server error.", code="internal_error", status=500)
            )
        if response.status_code == 400 and not content_type.startswith("application/json"):
            # Django's own refusals, such as a form body with too many fields.
            return error_response_for(
                request.path, ApiError("Bad request: the body could not be read.", code="bad_request", status=400)
            )
        if 200 <= response.status_code < 300 and content_type.startswith("application/json"):
            if not request.accepts("application/json"):
                return _not_acceptable(request)
        return response


def _not_acceptable(request: HttpRequest) -> HttpResponse:
    return error_response_for(
        request.path,
        ApiError(
            f"This endpoint answers application/json; the Accept header allows only {request.headers.get('Accept')!r}.",
            code="not_acceptable",
            status=406,
            errors=[{"loc": ["header", "Accept"], "msg": "must allow application/json"}],
        ),
    )
