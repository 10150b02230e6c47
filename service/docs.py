"""The interactive API reference is behind basic auth (spec §4.3).

A logged-in dashboard user may also read it, so the portal can link to it.
"""

from __future__ import annotations

import base64
import binascii
from functools import wraps

from django.http import HttpRequest, HttpResponse

from service.auth.selectors import api_user_by_basic_credentials


def _basic_credentials(request: HttpRequest) -> tuple[str, str] | None:
    header = request.headers.get("Authorization", "")
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic" or not encoded:
        return None
    try:
        user, _, secret = base64.b64decode(encoded).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return user, secret


def docs_login_required(view):
    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        credentials = _basic_credentials(request)
        allowed = getattr(request, "user", None) is not None and request.user.is_authenticated
        if not allowed and credentials:
            allowed = api_user_by_basic_credentials(client_id=credentials[0], secret=credentials[1]) is not None
        if not allowed:
            response = HttpResponse("Log in with your API basic auth id and secret.", status=401)
            response["WWW-Authenticate"] = 'Basic realm="Vakt API reference"'
            return response
        return view(request, *args, **kwargs)

    return wrapper
