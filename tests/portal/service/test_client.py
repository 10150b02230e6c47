"""The service client over real HTTP: auth, token reuse, the role header, typed errors."""

import time

import pytest

from portal.service import (
    ServiceBadRequest,
    ServiceError,
    ServiceForbidden,
    ServiceNotFound,
    ServiceUnauthorized,
)
from portal.service import client as client_module


class Clock:
    """Stands in for the `time` module inside portal.service.client only: a clock we can move."""

    def __init__(self) -> None:
        self.offset = 0.0

    def time(self) -> float:
        return time.time() + self.offset

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(client_module, "time", fake)
    return fake


def test_it_authenticates_with_basic_auth(org, live_server):
    client = org.client(live_server.url, auth="basic")

    text = client.auth_status()

    assert str(org.credentials.api_user.uuid) in text
    assert client.token_requests == 0


def test_it_authenticates_with_a_token(org, live_server):
    client = org.client(live_server.url)

    text = client.auth_status()

    assert str(org.credentials.api_user.uuid) in text
    assert client.token_requests == 1


def test_it_reuses_the_token(org, live_server):
    client = org.client(live_server.url)

    for _ in range(5):
        client.auth_status()
        client.get("analysis", f"v1/app-customer/{org.app_customer_uuid}/overview")

    assert client.token_requests == 1


def test_a_second_client_with_the_same_credentials_shares_the_token(org, live_server):
    first = org.client(live_server.url)
    first.auth_status()

    second = org.client(live_server.url)
    second.auth_status()
    second.auth_status()

    assert first.token_requests == 1
    assert second.token_requests == 0


def test_each_api_gets_its_own_token(org, live_server):
    client = org.client(live_server.url)
    client.auth_status()

    with pytest.raises(ServiceError):  # the datasets API may have no endpoint yet; the token comes first
        client.get("datasets", "v1/no-such-path")

    assert client.token_requests == 2


def test_another_organisation_does_not_share_the_token(org, other_org, live_server):
    org.client(live_server.url).auth_status()
    other = other_org.client(live_server.url)

    assert str(other_org.credentials.api_user.uuid) in other.auth_status()
    assert other.token_requests == 1


def test_it_fetches_a_new_token_only_after_expiry(org, live_server, settings, clock):
    settings.VAKT_TOKEN_LIFETIME_SECONDS = 3600
    client = org.client(live_server.url)
    client.auth_status()

    clock.offset = 3000  # well before expiry: reused
    client.auth_status()
    assert client.token_requests == 1

    clock.offset = 3600  # at expiry: a new one
    client.auth_status()
    assert client.token_requests == 2

    client.auth_status()
    assert client.token_requests == 2


def test_a_short_lifetime_still_reuses_the_token(org, live_server, settings):
    settings.VAKT_TOKEN_LIFETIME_SECONDS = 60  # the shortest allowed

    client = org.client(live_server.url)
    for _ in range(5):
        client.auth_status()

    assert client.token_requests == 1


def test_a_refused_token_is_fetched_again_once(org, live_server, settings):
    client = org.client(live_server.url)
    client.auth_status()
    settings.VAKT_JWT_SECRET = "a-new-signing-key-so-old-tokens-are-refused"  # key rotation on the server

    text = client.auth_status()

    assert str(org.credentials.api_user.uuid) in text
    assert client.token_requests == 2


def test_it_sends_the_role_header(org, live_server):
    client = org.client(live_server.url, role_keys=["aml", "credit_check"])

    assert "Roles granted for this request: aml, credit_check." in client.auth_status()


def test_it_sends_the_role_header_with_basic_auth(org, live_server):
    client = org.client(live_server.url, auth="basic", role_keys=["aml"])

    assert "Roles granted for this request: aml." in client.auth_status()


def test_roles_can_be_given_per_call(org, live_server):
    client = org.client(live_server.url, role_keys=["aml"])

    response = client.request("GET", "analysis", "v1/auth-status", roles=["credit_check"], accept="text/plain")

    assert "Roles granted for this request: credit_check." in response.text


def test_it_sends_no_role_header_without_roles(org, live_server):
    assert "Roles granted for this request: none." in org.client(live_server.url).auth_status()


def test_it_reads_the_overview(org, live_server):
    overview = org.client(live_server.url).get("analysis", f"v1/app-customer/{org.app_customer_uuid}/overview")

    assert overview["name"] == "Nordbank ASA"
    assert overview["app_customer_uuid"] == str(org.app_customer_uuid)
    assert {"key": "api_users", "label": "API users", "value": 1} in overview["counts"]


def test_another_organisations_overview_is_service_not_found(org, other_org, live_server):
    client = org.client(live_server.url)

    with pytest.raises(ServiceNotFound) as caught:
        client.get("analysis", f"v1/app-customer/{other_org.app_customer_uuid}/overview")

    assert caught.value.status == 404
    assert caught.value.code == "not_found"
    assert caught.value.detail == "No such app customer."


@pytest.mark.parametrize("auth", ["basic", "token"])
def test_bad_credentials_are_service_unauthorized(org, live_server, auth):
    client = org.client(live_server.url, auth=auth)
    client.client_secret = "not the secret"

    with pytest.raises(ServiceUnauthorized) as caught:
        client.auth_status()

    assert caught.value.status == 401
    assert caught.value.code == {"basic": "not_authenticated", "token": "invalid_client"}[auth]
    assert caught.value.detail


def test_a_bad_parameter_is_service_bad_request_naming_it(org, live_server):
    client = org.client(live_server.url)

    with pytest.raises(ServiceBadRequest) as caught:
        client.get("analysis", f"v1/app-customer/{org.app_customer_uuid}/app-membership", params={"limit": 0})

    assert caught.value.status == 400
    assert caught.value.code == "invalid_parameter"
    assert caught.value.errors == [{"loc": ["query", "limit"], "msg": "must be between 1 and 1000"}]



def test_a_missing_role_is_service_forbidden_with_the_spec_wording(org, live_server):
    client = org.client(live_server.url)  # credit_check is assigned but not sent
    path, params = "v1/collection-case-composite", {"debtor_company_identifier": "NO923609016"}

    with pytest.raises(ServiceForbidden) as caught:
        client.get("analysis", path, params=params)

    assert caught.value.status == 403
    assert caught.value.code == "role_missing"
    assert caught.value.detail.startswith("Missing role(s): credit_check. Do you have access to the role")
    with pytest.raises(ServiceNotFound):  # with the header the role check passes
        client.get("analysis", path, params=params, roles=["credit_check"])
