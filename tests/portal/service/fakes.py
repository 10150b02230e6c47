"""A stand-in service for unit tests of area modules: a `requests` transport that answers
contract-shaped JSON from routes a test declares, and records what it was sent."""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

from portal.service.factory import DashboardClient

BASE_URL = "https://vakt.example"


@dataclass
class Sent:
    method: str
    path: str
    query: dict
    body: object
    headers: dict
    timeout: object = None  # what the client allowed the call


@dataclass
class FakeService(BaseAdapter):
    routes: list = field(default_factory=list)  # (method, path regex, status, body)
    sent: list[Sent] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()

    def answer(self, method: str, path: str, body=None, *, status: int = 200) -> None:
        """Answer `method path` (a regex over the path after the host) with `body` as JSON."""
        self.routes.insert(0, (method, re.compile(path + "$"), status, body))

    def send(self, request: requests.PreparedRequest, **kwargs) -> requests.Response:
        url = urlsplit(request.url)
        raw = request.body.decode(errors="replace") if isinstance(request.body, bytes) else request.body
        try:
            body = json.loads(raw) if raw else None
        except ValueError:  # a multipart upload
            body = raw
        self.sent.append(
            Sent(request.method, url.path, {k: v[0] for k, v in parse_qs(url.query).items()},
                 body, dict(request.headers), kwargs.get("timeout"))
        )
        for method, path, status, body in self.routes:
            if method == request.method and path.match(url.path):
                return _response(request, status, body)
        return _response(request, 404, {"detail": "Not found.", "code": "not_found", "errors": []})

    def close(self) -> None:
        pass


def _response(request, status: int, body) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    response.headers = CaseInsensitiveDict({"Content-Type": "application/json"})
    response.raw = io.BytesIO(response._content)
    response.request, response.url, response.encoding = request, request.url, "utf-8"
    return response


def fake_client(service: FakeService, *, app_customer_uuid: str, role_keys=()) -> DashboardClient:
    session = requests.Session()
    session.mount("https://", service)
    return DashboardClient(
        base_url=BASE_URL, client_id="id", client_secret="secret", auth="basic", role_keys=role_keys,
        session=session, app_customer_uuid=app_customer_uuid, backoff_seconds=0,
    )
