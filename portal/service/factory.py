"""Building a client from settings: a remote deployment, or this one in-process."""

from __future__ import annotations

from collections.abc import Sequence

import requests
from django.conf import settings

from portal.service.client import ServiceClient
from portal.service.transport import InProcessAdapter

IN_PROCESS_BASE_URL = "http://localhost"
_in_process_adapter = InProcessAdapter()


def service_client_for(*, client_id: str, client_secret: str, role_keys: Sequence[str] = ()) -> ServiceClient:
    session = requests.Session()
    base_url = settings.VAKT_SERVICE_URL
    if not base_url:
        base_url = settings.VAKT_BASE_URL or IN_PROCESS_BASE_URL
        session.mount("http://", _in_process_adapter)
        session.mount("https://", _in_process_adapter)
    return ServiceClient(
        base_url=base_url,
        client_id=client_id,
        client_secret=client_secret,
        role_keys=role_keys,
        timeout=settings.VAKT_SERVICE_TIMEOUT_SECONDS,
        session=session,
    )
