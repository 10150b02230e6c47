"""POST /oauth/token: OAuth2 client credentials, answered with OAuth2 bodies."""

from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from service.auth.selectors import api_user_by_token_credentials
from service.auth.tokens import API_NAMES, audience_for, token_issue


def _oauth_error(error: str, description: str, status: int) -> JsonResponse:
    response = JsonResponse({"error": error, "error_description": description}, status=status)
    response["Cache-Control"] = "no-store"
    if status == 401:
        response["WWW-Authenticate"] = 'Basic realm="token"'
    return response


def _read_body(request: HttpRequest) -> dict | None:
    if request.content_type == "application/x-www-form-urlencoded":
        return request.POST.dict()
    try:
        body = json.loads(request.body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


@csrf_exempt
@require_POST
def token(request: HttpRequest) -> JsonResponse:
    body = _read_body(request)
    if body is None:
        return _oauth_error("invalid_request", "The body must be a JSON object.", 400)
    missing = [f for f in ("grant_type", "client_id", "client_secret", "audience") if not body.get(f)]
    if missing:
        return _oauth_error("invalid_request", f"Missing field(s): {', '.join(missing)}.", 400)
    if body["grant_type"] != "client_credentials":
        return _oauth_error("unsupported_grant_type", "Only grant_type client_credentials is supported.", 400)
    audiences = {audience_for(request, name) for name in API_NAMES}
    audience = str(body["audience"]).rstrip("/")
    if audience not in audiences:
        return _oauth_error(
            "invalid_target", f"Unknown audience; use one of: {', '.join(sorted(audiences))}.", 400
        )
    api_user = api_user_by_token_credentials(client_id=str(body["client_id"]), secret=str(body["client_secret"]))
    if api_user is None:
        return _oauth_error("invalid_client", "Unknown client or wrong secret.", 401)
    access_token, lifetime = token_issue(
        api_user_uuid=api_user.uuid, credentials_version=api_user.credentials_version, audience=audience
    )
    response = JsonResponse({"access_token": access_token, "token_type": "Bearer", "expires_in": lifetime})
    response["Cache-Control"] = "no-store"
    return response
