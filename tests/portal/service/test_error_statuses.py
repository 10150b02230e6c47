"""Each status the service answers becomes the error the dashboard's pages tell apart.

A page shows "no such company" only for ServiceNotFound and "the service could not be
reached" for ServiceUnavailable: a 500 mistaken for anything else sends a person the wrong way.
"""

import pytest

from portal.service import (
    ServiceBadRequest,
    ServiceError,
    ServiceForbidden,
    ServiceNotFound,
    ServiceRateLimited,
    ServiceUnauthorized,
    ServiceUnavailable,
)
from tests.portal.service.fakes import FakeService, fake_client

CUSTOMER = "6c0f1e8e-3a3b-4f57-9d52-1c1d1b0f0001"


def _error_for(status: int, body=None) -> ServiceError:
    service = FakeService()
    service.answer("GET", "/analysis/v1/auth-status", body, status=status)
    client = fake_client(service, app_customer_uuid=CUSTOMER)
    with pytest.raises(ServiceError) as caught:
        client.get("analysis", "v1/auth-status")
    return caught.value


@pytest.mark.parametrize(
    ("status", "error_class"),
    [
        (400, ServiceBadRequest),
        (401, ServiceUnauthorized),
        (403, ServiceForbidden),
        (404, ServiceNotFound),
        (429, ServiceRateLimited),
        (500, ServiceUnavailable),
        (501, ServiceUnavailable),
        (503, ServiceUnavailable),
    ],
)
def test_each_status_is_its_own_error(status, error_class):
    error = _error_for(status, {"detail": "Said the service.", "code": "some_code", "errors": []})

    assert type(error) is error_class
    assert (error.status, error.code, error.detail) == (status, "some_code", "Said the service.")
    assert str(error) == f"{status} some_code: Said the service."


@pytest.mark.parametrize("status", [409, 410, 422, 499])
def test_another_4xx_is_a_plain_service_error_never_not_found(status):
    error = _error_for(status, {"detail": "Conflict.", "code": "conflict"})

    assert type(error) is ServiceError
    assert not isinstance(error, (ServiceNotFound, ServiceUnavailable))
    assert error.errors == []


def test_a_rate_limit_carries_its_retry_after():
    error = _error_for(429, {"detail": "Slow down.", "code": "rate_limited"})

    assert isinstance(error, ServiceRateLimited) and error.retry_after is None
    direct = ServiceRateLimited(429, "rate_limited", "Slow down.", errors=[{"loc": [], "msg": "x"}], retry_after=7)
    assert (direct.retry_after, direct.status, direct.code, direct.detail) == (7, 429, "rate_limited", "Slow down.")
    assert direct.errors == [{"loc": [], "msg": "x"}]
    assert str(direct) == "429 rate_limited: Slow down."
