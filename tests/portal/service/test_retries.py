"""Retries: idempotent requests are retried on 502/503/504 and dropped connections, POSTs never.

A real HTTP proxy (`proxy`, see conftest) sits in front of the live server, fails
the first requests on purpose and counts what reaches it.
"""

import socket

import pytest

from portal.feedback import service_error_text
from portal.service import ServiceNoAnswer, ServiceNotFound, ServiceUnavailable

AUTH_STATUS = "/analysis/v1/auth-status"


def _closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"  # nothing listens here once the socket is closed


@pytest.mark.parametrize("auth", ["basic", "token"])
def test_a_closed_port_is_service_unavailable(org, auth):
    client = org.client(_closed_port_url(), auth=auth, retries=2)

    with pytest.raises(ServiceUnavailable) as caught:
        client.auth_status()

    assert caught.value.status == 0
    assert caught.value.code == "unreachable"
    assert "could not be reached" in caught.value.detail


@pytest.mark.parametrize("how", ["503", "drop"])
def test_a_get_succeeds_after_failures(org, proxy, how):
    client = org.client(proxy.url, auth="basic", retries=3)
    proxy.fail_next(3, how=how)

    text = client.auth_status()

    assert str(org.credentials.api_user.uuid) in text
    assert proxy.count("GET", AUTH_STATUS) == 4


@pytest.mark.parametrize("how", ["503", "drop"])
def test_a_get_gives_up_after_the_retries(org, proxy, how):
    client = org.client(proxy.url, auth="basic", retries=2)
    proxy.fail_next(10, how=how)

    with pytest.raises(ServiceUnavailable) as caught:
        client.auth_status()

    assert proxy.count("GET", AUTH_STATUS) == 3
    assert caught.value.status == (503 if how == "503" else 0)


def test_a_get_with_a_token_is_retried_too(org, proxy):
    client = org.client(proxy.url, retries=3)
    proxy.fail_next(2, path_prefix="/analysis/")

    assert str(org.credentials.api_user.uuid) in client.auth_status()
    assert proxy.count("GET", AUTH_STATUS) == 3
    assert client.token_requests == 1


@pytest.mark.parametrize("how", ["503", "drop"])
def test_a_post_is_not_retried(org, proxy, how):
    client = org.client(proxy.url, auth="basic", retries=3)
    proxy.fail_next(1, how=how)

    with pytest.raises(ServiceUnavailable):
        client.post("analysis", "v1/auth-status", json={"anything": 1})

    assert proxy.count("POST", AUTH_STATUS) == 1


def test_a_client_error_is_not_retried(org, other_org, proxy):
    client = org.client(proxy.url, auth="basic", retries=3)

    with pytest.raises(ServiceNotFound):
        client.get("analysis", f"v1/app-customer/{other_org.app_customer_uuid}/overview")

    assert proxy.count("GET", "/analysis/v1/app-customer/") == 1


def test_the_token_request_is_retried(org, proxy):
    # Getting a token changes nothing on the server, so it is retried like a GET.
    client = org.client(proxy.url, retries=3)
    proxy.fail_next(2, path_prefix="/oauth/token")

    assert str(org.credentials.api_user.uuid) in client.auth_status()
    assert proxy.count("POST", "/oauth/token") == 3
    assert client.token_requests == 1


def test_an_unavailable_token_issuer_is_not_called_a_refusal(org, proxy):
    client = org.client(proxy.url, retries=1)
    proxy.fail_next(5, path_prefix="/oauth/token")

    with pytest.raises(ServiceUnavailable) as caught:
        client.auth_status()

    assert proxy.count("POST", "/oauth/token") == 2
    assert caught.value.status == 503
    assert "refused" not in caught.value.detail
    assert proxy.count("GET", AUTH_STATUS) == 0


@pytest.mark.parametrize(("method", "how"), [("post", "drop"), ("post", "504"), ("patch", "drop"), ("put", "drop"), ("delete", "504")])
def test_a_write_whose_answer_is_lost_is_not_called_unchanged(org, proxy, method, how):
    # The request reached the service (or a gateway before it): the change may have been made.
    client = org.client(proxy.url, auth="basic", retries=1)
    proxy.fail_next(5, how=how)

    with pytest.raises(ServiceNoAnswer) as caught:
        getattr(client, method)("analysis", "v1/auth-status", json={"anything": 1})

    assert "not known whether the change was saved" in service_error_text(caught.value)
    assert "nothing was changed" not in service_error_text(caught.value)


def test_a_write_that_never_reached_the_service_says_nothing_was_changed(org):
    client = org.client(_closed_port_url(), auth="basic", retries=0)

    with pytest.raises(ServiceUnavailable) as caught:
        client.post("analysis", "v1/auth-status", json={"anything": 1})

    assert not isinstance(caught.value, ServiceNoAnswer)
    assert "nothing was changed" in service_error_text(caught.value)


@pytest.mark.parametrize("how", ["drop", "504"])
def test_a_read_whose_answer_is_lost_is_plainly_unavailable(org, proxy, how):
    client = org.client(proxy.url, auth="basic", retries=1)
    proxy.fail_next(5, how=how)

    with pytest.raises(ServiceUnavailable) as caught:
        client.auth_status()

    assert not isinstance(caught.value, ServiceNoAnswer)
