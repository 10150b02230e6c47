"""The service's own rate limit, forced for a dashboard test: the organisation's API user has spent its
requests for the minute, so every call the dashboard makes for a member is answered 429 (ServiceRateLimited)."""

from __future__ import annotations

from django.test import Client

from tests.conftest import ApiCaller
from tests.portal.conftest import DashboardMember

BUSY = "The service is busy with many requests just now. Try again in a minute."


def service_busy(settings, member: DashboardMember) -> None:
    settings.VAKT_RATE_LIMIT_PER_MINUTE = 1
    ApiCaller(Client(), member.credentials).get("/analysis/v1/auth-status")  # the minute's one request
