"""Typed errors raised by the service client, carrying the API's status, code and message."""

from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, status: int, code: str, detail: str, errors: list[dict] | None = None) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = errors or []


class ServiceBadRequest(ServiceError):
    """400: the request was wrong; `errors` names the fields."""


class ServiceUnauthorized(ServiceError):
    """401: credentials were refused (or a token could not be obtained)."""


class ServiceForbidden(ServiceError):
    """403: a role is missing from the header or not assigned."""


class ServiceNotFound(ServiceError):
    """404: unknown, or not this organisation's."""


class ServiceRateLimited(ServiceError):
    def __init__(self, *args, retry_after: int | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.retry_after = retry_after


class ServiceUnavailable(ServiceError):
    """The service could not be reached, or answered 5xx after the retries."""


class ServiceNoAnswer(ServiceUnavailable):
    """A write reached the service but its answer never came (the connection dropped or timed out
    after sending, or a gateway answered 502/504): the change may or may not have been made."""


_BY_STATUS: dict[int, type[ServiceError]] = {
    400: ServiceBadRequest,
    401: ServiceUnauthorized,
    403: ServiceForbidden,
    404: ServiceNotFound,
    429: ServiceRateLimited,
}


def error_class_for(status: int) -> type[ServiceError]:
    if status >= 500:
        return ServiceUnavailable
    return _BY_STATUS.get(status, ServiceError)
