"""What every screening endpoint shares: the `aml` role, 404s that name a field, app URLs.

Every screening endpoint needs `aml` (DESIGN.md, roles per endpoint). A uuid that names no
record, or a record of another organisation, is a 404 whether it sits in the path or in
the body; for the body the error names the field, so a caller knows which uuid was wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.http import HttpRequest

from service.auth.principal import Principal, require_roles
from service.companies.references import app_url
from service.errors import found, not_found  # noqa: F401 (the screening endpoints' 404s)

AML = "aml"
NATIONAL_ID = "person_national_identification"
EXTENSION = {"x-vakt-extension": True}


def aml_principal(request: HttpRequest) -> Principal:
    return require_roles(request, AML)


def screening_app_url(path: str) -> str:
    """The dashboard page of a screening record (configs, monitorings, customer persons,
    cases), built like every other app_url (absolute when VAKT_BASE_URL is set)."""
    return app_url(path)
