"""The file session as an auth method of the download operation only (spec §5.4).

ninja tries the operation's auth methods in order: basic, bearer, then this one, which
admits a request carrying `file_session_uuid` of an existing, unexpired session. The
session is bound to one file; the download view checks that the path is that file.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.http import HttpRequest
from ninja.security import APIKeyQuery

from service.reports.selectors import file_session_active


@dataclass(frozen=True)
class FileSessionGrant:
    session_uuid: uuid.UUID
    app_customer_uuid: uuid.UUID
    file_path: str


class FileSessionAuth(APIKeyQuery):
    param_name = "file_session_uuid"

    def authenticate(self, request: HttpRequest, key: str | None) -> FileSessionGrant | None:
        if not key:
            return None
        session = file_session_active(session_uuid=key)
        if session is None:
            return None
        return FileSessionGrant(session.uuid, session.app_customer_id, session.file_path)
