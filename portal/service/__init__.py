"""The service layer: the dashboard's only way to reach the service (an HTTP client of its API).

`service_client_for` builds a `DashboardClient`; its areas answer with typed objects:
`client.companies` (portal.service.companies), `client.organisation`,
`client.watchlists`, `client.reports`, `client.screening`. Views never spell out an API path.
"""

from portal.service.client import ServiceClient
from portal.service.errors import (
    ServiceBadRequest,
    ServiceError,
    ServiceForbidden,
    ServiceNoAnswer,
    ServiceNotFound,
    ServiceRateLimited,
    ServiceUnauthorized,
    ServiceUnavailable,
)
from portal.service.factory import DashboardClient, service_client_for

__all__ = [
    "DashboardClient",
    "ServiceBadRequest",
    "ServiceClient",
    "ServiceError",
    "ServiceForbidden",
    "ServiceNoAnswer",
    "ServiceNotFound",
    "ServiceRateLimited",
    "ServiceUnauthorized",
    "ServiceUnavailable",
    "service_client_for",
]
