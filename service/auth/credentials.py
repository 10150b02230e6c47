"""Generating and checking API secrets."""

import hashlib
import hmac
import secrets

from django.conf import settings


def secret_generate() -> str:
    return secrets.token_urlsafe(32)


def client_id_generate(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(10)}"


def secret_hash(secret: str) -> str:
    # Keyed with SECRET_KEY so a leaked database alone does not allow offline checks.
    return hmac.new(settings.SECRET_KEY.encode(), secret.encode(), hashlib.sha256).hexdigest()


def secret_matches(secret: str, stored_hash: str) -> bool:
    return hmac.compare_digest(secret_hash(secret), stored_hash)
