"""A `requests` transport that hands requests to this Django deployment in-process.

Used when VAKT_SERVICE_URL is empty ("this deployment"): the dashboard keeps
calling the API over HTTP semantics (headers, auth, JSON, status codes) with no
network hop and no risk of a single-threaded server waiting on itself. It sends
no request_started/finished signals, so the caller's database connection and
transaction are left alone.
"""

from __future__ import annotations

import io
import sys
from urllib.parse import unquote_to_bytes, urlsplit

import requests
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIRequest
from django.urls import set_script_prefix
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

_SKIPPED_HEADERS = {"content-type", "content-length"}


class _Handler(BaseHandler):
    def __init__(self) -> None:
        super().__init__()
        self.load_middleware()

    def __call__(self, environ: dict):
        set_script_prefix("/")
        return self.get_response(WSGIRequest(environ))


class InProcessAdapter(BaseAdapter):
    def __init__(self) -> None:
        super().__init__()
        self._handler: _Handler | None = None

    def send(self, request: requests.PreparedRequest, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        if self._handler is None:
            self._handler = _Handler()
        django_response = self._handler(self._environ(request))
        if django_response.streaming:
            content = b"".join(django_response.streaming_content)
        else:
            content = django_response.content
        for closer in django_response._resource_closers:  # close files without the request_finished signal
            closer()
        return self._to_requests_response(request, django_response, content)

    def close(self) -> None:
        self._handler = None

    @staticmethod
    def _environ(request: requests.PreparedRequest) -> dict:
        url = urlsplit(request.url)
        body = request.body or b""
        if isinstance(body, str):
            body = body.encode("utf-8")
        secure = url.scheme == "https"
        environ = {
            "REQUEST_METHOD": request.method,
            "SCRIPT_NAME": "",
            "PATH_INFO": unquote_to_bytes(url.path or "/").decode("iso-8859-1"),
            "QUERY_STRING": url.query,
            "SERVER_NAME": url.hostname or "localhost",
            "SERVER_PORT": str(url.port or (443 if secure else 80)),
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": url.netloc,
            "CONTENT_TYPE": request.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": url.scheme,
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        for name, value in request.headers.items():
            if name.lower() not in _SKIPPED_HEADERS:
                environ["HTTP_" + name.upper().replace("-", "_")] = value
        return environ

    @staticmethod
    def _to_requests_response(request, django_response, content: bytes) -> requests.Response:
        response = requests.Response()
        response.status_code = django_response.status_code
        response.reason = django_response.reason_phrase
        response.headers = CaseInsensitiveDict(django_response.items())
        response._content = content
        response._content_consumed = True
        response.raw = io.BytesIO(content)
        response.url = request.url
        response.request = request
        response.encoding = requests.utils.get_encoding_from_headers(response.headers)
        return response
