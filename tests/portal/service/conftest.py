"""The service client against the real server over HTTP (pytest-django's live_server).

`FlakyProxy` is a real HTTP proxy in a thread in front of the live server. It
answers 503, or drops the connection, for the first N requests that match,
then forwards; it records every request it receives, so a test can count the
client's attempts without touching the client.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from portal.service import ServiceClient
from service.auth.services import IssuedCredentials, api_user_create, app_customer_create
from tests.conftest import ALL_ROLES

_HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"}


class FlakyProxy:
    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.received: list[tuple[str, str]] = []  # (method, path), in order
        self._failures_left = 0
        self._failure = "503"
        self._path_prefix = "/"
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        # shutdown() waits for serve_forever's next poll: 0.5 s by default, in every test's teardown.
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def fail_next(self, count: int, *, how: str = "503", path_prefix: str = "/") -> None:
        """Make the next `count` requests under `path_prefix` fail: `503`, `504` (a gateway that gave up
        waiting, without forwarding) or `drop` (close without answering)."""
        assert how in ("503", "504", "drop")
        with self._lock:
            self._failures_left, self._failure, self._path_prefix = count, how, path_prefix

    def count(self, method: str, path_prefix: str = "/") -> int:
        return sum(1 for m, p in self.received if m == method and p.startswith(path_prefix))

    def _take_failure(self, path: str) -> str | None:
        with self._lock:
            if self._failures_left > 0 and path.startswith(self._path_prefix):
                self._failures_left -= 1
                return self._failure
        return None

    def _handler_class(self):
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # keep test output quiet
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with proxy._lock:
                    proxy.received.append((self.command, self.path))
                failure = proxy._take_failure(self.path)
                if failure == "drop":
                    self.close_connection = True
                    self.connection.close()
                    return
                if failure in ("503", "504"):
                    payload = b'{"detail": "try again", "code": "unavailable", "errors": []}'
                    self.send_response(int(failure))
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP}
                # Like a reverse proxy that preserves Host: the service sees the address the client used.
                upstream = requests.request(
                    self.command, proxy.upstream + self.path, headers=headers, data=body, allow_redirects=False
                )
                content = upstream.content
                self.send_response(upstream.status_code)
                for name, value in upstream.headers.items():
                    if name.lower() not in _HOP_BY_HOP:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _handle

        return Handler

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@dataclass
class Org:
    app_customer_uuid: object
    credentials: IssuedCredentials

    def client(self, base_url: str, *, auth: str = "token", **kwargs) -> ServiceClient:
        creds = self.credentials
        if auth == "token":
            client_id, secret = creds.token_auth_id, creds.token_auth_secret
        else:
            client_id, secret = creds.basic_auth_id, creds.basic_auth_secret
        kwargs.setdefault("backoff_seconds", 0.01)
        client = ServiceClient(base_url=base_url, client_id=client_id, client_secret=secret, auth=auth, **kwargs)
        _open_sessions.append(client.session)
        return client


# Sessions keep connections alive; close them after each test so no server thread outlives the test.
_open_sessions: list[requests.Session] = []


@pytest.fixture(autouse=True)
def _close_sessions() -> Iterator[None]:
    yield
    while _open_sessions:
        _open_sessions.pop().close()
    # A caught ServiceError's traceback keeps its response, and so its socket, alive until the
    # cycle collector runs. The live server serves each connection in a thread that closes the
    # database connections it shares with this thread: let those threads end now, not after the
    # live server has stopped sharing them.
    gc.collect()
    for thread in threading.enumerate():
        if "process_request_thread" in thread.name:
            thread.join(timeout=5)


def make_org(name: str, roles=ALL_ROLES) -> Org:
    app_customer = app_customer_create(name=name)
    return Org(app_customer.uuid, api_user_create(app_customer=app_customer, name=f"{name} API user", role_keys=roles))


@pytest.fixture
def org(transactional_db) -> Org:
    return make_org("Nordbank ASA")


@pytest.fixture
def other_org(transactional_db) -> Org:
    return make_org("Fjordkreditt AS")


@pytest.fixture
def proxy(live_server) -> Iterator[FlakyProxy]:
    flaky = FlakyProxy(live_server.url)
    flaky.start()
    yield flaky
    flaky.stop()
