"""Bearer tokens: signed JWTs with an audience per API and an expiry."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

import jwt
from django.conf import settings
from django.http import HttpRequest

API_NAMES = ("analysis", "datasets")
ALGORITHM = "HS256"


def base_url_of(request: HttpRequest) -> str:
    """The public base URL: configured, or else the host this request came to."""
    if settings.VAKT_BASE_URL:
        return settings.VAKT_BASE_URL
    return f"{request.scheme}://{request.get_host()}"


def audience_for(request: HttpRequest, api_name: str) -> str:
    return f"{base_url_of(request)}/{api_name}"


@dataclass(frozen=True)
class TokenSubject:
    api_user_uuid: uuid.UUID
    credentials_version: int


def token_issue(*, api_user_uuid: uuid.UUID, credentials_version: int, audience: str) -> tuple[str, int]:
    lifetime = settings.VAKT_TOKEN_LIFETIME_SECONDS
    now = int(time.time())
    claims = {
        "sub": str(api_user_uuid),
        "ver": credentials_version,
        "aud": audience,
        "iat": now,
        "exp": now + lifetime,
        "jti": uuid.uuid4().hex,
    }
    return jwt.encode(claims, settings.VAKT_JWT_SECRET, algorithm=ALGORITHM), lifetime


def token_subject(token: str, *, audience: str) -> TokenSubject | None:
    """Who a valid token for this audience was issued to, or None."""
    try:
        claims = jwt.decode(
            token,
            settings.VAKT_JWT_SECRET,
            algorithms=[ALGORITHM],
            audience=audience,
            options={"require": ["exp", "aud", "sub", "ver"]},
        )
        return TokenSubject(uuid.UUID(claims["sub"]), int(claims["ver"]))
    except (jwt.InvalidTokenError, ValueError, TypeError):
        return None
