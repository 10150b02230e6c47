"""The in-process transport (VAKT_SERVICE_URL empty) answers exactly like the service over HTTP."""

import pytest

from portal.service import ServiceBadRequest, ServiceError, ServiceNotFound, ServiceUnauthorized, service_client_for
from portal.service.transport import InProcessAdapter
from service.auth.models import AppCustomer
from service.auth.services import app_membership_create


@pytest.fixture
def clients(org, live_server, settings):
    """The same credentials twice: through the factory in-process, and through the factory over HTTP."""
    creds = org.credentials
    settings.VAKT_SERVICE_URL = ""
    in_process = service_client_for(client_id=creds.token_auth_id, client_secret=creds.token_auth_secret)
    settings.VAKT_SERVICE_URL = live_server.url
    over_http = service_client_for(client_id=creds.token_auth_id, client_secret=creds.token_auth_secret)
    yield in_process, over_http
    in_process.session.close()
    over_http.session.close()


def _error(call) -> tuple:
    try:
        call()
    except ServiceError as exc:
        return type(exc), exc.status, exc.code, exc.detail, exc.errors
    raise AssertionError("no error")


def test_the_factory_picks_the_transport(clients, live_server):
    in_process, over_http = clients

    assert isinstance(in_process.session.get_adapter("http://localhost/"), InProcessAdapter)
    assert over_http.base_url == live_server.url
    assert not isinstance(over_http.session.get_adapter(live_server.url), InProcessAdapter)


def test_both_authenticate_with_a_token(org, clients):
    for client in clients:
        assert str(org.credentials.api_user.uuid) in client.auth_status()
        assert client.token_requests == 1


def test_both_read_the_same_data(org, other_org, clients):
    customer = AppCustomer.objects.get(uuid=org.app_customer_uuid)
    for n in range(12):
        app_membership_create(app_customer=customer, email=f"p{n:02}@nordbank.example")
    in_process, over_http = clients
    overview = f"v1/app-customer/{org.app_customer_uuid}/overview"
    memberships = f"v1/app-customer/{org.app_customer_uuid}/app-membership"

    assert in_process.get("analysis", overview) == over_http.get("analysis", overview)
    assert in_process.get("analysis", memberships, params={"limit": 5, "offset": 10}) == over_http.get(
        "analysis", memberships, params={"limit": 5, "offset": 10}
    )
    assert list(in_process.paginate("analysis", memberships, limit=5)) == list(
        over_http.paginate("analysis", memberships, limit=5)
    )


def test_both_raise_the_same_errors(org, other_org, clients):
    in_process, over_http = clients
    foreign = f"v1/app-customer/{other_org.app_customer_uuid}/overview"
    bad_limit = f"v1/app-customer/{org.app_customer_uuid}/app-membership"

    not_found = [_error(lambda c=c: c.get("analysis", foreign)) for c in clients]
    bad_request = [_error(lambda c=c: c.get("analysis", bad_limit, params={"limit": "abc"})) for c in clients]
    unknown_path = [_error(lambda c=c: c.get("analysis", "v1/no-such-endpoint")) for c in clients]

    assert not_found[0] == not_found[1]
    assert not_found[0][0] is ServiceNotFound
    assert bad_request[0] == bad_request[1]
    assert bad_request[0][0] is ServiceBadRequest
    assert bad_request[0][4][0]["loc"] == ["query", "limit"]
    assert unknown_path[0][:3] == unknown_path[1][:3] == (ServiceNotFound, 404, "not_found")


def test_both_refuse_bad_credentials_the_same_way(org, clients):
    for client in clients:
        client.client_secret = "wrong"

    refused = [_error(client.auth_status) for client in clients]

    assert refused[0] == refused[1]
    assert refused[0][:3] == (ServiceUnauthorized, 401, "invalid_client")


def test_both_send_the_role_header(org, clients):
    for client in clients:
        client.role_keys = ["aml"]

    assert all("Roles granted for this request: aml." in client.auth_status() for client in clients)
