"""The error answers every operation can give, documented once for both OpenAPI documents.

Each operation of `service.api`'s NinjaAPIs gets 400, 401, 403, 404, 406, 413, 429 and 503 with
the one error shape of `service.errors` (unless it declares one itself), so clients and
the fuzzing test (tests/service/test_fuzzing.py) can check every error body against it;
its success answers and the errors of an authenticated caller list the X-RateLimit-* headers.
"""

from __future__ import annotations

from typing import Any

from ninja import NinjaAPI

ERROR_SCHEMA = {
    "title": "Error",
    "type": "object",
    "description": "The one error shape of every API answer that is not a success.",
    "properties": {
        "detail": {"type": "string", "description": "A sentence for a person"},
        "code": {"type": "string", "description": "A machine code, e.g. invalid_parameter, role_missing"},
        "errors": {
            "type": "array",
            "description": "One entry per bad field (may be empty)",
            "items": {"$ref": "#/components/schemas/ErrorItem"},
        },
        "request_id": {"type": "string", "description": "The request's id, also in X-Request-Id and the server's log"},
    },
    "required": ["detail", "code", "errors"],
}
ERROR_ITEM_SCHEMA = {
    "title": "ErrorItem",
    "type": "object",
    "properties": {
        "loc": {
            "type": "array",
            "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "description": "Where: [\"query\", \"limit\"], [\"path\", \"company_identifier\"], [\"body\", ...]",
        },
        "msg": {"type": "string"},
    },
    "required": ["loc", "msg"],
}
RATE_LIMIT_HEADERS = {
    "X-RateLimit-Limit": "Requests allowed per API user per minute (when the rate limit is on)",
    "X-RateLimit-Remaining": "Requests left in the current minute",
    "X-RateLimit-Reset": "Seconds until the rate-limit window (one minute from the first request counted in it) closes and the count starts again",
}
# Status: (description, headers). The rate limit headers come with every answer to an authenticated caller.
ERROR_ANSWERS = {
    "400": ("Bad request: every invalid parameter or body field is listed in `errors`", RATE_LIMIT_HEADERS),
    "401": ("No or bad credentials", {"WWW-Authenticate": "The schemes to authenticate with"}),
    "403": ("A role is missing (assigned to the API user and listed in Nk-Role-Keys)", RATE_LIMIT_HEADERS),
    "404": ("Unknown, or a record of another organisation", RATE_LIMIT_HEADERS),
    "406": ("The Accept header does not allow application/json", RATE_LIMIT_HEADERS),
    "413": ("Request body too large", {}),
    "429": ("Rate limited", {"Retry-After": "Seconds to wait before trying again", **RATE_LIMIT_HEADERS}),
    "503": ("The database or the broker cannot be reached for a moment", {"Retry-After": "Seconds to wait before trying again"}),
}


def _headers(described: dict[str, str]) -> dict[str, Any]:
    return {name: {"description": text, "schema": {"type": "string"}} for name, text in described.items()}


def conflict_answer(description: str) -> dict[str, Any]:
    """`openapi_extra` for an operation that can refuse with 409 (a conflict with the record's state)."""
    return {
        "responses": {
            "409": {
                "description": description,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            }
        }
    }


def with_error_responses(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with the error component and every operation's error answers (declared ones kept)."""
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", ERROR_SCHEMA)
    schemas.setdefault("ErrorItem", ERROR_ITEM_SCHEMA)
    for methods in schema.get("paths", {}).values():
        for operation in methods.values():
            responses = operation.setdefault("responses", {})
            for status, answer in responses.items():
                if 200 <= int(status) < 300:
                    answer.setdefault("headers", {}).update(_headers(RATE_LIMIT_HEADERS))
            for status, (description, headers) in ERROR_ANSWERS.items():
                if status in responses or int(status) in responses:
                    continue
                answer: dict[str, Any] = {
                    "description": description,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                }
                if headers:
                    answer["headers"] = _headers(headers)
                responses[status] = answer
    return schema


class DocumentedErrorsNinjaAPI(NinjaAPI):
    """A NinjaAPI whose OpenAPI document carries the error answers of every operation."""

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        return with_error_responses(super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params))
