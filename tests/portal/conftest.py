"""Dashboard fixtures: an organisation in the service, its API user, and a member who logs in.

The member's Organisation holds the API user's *token* credentials, exactly as a
deployment would be set up; the dashboard reaches the service through them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.test import Client

from portal.models import Member, Organisation
from service.auth.models import AppCustomer
from service.auth.services import IssuedCredentials, api_user_create, app_customer_create, app_membership_create
from tests.conftest import ALL_ROLES

PASSWORD = "correct horse battery staple"


@dataclass
class DashboardMember:
    user: AbstractUser
    member: Member
    organisation: Organisation
    app_customer: AppCustomer
    credentials: IssuedCredentials
    password: str = PASSWORD

    @property
    def username(self) -> str:
        return self.user.get_username()

    def client(self) -> Client:
        client = Client()
        client.force_login(self.user)
        return client


def make_member(
    org_name: str, username: str, *, roles=ALL_ROLES, role: str = Member.Role.OFFICER
) -> DashboardMember:
    app_customer = app_customer_create(name=org_name)
    credentials = api_user_create(app_customer=app_customer, name=f"{org_name} dashboard", role_keys=roles)
    organisation = Organisation(
        name=org_name,
        app_customer_uuid=app_customer.uuid,
        api_client_id=credentials.token_auth_id,
        api_role_keys=",".join(roles),
    )
    organisation.api_client_secret = credentials.token_auth_secret
    organisation.save()
    user = get_user_model().objects.create_user(username, email=f"{username}@example.com", password=PASSWORD)
    # Every member is also a person in the service: the reviewer, decider and actor of the audit log.
    person = app_membership_create(app_customer=app_customer, email=user.email, full_name=username.title())
    member = Member.objects.create(user=user, organisation=organisation, role=role, app_membership_uuid=person.uuid)
    return DashboardMember(user, member, organisation, app_customer, credentials)



@pytest.fixture
def member(db) -> DashboardMember:
    return make_member("Nordbank ASA", "ingrid")


@pytest.fixture
def other_member(db) -> DashboardMember:
    """A member of another organisation: nothing of it may show up for `member`."""
    return make_member("Fjordkreditt AS", "olav")


def add_member(colleague: DashboardMember, username: str, role: str) -> DashboardMember:
    """Another member of `colleague`'s organisation, with their own person in the service."""
    user = get_user_model().objects.create_user(username, email=f"{username}@example.com", password=PASSWORD)
    person = app_membership_create(app_customer=colleague.app_customer, email=user.email, full_name=username.title())
    member = Member.objects.create(
        user=user, organisation=colleague.organisation, role=role, app_membership_uuid=person.uuid
    )
    return DashboardMember(user, member, colleague.organisation, colleague.app_customer, colleague.credentials)
