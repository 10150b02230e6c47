"""Fixtures and steps of the screening setup and approvals page tests.

Members of one organisation in each dashboard role, the organisation's API caller for
arranging data through the real API, and the register's Nordlys AS whose owner is Kari.
Monitorings follow a watchlist in a Celery task enqueued on commit; these tests run in a
transaction, so `sync` runs the task's body when the test needs the suggestions.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from portal.models import Member
from service.auth.services import app_membership_create
from service.screening.subscription import config_companies_sync
from tests.conftest import ApiCaller
from tests.portal.conftest import DashboardMember, make_member
from tests.service.screening.helpers import AML, category_uuid, config_make, config_url, monitorings
from tests.service.screening.watchlists.helpers import attach, nordlys_owned_by_kari, watchlist_make


@dataclass
class Org:
    admin: DashboardMember
    api: ApiCaller

    def member(self, username: str, role: str, *, acting: bool = False) -> Client:
        """A client logged in as another member of the same organisation, in `role`; `acting`: with
        a membership of its own in the service, as an invited member has (four-eyes compares them)."""
        user = get_user_model().objects.create_user(username, password="x")
        membership = app_membership_create(app_customer=self.admin.app_customer, email=f"{username}@example.com") if acting else None
        Member.objects.create(user=user, organisation=self.admin.organisation, role=role,
                              app_membership_uuid=membership.uuid if membership else None)
        client = Client()
        client.force_login(user)
        return client


def org_make(name: str, username: str) -> Org:
    admin = make_member(name, username, role=Member.Role.ADMIN)
    membership = app_membership_create(app_customer=admin.app_customer, email=f"{username}@example.com")
    admin.member.app_membership_uuid = membership.uuid
    admin.member.save()
    return Org(admin, ApiCaller(Client(), admin.credentials))


@pytest.fixture
def org(db) -> Org:
    return org_make("Nordbank ASA", "ingrid")


@pytest.fixture
def other_org(db) -> Org:
    return org_make("Fjordkreditt AS", "olav")


@pytest.fixture
def admin(org) -> Client:
    return org.admin.client()


def screening_with_nordlys(org: Org, **config_fields) -> tuple[dict, object]:
    """A config screening UN, a watchlist with Nordlys AS attached, the suggestions made."""
    config = config_make(org.api, **config_fields)
    response = org.api.post(
        config_url(config["uuid"], "/screening-config-screening-list-category"),
        {"screening_list_category_uuid": category_uuid("un_security_council")},
        roles=AML,
    )
    assert response.status_code == 201
    nordlys, _ = nordlys_owned_by_kari()
    assert attach(org.api, config["uuid"], watchlist_make(org.api, "Kunder", companies=[nordlys])).status_code == 201
    sync(config, nordlys)
    return config, nordlys


def sync(config: dict, *companies) -> None:
    config_companies_sync(config_uuid=config["uuid"], company_uuids=[c.uuid for c in companies])


def statuses(org: Org, config: dict) -> dict[str, str]:
    """Entity name -> monitoring status, as the service has it."""
    return {
        row["entity_monitoring"]["monitoring_entity_name"]: row["entity_monitoring_status"]["entity_monitoring_status_key"]
        for row in monitorings(org.api, config["uuid"])
        if not row["entity_monitoring"]["removed_flag"]
    }
