"""/members/invite/ sent twice at once for the same email (a double click, two admins): one login,
and the second page says on the email field that they are already a member.

PostgreSQL only: SQLite runs one writing transaction at a time, so the invites cannot overlap."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from portal.models import Member
from service.auth import services
from service.auth.models import AppMembership
from tests.portal.conftest import make_member
from tests.racing import race

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")


def test_the_second_of_two_invites_at_once_says_so_on_the_email_field(transactional_db, monkeypatch):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)

    def invite():
        return admin.client().post("/members/invite/", {"email": "kari@nordbank.no", "full_name": "Kari Nordmann", "role": "officer"})

    first, second = race(monkeypatch, services, "audit_record", invite, invite)

    assert first.status_code == 200 and 'data-testid="invited"' in first.content.decode()
    assert second.status_code == 400
    page = second.content.decode()
    assert 'data-testid="error-email"' in page and "kari@nordbank.no is already a member of the organisation" in page
    assert get_user_model().objects.filter(username="kari@nordbank.no").count() == 1
    assert AppMembership.objects.filter(app_customer=admin.app_customer, email="kari@nordbank.no").count() == 1
