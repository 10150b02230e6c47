"""Building a client from settings: a remote deployment, or this one in-process.

The areas (companies, watchlists, reports, screening, the organisation) are attached here,
so `client.py` knows no area and no area module imports another.
"""

from __future__ import annotations

from collections.abc import Sequence

import requests
from django.conf import settings
from django.core.signals import setting_changed

from portal.service.batches import BatchesArea
from portal.service.holds import HoldsArea
from portal.service.cases import CasesArea
from portal.service.client import ServiceClient
from portal.service.companies import CompaniesArea
from portal.service.organisation import OrganisationAdminArea, OrganisationArea
from portal.service.related import RelatedArea
from portal.service.reports import ReportsArea
from portal.service.runs import RunsArea
from portal.service.screening import ScreeningArea
from portal.service.transport import InProcessAdapter
from portal.service.watchlists import WatchlistsArea

IN_PROCESS_BASE_URL = "http://localhost"
# With VAKT_HTTPS the site redirects http to https; in-process calls never leave the process, so they say https.
IN_PROCESS_HTTPS_BASE_URL = "https://localhost"
# Calls gathered at once against a remote service (one page's reads); requests' pool keeps 10 connections.
REMOTE_CONCURRENT_CALLS = 6
_in_process_adapter = InProcessAdapter()


def _security_setting_changed(*, setting: str, **kwargs) -> None:
    """The in-process handler's middleware read the SECURE_* settings when it was built: a test that
    changes them (SECURE_SSL_REDIRECT) gets a new one, and so do the tests after it, which would
    otherwise be redirected to https (a token POST followed as a GET: 405)."""
    if setting.startswith("SECURE_") or setting == "MIDDLEWARE":
        _in_process_adapter.close()


setting_changed.connect(_security_setting_changed)


class DashboardClient(ServiceClient):
    """The service client with its areas: `client.companies.page(...)`, `client.watchlists.list()` ..."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.companies = CompaniesArea(self)
        self.organisation = OrganisationArea(self)
        self.organisation_admin = OrganisationAdminArea(self)
        self.watchlists = WatchlistsArea(self)
        self.reports = ReportsArea(self)
        self.screening = ScreeningArea(self)
        self.related = RelatedArea(self)
        self.cases = CasesArea(self)
        self.batches = BatchesArea(self)
        self.runs = RunsArea(self)
        self.holds = HoldsArea(self)


def service_client_for(
    *, client_id: str, client_secret: str, role_keys: Sequence[str] = (), app_customer_uuid=None
) -> DashboardClient:
    session = requests.Session()
    base_url = settings.VAKT_SERVICE_URL
    concurrent_calls = REMOTE_CONCURRENT_CALLS
    link_base_url = base_url
    if not base_url:
        base_url = settings.VAKT_BASE_URL or (IN_PROCESS_HTTPS_BASE_URL if settings.VAKT_HTTPS else IN_PROCESS_BASE_URL)
        link_base_url = settings.VAKT_BASE_URL  # empty: links relative to this site
        session.mount("http://", _in_process_adapter)
        session.mount("https://", _in_process_adapter)
        concurrent_calls = 1  # in-process calls share this thread's database connection (see gather)
    return DashboardClient(
        base_url=base_url,
        client_id=client_id,
        client_secret=client_secret,
        role_keys=role_keys,
        timeout=settings.VAKT_SERVICE_TIMEOUT_SECONDS,
        session=session,
        max_concurrent_calls=concurrent_calls,
        app_customer_uuid=app_customer_uuid,
        link_base_url=link_base_url,
    )
