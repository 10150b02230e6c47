"""The service layer: the dashboard's only way to reach the service (an HTTP client of its API)."""

from portal.service.client import ServiceClient
from portal.service.errors import (
    ServiceBadRequest,
    ServiceError,
    ServiceForbidden,
    ServiceNotFound,
    ServiceRateLimited,
    ServiceUnauthorized,
    ServiceUnavailable,
)
from portal.service.factory import service_client_for

__all__ = [
    "ServiceBadRequest",
    "ServiceClient",
    "ServiceError",
    "ServiceForbidden",
    "ServiceNotFound",
    "ServiceRateLimited",
    "ServiceUnauthorized",
    "ServiceUnavailable",
    "service_client_for",
]
