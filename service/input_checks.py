"""Input every operation must refuse before any query runs or any byte is streamed.

Installed once on both NinjaAPIs (`service.api`), so every endpoint, including ones
added later, gets it. It runs after authentication and ninja's own parsing, before
the endpoint function:

- a NUL character in a query parameter (name or value), a path parameter or a JSON
  body string: PostgreSQL cannot store or compare text containing NUL, so such a value
  would fail inside the database (or, for a streamed dataset, halfway through the body);
- an integer outside the signed 64-bit range, the widest column any database holds
  (bigint), which would overflow in the database driver.

Both are 400s in the one error shape naming every bad field. Narrower column ranges
(a dataset filter on a smallint column) are checked where the column is known
(service.companies.datasets.fields.parse_value).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from typing import Any

from django.http import HttpRequest
from django.http.multipartparser import MultiPartParserError
from pydantic import BaseModel

from service.errors import BadRequest, field_error

BIGINT_MIN, BIGINT_MAX = -(2**63), 2**63 - 1
NUL = "\x00"
NUL_MESSAGE = "must not contain a NUL character (\\u0000)"
BIGINT_MESSAGE = f"must be between {BIGINT_MIN} and {BIGINT_MAX}"


def input_checked(view_func: Callable) -> Callable:
    """Ninja operation decorator: a 400 naming every unsafe input, else the endpoint."""

    @functools.wraps(view_func)
    def checked(request: HttpRequest, *args, **values):
        errors = input_errors(request, values)
        if errors:
            names = ", ".join(dict.fromkeys(str(error["loc"][-1]) for error in errors))
            raise BadRequest(f"Invalid request: check {names}.", code="invalid_request", errors=errors)
        return view_func(request, *args, **values)

    return checked


def input_errors(request: HttpRequest, values: dict[str, Any]) -> list[dict]:
    errors = []
    for name, raw_values in request.GET.lists():
        if NUL in name or any(NUL in raw for raw in raw_values):
            errors.append(field_error(["query", name], NUL_MESSAGE))
    match = request.resolver_match
    for name, raw in (match.kwargs if match else {}).items():
        if isinstance(raw, str) and NUL in raw:
            errors.append(field_error(["path", name], NUL_MESSAGE))
    for loc, text in _strings(_json_body(request), ["body"]):
        if NUL in text:
            errors.append(field_error(loc, NUL_MESSAGE))
    for loc, number in _integers(values, [], request):
        if not BIGINT_MIN <= number <= BIGINT_MAX:
            errors.append(field_error(loc, BIGINT_MESSAGE))
    return errors


def _json_body(request: HttpRequest) -> Any:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    if request.content_type == "multipart/form-data":
        # The stream is read already (its body is gone); the form fields are what can be checked.
        # Uploaded files are checked by the endpoint that reads them.
        try:
            return {name: values for name, values in request.POST.lists()}
        except MultiPartParserError as exc:  # e.g. no boundary: the body cannot be split into fields
            raise BadRequest(
                "The multipart body cannot be read.", code="invalid_request", errors=[field_error(["body"], str(exc))]
            ) from None
    # Only a body that can hold a NUL is parsed a second time: raw, or escaped as \u0000.
    if not request.body:
        return None
    if b"\x00" not in request.body and b"\\u0000" not in request.body:
        return None
    try:
        return json.loads(request.body)
    except (ValueError, RecursionError):
        return request.body.decode("utf-8", "replace")  # not JSON: judged as one text


def _strings(value: Any, loc: list) -> Iterator[tuple[list, str]]:
    # Iterative: a body nested thousands deep must not exhaust the stack.
    stack = [(loc, value)]
    while stack:
        here, item = stack.pop()
        if isinstance(item, str):
            yield here, item
        elif isinstance(item, dict):
            for key, inner in item.items():
                stack.append((here + [key], key))
                stack.append((here + [key], inner))
        elif isinstance(item, list):
            stack.extend((here + [index], inner) for index, inner in enumerate(item))


def _integers(value: Any, loc: list, request: HttpRequest) -> Iterator[tuple[list, int]]:
    """Every integer among the parsed arguments, with the loc a client would recognise."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield loc, value
    elif isinstance(value, BaseModel):
        # A Query[Schema] argument's fields are query parameters of their own: name them, not the argument.
        for field in type(value).model_fields:
            inner = ["query", field] if field in request.GET else ["body", *loc[1:], field]
            yield from _integers(getattr(value, field), inner, request)
    elif isinstance(value, dict):
        for key, item in value.items():
            if not loc:  # the endpoint's arguments
                match = request.resolver_match
                source = "query" if key in request.GET else "path" if match and key in match.kwargs else "body"
                yield from _integers(item, [source, key], request)
            else:
                yield from _integers(item, loc + [key], request)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for index, item in enumerate(value):
            yield from _integers(item, loc + [index], request)
