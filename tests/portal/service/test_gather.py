"""client.gather: independent calls at once against a remote service, in this thread in-process."""

import threading

import pytest

from portal.service import ServiceClient, ServiceNotFound, service_client_for


def _client(concurrent: int) -> ServiceClient:
    return ServiceClient(base_url="http://unused", client_id="x", client_secret="y", max_concurrent_calls=concurrent)


def test_remote_calls_run_at_once():
    barrier = threading.Barrier(3, timeout=5)  # passes only when all three calls wait at the same time

    def call(n):
        return lambda: (barrier.wait(), n)[1]

    assert _client(6).gather(call(1), call(2), call(3)) == [1, 2, 3]


def test_in_process_calls_run_one_after_the_other_in_this_thread():
    seen, order = [], []

    def call(n):
        def run():
            seen.append(threading.get_ident())
            order.append(n)
            return n * 10

        return run

    assert _client(1).gather(call(1), call(2), call(3)) == [10, 20, 30]
    assert seen == [threading.get_ident()] * 3 and order == [1, 2, 3]


@pytest.mark.parametrize("concurrent", [1, 6])
def test_the_first_error_is_raised(concurrent):
    def missing():
        raise ServiceNotFound(404, "not_found", "No such company.")

    with pytest.raises(ServiceNotFound):
        _client(concurrent).gather(lambda: 1, missing)


def test_the_factory_gathers_at_once_only_against_a_remote_service(settings, db):
    settings.VAKT_SERVICE_URL, settings.VAKT_BASE_URL = "", ""
    in_process = service_client_for(client_id="a", client_secret="b")
    settings.VAKT_SERVICE_URL = "https://vakt.example"
    remote = service_client_for(client_id="a", client_secret="b")

    assert in_process.max_concurrent_calls == 1 and remote.max_concurrent_calls > 1
    assert (in_process.link_base_url, remote.link_base_url) == ("", "https://vakt.example")  # download links


def test_gathered_calls_share_one_token(org, live_server):
    client = org.client(live_server.url, max_concurrent_calls=6)

    answers = client.gather(*[client.auth_status for _ in range(6)])

    assert all(str(org.credentials.api_user.uuid) in text for text in answers)
    assert client.token_requests == 1
