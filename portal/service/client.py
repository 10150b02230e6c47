"""The service client: every call the dashboard makes to the API goes through here.

- basic or token auth; tokens are fetched per API (`analysis`, `datasets`) and
  reused, shared between client instances of the same credentials, until
  shortly before they expire
- the `Nk-Role-Keys` header
- timeouts; retries with exponential backoff on connection errors and
  502/503/504, for idempotent methods only
- errors raised as typed `ServiceError`s carrying status, code and message
- the spec's pagination rule (§4.7 rule 6) as an iterator
- `gather`: independent calls at once against a remote service, one after the
  other in-process (see its docstring)

The client knows no endpoint beyond auth-status: the area modules
(`portal.service.companies`, `.watchlists`, ...) wrap the API's paths and answer
with typed objects; `portal.service.factory` attaches them when it builds a client.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import requests
from urllib3.exceptions import NewConnectionError

from portal.service.errors import ServiceError, ServiceNoAnswer, ServiceRateLimited, ServiceUnavailable, error_class_for

ApiName = Literal["analysis", "datasets"]
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})  # change nothing: a lost answer loses nothing
# A gateway's "bad gateway" and "timeout": the service behind it may have done the write.
GATEWAY_NO_ANSWER = frozenset({502, 504})
RETRY_STATUSES = frozenset({502, 503, 504})
TOKEN_REFRESH_MARGIN_SECONDS = 60
T = TypeVar("T")


@dataclass
class _Token:
    value: str
    refresh_at: float  # a little before expiry, so a token is not sent as it runs out


class _TokenCache:
    """Process-wide: one token per (base URL, client id, API)."""

    def __init__(self) -> None:
        self._tokens: dict[tuple[str, str, str], _Token] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str, str]) -> _Token | None:
        token = self._tokens.get(key)
        if token and token.refresh_at > time.time():
            return token
        return None

    def put(self, key: tuple[str, str, str], token: _Token) -> None:
        with self._lock:
            self._tokens[key] = token

    def drop(self, key: tuple[str, str, str]) -> None:
        with self._lock:
            self._tokens.pop(key, None)


TOKENS = _TokenCache()


class ServiceClient:
    def __init__(
        self,
        *,
        base_url: str,
        client_id: str,
        client_secret: str,
        auth: Literal["token", "basic"] = "token",
        role_keys: Sequence[str] = (),
        timeout: float = 20.0,
        retries: int = 3,
        backoff_seconds: float = 0.25,
        session: requests.Session | None = None,
        max_concurrent_calls: int = 1,
        app_customer_uuid: str | None = None,
        link_base_url: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.client_id = client_id
        self.client_secret = client_secret
        self.auth = auth
        self.role_keys = list(role_keys)
        self.timeout = timeout
        self.retries = retries
        self.backoff_seconds = backoff_seconds
        self.session = session or requests.Session()
        self.token_requests = 0  # how many tokens this client fetched (observable reuse)
        self.max_concurrent_calls = max(1, max_concurrent_calls)
        # The organisation the client acts for (the paths of its watchlists, reports, overview).
        self.app_customer_uuid = str(app_customer_uuid) if app_customer_uuid else None
        # The person it acts for (a dashboard member), named in writes; set by portal.access.client_for_member.
        self.acting_app_membership_uuid: str | None = None
        # Where a browser reaches the service (download links); "" means this site, relative links.
        self.link_base_url = self.base_url if link_base_url is None else link_base_url.rstrip("/")
        self._token_lock = threading.Lock()

    # --- core request path -------------------------------------------------------------

    def request(
        self,
        method: str,
        api: ApiName,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        files: Mapping[str, tuple[str, bytes, str]] | None = None,
        roles: Sequence[str] | None = None,
        accept: str = "application/json",
        timeout: float | None = None,
    ) -> requests.Response:
        """`timeout`: seconds for this call, for the few that take long by nature (else the client's)."""
        method = method.upper()
        url = f"{self.base_url}/{api}/{path.lstrip('/')}"
        headers = {"Accept": accept}
        role_keys = self.role_keys if roles is None else list(roles)
        if role_keys:
            headers["Nk-Role-Keys"] = ",".join(role_keys)
        attempts = 1 + (self.retries if method in IDEMPOTENT_METHODS else 0)
        refreshed_token = False
        attempt = 0
        while True:
            attempt += 1
            headers["Authorization"] = self._authorization(api)
            try:
                response = self.session.request(
                    method, url, params=_clean(params), json=json, files=files, headers=headers,
                    timeout=timeout or self.timeout,
                )
            except (requests.ConnectionError, requests.Timeout) as exc:
                if attempt < attempts:
                    self._sleep(attempt)
                    continue
                if method not in SAFE_METHODS and not _never_sent(exc):
                    raise ServiceNoAnswer(0, "no_answer", f"The service did not answer: {exc}") from exc
                raise ServiceUnavailable(0, "unreachable", f"The service could not be reached: {exc}") from exc
            if response.status_code in RETRY_STATUSES and attempt < attempts:
                self._sleep(attempt)
                continue
            if response.status_code in GATEWAY_NO_ANSWER and method not in SAFE_METHODS:
                raise ServiceNoAnswer(response.status_code, "no_answer", f"The gateway answered {response.status_code}.")
            if response.status_code == 401 and self.auth == "token" and not refreshed_token:
                # The token may have been revoked or the server's clock may differ: fetch a new one once.
                TOKENS.drop(self._token_key(api))
                refreshed_token = True
                continue
            if response.status_code >= 400:
                raise _error_from(response)
            return response

    def get(self, api: ApiName, path: str, **kwargs) -> Any:
        return self.request("GET", api, path, **kwargs).json()

    def post(self, api: ApiName, path: str, **kwargs) -> Any:
        response = self.request("POST", api, path, **kwargs)
        return response.json() if response.content else None

    def patch(self, api: ApiName, path: str, **kwargs) -> Any:
        response = self.request("PATCH", api, path, **kwargs)
        return response.json() if response.content else None

    def put(self, api: ApiName, path: str, **kwargs) -> Any:
        response = self.request("PUT", api, path, **kwargs)
        return response.json() if response.content else None

    def delete(self, api: ApiName, path: str, **kwargs) -> Any:
        response = self.request("DELETE", api, path, **kwargs)
        return response.json() if response.content else None

    def paginate(
        self, api: ApiName, path: str, *, params: Mapping[str, Any] | None = None, limit: int = 100, **kwargs
    ) -> Iterator[dict]:
        """Yield every element of a composite collection, page by page (spec §4.7 rule 6)."""
        offset = 0
        while True:
            page = self.get(api, path, params={**(params or {}), "limit": limit, "offset": offset}, **kwargs)
            collection = page[0] if isinstance(page, list) else page
            elements = collection["elements"]
            yield from elements
            if not collection.get("has_more") or len(elements) < limit:
                return
            offset += limit

    def gather(self, *calls: Callable[[], T]) -> list[T]:
        """Run independent calls and return their answers in order; the first error is raised.

        Against a remote service the calls run at once in threads (up to
        `max_concurrent_calls`), so a page waits for the slowest call, not the sum.
        In-process (`max_concurrent_calls` 1, set by the factory) they run one after
        the other in this thread, and must: the API then runs on the caller's
        database connection, and a thread would open its own connection that sees
        neither the caller's open transaction (a test's data) nor closes when the
        request ends; there is no network wait to overlap either.
        """
        if self.max_concurrent_calls == 1 or len(calls) < 2:
            return [call() for call in calls]
        with ThreadPoolExecutor(max_workers=min(self.max_concurrent_calls, len(calls))) as pool:
            futures = [pool.submit(call) for call in calls]
            return [future.result() for future in futures]

    # --- endpoints ----------------------------------------------------------------------

    def auth_status(self) -> str:
        return self.request("GET", "analysis", "v1/auth-status", accept="text/plain").text

    # --- auth -----------------------------------------------------------------------------

    def _authorization(self, api: ApiName) -> str:
        if self.auth == "basic":
            return requests.auth._basic_auth_str(self.client_id, self.client_secret)
        return f"Bearer {self._token(api)}"

    def _token_key(self, api: ApiName) -> tuple[str, str, str]:
        return (self.base_url, self.client_id, api)

    def _token(self, api: ApiName) -> str:
        key = self._token_key(api)
        cached = TOKENS.get(key)
        if cached:
            return cached.value
        # Calls gathered at once would each fetch a token: the first fetches, the others wait for it.
        with self._token_lock:
            cached = TOKENS.get(key)
            if cached:
                return cached.value
            return self._token_fetch(api, key)

    def _token_fetch(self, api: ApiName, key: tuple[str, str, str]) -> str:
        # Getting a token changes nothing on the server, so it is retried like an idempotent request.
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self.session.post(
                    f"{self.base_url}/oauth/token",
                    json={
                        "grant_type": "client_credentials",
                        "client_id": self.client_id,
                        "client_secret": self.client_secret,
                        "audience": f"{self.base_url}/{api}",
                    },
                    headers={"Accept": "application/json"},
                    timeout=self.timeout,
                )
            except (requests.ConnectionError, requests.Timeout) as exc:
                if attempt <= self.retries:
                    self._sleep(attempt)
                    continue
                raise ServiceUnavailable(0, "unreachable", f"The token issuer could not be reached: {exc}") from exc
            if response.status_code in RETRY_STATUSES and attempt <= self.retries:
                self._sleep(attempt)
                continue
            break
        self.token_requests += 1
        status = response.status_code
        if status != 200:  # spec §5.2.3: any other status means no token
            if status >= 500:
                code, detail = "token_unavailable", f"The token issuer is unavailable (HTTP {status})."
            else:
                code, detail = "token_refused", "The token issuer refused the credentials."
            body = _json_or_empty(response)
            raise error_class_for(status)(status, body.get("error") or code, body.get("error_description") or detail)
        body = response.json()
        lifetime = float(body.get("expires_in", 300))
        # The margin never eats the whole lifetime: a 60 s token is still reused for 54 s.
        margin = min(TOKEN_REFRESH_MARGIN_SECONDS, lifetime / 10)
        token = _Token(body["access_token"], refresh_at=time.time() + lifetime - margin)
        TOKENS.put(key, token)
        return token.value

    def _sleep(self, attempt: int) -> None:
        time.sleep(self.backoff_seconds * (2 ** (attempt - 1)))


def _clean(params: Mapping[str, Any] | None) -> dict | None:
    if params is None:
        return None
    cleaned = {}
    for key, value in params.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple, set)):
            value = ",".join(str(v) for v in value)
        elif isinstance(value, bool):
            value = "true" if value else "false"
        cleaned[key] = value
    return cleaned


def _json_or_empty(response: requests.Response) -> dict:
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _error_from(response: requests.Response) -> ServiceError:
    body = _json_or_empty(response)
    status = response.status_code
    detail = body.get("detail") or response.reason or "error"
    code = body.get("code") or f"http_{status}"
    cls = error_class_for(status)
    if cls is ServiceRateLimited:
        retry_after = response.headers.get("Retry-After")
        return ServiceRateLimited(
            status, code, detail, body.get("errors"), retry_after=int(retry_after) if retry_after else None
        )
    return cls(status, code, detail, body.get("errors"))


def _never_sent(exc: Exception) -> bool:
    """The request never reached the service: no connection was made (refused, or timed out
    connecting). Anything else (dropped or timed out after sending) may have been done."""
    if isinstance(exc, requests.ConnectTimeout):
        return True
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, NewConnectionError)
