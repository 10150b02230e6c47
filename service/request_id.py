"""A request id for every request: in the `X-Request-Id` header, in every error body, in the log lines.

An incoming `X-Request-Id` is kept when it is a sane token (so a caller's or a proxy's id follows
the request through), otherwise a new one is made. The id of the request being handled lives in a
context variable, which is how `service.errors` and the log filter find it without a request.
"""

from __future__ import annotations

import contextvars
import logging
import re
import uuid

from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-Id"
_SANE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
_current: contextvars.ContextVar[str] = contextvars.ContextVar("vakt_request_id", default="")


def current_request_id() -> str:
    """The id of the request being handled, or "" outside one."""
    return _current.get()


def request_id_from(incoming: str | None) -> str:
    if incoming and _SANE.fullmatch(incoming):
        return incoming
    return uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request.headers.get(HEADER))
        request.request_id = request_id  # Django's own "Bad Request: ..." lines are logged after we return
        token = _current.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            _current.reset(token)
        response[HEADER] = request_id
        return response


class RequestIdFilter(logging.Filter):
    """Gives every log record `request_id` ("-" outside a request), for the log format."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        record.request_id = getattr(request, "request_id", None) or _current.get() or "-"
        return True
