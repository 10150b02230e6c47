"""Two invites of the same new email at once: one member, and the second invite is the same 400
as an invite after the first, naming the email (not a 500 from the unique constraint).

PostgreSQL only: SQLite runs one writing transaction at a time, so the invites cannot overlap."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from service.audit.models import AuditEvent
from service.auth import services
from service.auth.models import AppMembership
from tests.conftest import ApiCaller
from tests.racing import race
from tests.service.auth.test_admin_memberships import ADMIN, _members_url, _post

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")


def test_the_second_of_two_invites_at_once_is_a_400_naming_the_email(transactional_db, api, monkeypatch):
    def invite():
        caller = ApiCaller(Client(raise_request_exception=False), api.credentials)  # a client per thread
        return _post(caller, _members_url(api), {"email": "kari@nordbank.no", "full_name": "Kari"}, roles=ADMIN)

    first, second = race(monkeypatch, services, "audit_record", invite, invite)

    assert first.status_code == 201, first.content
    assert second.status_code == 400, second.content
    assert second.json()["code"] == "already_member"
    assert second.json()["errors"][0]["loc"] == ["body", "email"]
    assert AppMembership.objects.filter(email="kari@nordbank.no").count() == 1
    assert AuditEvent.objects.filter(action_key="app_membership.invite").count() == 1
