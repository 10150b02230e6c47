"""What a person reads when the service says no or cannot be reached: a sentence, never a trace."""

from __future__ import annotations

from portal.service import (
    ServiceError,
    ServiceForbidden,
    ServiceNoAnswer,
    ServiceNotFound,
    ServiceRateLimited,
    ServiceUnauthorized,
    ServiceUnavailable,
)


def service_error_text(error: ServiceError) -> str:
    if isinstance(error, ServiceNoAnswer):
        return (
            "The service did not answer, so it is not known whether the change was saved. "
            "Reload the page to see before trying again."
        )
    if isinstance(error, ServiceUnavailable):
        if error.code == "config_busy":  # the setup is being written (a large import): the service says so
            return error.detail
        return "The service could not be reached, so nothing was changed. Try again in a moment."
    if isinstance(error, ServiceRateLimited):
        return "The service is busy with many requests just now. Try again in a minute."
    if isinstance(error, ServiceUnauthorized):
        return "The service refused the organisation's API credentials. Ask an admin to reconnect the dashboard."
    if isinstance(error, ServiceForbidden):
        return f"Not allowed for your role: {error.detail}"
    if isinstance(error, ServiceNotFound):
        return "Not found: it may have been deleted in the meantime."
    return error.detail or "The service refused the request."
