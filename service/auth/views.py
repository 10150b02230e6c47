"""POST /oauth/token: OAuth2 client credentials, answered with OAuth2 bodies.

The client authenticates with `client_id` and `client_secret` in the body (JSON or form)
or with `Authorization: Basic` (client_secret_basic, RFC 6749 §2.3.1), not both. Failed
authentications are throttled per client id and per address (`slow_down`, 429). Every
answer, error or not, carries `Cache-Control: no-store` and `Pragma: no-cache`.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from urllib.parse import unquote_plus

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from service.auth.selectors import api_user_by_token_credentials
from service.auth.throttle import auth_failure_record, auth_retry_after
from service.auth.tokens import API_NAMES, audience_for, token_issue
from service.errors import no_store, oauth_error_response

logger = logging.getLogger(__name__)
FIELDS = ("grant_type", "client_id", "client_secret", "audience")


class _Refused(Exception):
    """An OAuth error answer, raised from the helpers below."""

    def __init__(self, error: str, description: str, status: int = 400, headers: dict | None = None) -> None:
        super().__init__(description)
        self.error, self.description, self.status, self.headers = error, description, status, headers


@csrf_exempt
@require_POST
def token(request: HttpRequest) -> JsonResponse:
    try:
        return _token(request)
    except _Refused as refused:
        return oauth_error_response(
            refused.error, refused.description, status=refused.status, headers=refused.headers
        )
    except Exception:
        logger.exception("Token endpoint failed")
        return oauth_error_response("server_error", "Internal server error.", status=500)


def _token(request: HttpRequest) -> JsonResponse:
    body = _read_body(request)
    client_id, client_secret = _client_credentials(request, body)
    missing = [f for f in ("grant_type", "audience") if not body.get(f)]
    missing += [f for f, value in (("client_id", client_id), ("client_secret", client_secret)) if not value]
    if missing:
        raise _Refused("invalid_request", f"Missing field(s): {', '.join(missing)}.")
    if body["grant_type"] != "client_credentials":
        raise _Refused("unsupported_grant_type", "Only grant_type client_credentials is supported.")
    audiences = {audience_for(request, name) for name in API_NAMES}
    audience = body["audience"].rstrip("/")
    if audience not in audiences:
        raise _Refused("invalid_target", f"Unknown audience; use one of: {', '.join(sorted(audiences))}.")

    address = request.META.get("REMOTE_ADDR", "")
    retry_after = auth_retry_after(client_id=client_id, address=address)
    if retry_after is not None:
        raise _Refused(
            "slow_down",
            f"Too many failed authentications for this client or from this address; retry after {retry_after} seconds.",
            429,
            {"Retry-After": str(retry_after)},
        )
    api_user = api_user_by_token_credentials(client_id=client_id, secret=client_secret)
    if api_user is None:
        auth_failure_record(client_id=client_id, address=address)
        raise _Refused("invalid_client", "Unknown client or wrong secret.", 401)
    access_token, lifetime = token_issue(
        api_user_uuid=api_user.uuid, credentials_version=api_user.credentials_version, audience=audience
    )
    return no_store(JsonResponse({"access_token": access_token, "token_type": "Bearer", "expires_in": lifetime}))


def _read_body(request: HttpRequest) -> dict[str, str]:
    """The body's fields; 400 unless it is a JSON object or a form whose known fields are strings."""
    try:
        if request.content_type == "application/x-www-form-urlencoded":
            body = request.POST.dict()
        else:
            body = json.loads(request.body or b"{}")
    except SuspiciousOperation:  # e.g. a form with too many fields
        raise _Refused("invalid_request", "The body could not be read.") from None
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested too deep to read
        raise _Refused("invalid_request", "The body must be a JSON object or a form.") from None
    if not isinstance(body, dict):
        raise _Refused("invalid_request", "The body must be a JSON object or a form.")
    not_text = [f for f in FIELDS if body.get(f) is not None and not isinstance(body[f], str)]
    if not_text:
        raise _Refused("invalid_request", f"Field(s) must be strings: {', '.join(not_text)}.")
    return {f: body[f] for f in FIELDS if body.get(f) is not None}


def _client_credentials(request: HttpRequest, body: dict[str, str]) -> tuple[str, str]:
    """Client id and secret from the Basic header or else the body; one method only (RFC 6749 §2.3)."""
    header = request.headers.get("Authorization")
    if not header:
        return body.get("client_id", ""), body.get("client_secret", "")
    scheme, _, encoded = header.strip().partition(" ")
    try:
        if scheme.lower() != "basic":
            raise ValueError(scheme)
        raw_id, separator, raw_secret = base64.b64decode(encoded.strip(), validate=True).decode().partition(":")
        if not separator:
            raise ValueError("no colon")
    except (ValueError, binascii.Error):  # UnicodeDecodeError is a ValueError
        raise _Refused(
            "invalid_client", "The Authorization header must be Basic base64(client_id:client_secret).", 401
        ) from None
    client_id, client_secret = unquote_plus(raw_id), unquote_plus(raw_secret)
    if "client_secret" in body:
        raise _Refused(
            "invalid_request", "Send the client secret in the Authorization header or in the body, not both."
        )
    if body.get("client_id", client_id) != client_id:
        raise _Refused("invalid_request", "client_id in the body is not the one in the Authorization header.")
    return client_id, client_secret
