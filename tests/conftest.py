"""Fixtures shared by every test: organisations, API users and an API caller.

`api` calls the real URLs with basic auth of an API user that has every role
assigned; pass `roles=` to send the Nk-Role-Keys header.
"""

from __future__ import annotations

import base64
import hashlib
import json as jsonlib
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from portal.celery import app as celery_app

from service.auth.models import ROLE_KEYS
from service.auth.principal_cache import callers_forget
from service.auth.services import IssuedCredentials, api_user_create, app_customer_create
from tests import flush as tests_flush

# Tests clear the cache, so on Redis they use a database of their own (9), never the one
# REDIS_URL names, which may hold a running system's queues; there each checkout and parallel
# worker has a key prefix of its own, which is all its `clear` deletes (tests/redis_cache.py).
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if settings.REDIS_URL:
    _url = urlsplit(settings.REDIS_URL)
    _checkout = hashlib.sha256(str(Path(__file__).resolve().parents[1]).encode()).hexdigest()[:12]
    settings.CACHES["default"].update(
        BACKEND="tests.redis_cache.RunRedisCache",
        LOCATION=urlunsplit(_url._replace(path="/9")),
        KEY_PREFIX=f"test-{_checkout}-{_worker or 'main'}",
    )
else:
    # The embedded default's file cache is shared by processes: each worker gets a folder of its own.
    settings.CACHES["default"]["LOCATION"] = tempfile.mkdtemp(prefix=f"vakt-test-cache-{_worker or 'main'}-")

# The committing tests' flush by DELETE on PostgreSQL, keeping what post_migrate writes anyway.
tests_flush.install()

# Tasks run in-process in tests; the worker's wiring is tested separately.
celery_app.conf.task_always_eager = True
celery_app.conf.task_eager_propagates = True

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
ALL_ROLES = [key for key, _ in ROLE_KEYS]


def pytest_sessionstart(session):
    """Compile the matching kernels once, in the process that starts the run (xdist's controller
    runs this before it starts its workers): on a fresh clone numba has no cache yet, and each
    worker, and each Celery worker a reliability test starts, would otherwise compile them
    itself, for a minute and more each, inside some test's timeout."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        from service.screening.matching import warm_up

        warm_up()


def shared_file(relative: str) -> Path:
    """A file under ../shared/data, or skip the test saying what is missing."""
    path = SHARED_DATA / relative
    if not path.exists():
        pytest.skip(f"shared data file {relative} is absent (expected at {path})")
    return path


@dataclass
class ApiCaller:
    client: Client
    credentials: IssuedCredentials

    @property
    def app_customer_uuid(self):
        return self.credentials.api_user.app_customer_id

    def headers(self, roles=None) -> dict:
        raw = f"{self.credentials.basic_auth_id}:{self.credentials.basic_auth_secret}".encode()
        headers = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(raw).decode()}
        if roles:
            headers["HTTP_NK_ROLE_KEYS"] = ",".join(roles)
        return headers

    def get(self, path: str, params: dict | None = None, *, roles=None):
        return self.client.get(path, params or {}, **self.headers(roles))

    def post(self, path: str, body=None, *, roles=None):
        return self.client.post(
            path, jsonlib.dumps(body), content_type="application/json", **self.headers(roles)
        )

    def delete(self, path: str, *, roles=None):
        return self.client.delete(path, **self.headers(roles))


@pytest.fixture(autouse=True)
def _clear_cache():
    # Rate-limit and login-throttle counters live in the cache; tests must not share them.
    cache.clear()
    callers_forget()
    yield
    cache.clear()
    callers_forget()


def make_caller(name: str, roles=ALL_ROLES) -> ApiCaller:
    organisation = app_customer_create(name=name)
    credentials = api_user_create(app_customer=organisation, name=f"{name} API user", role_keys=roles)
    return ApiCaller(Client(), credentials)


@pytest.fixture
def api(db) -> ApiCaller:
    return make_caller("Nordbank ASA")


@pytest.fixture
def other_api(db) -> ApiCaller:
    """A second organisation: its data must never be visible to `api`, and the reverse."""
    return make_caller("Fjordkreditt AS")


@dataclass
class StoppedClock:
    """django.utils.timezone's clock, stopped at `now` (set it to move the clock)."""

    now: datetime

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def stopped_clock(monkeypatch) -> StoppedClock:
    """Stops the service's clock where the test starts: timezone.now(), and timezone.localdate()
    and localtime(), which read it. A test that works out "today" and code that works it out
    again then agree even when the run crosses midnight in Oslo (22:00 or 23:00 UTC)."""
    clock = StoppedClock(timezone.now())
    monkeypatch.setattr(timezone, "now", clock)
    return clock
