"""Screening data for the dashboard's screening tests, made through the service's HTTP API
(as tests/service/screening/ does): a config, companies with owner monitorings, reviews."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client

from portal.models import Member
from service.companies.models import Company, Person
from tests.conftest import ApiCaller
from tests.portal.conftest import PASSWORD, DashboardMember
from tests.service.screening.cases.steps import cases, config_with, review
from tests.service.screening.helpers import monitoring_make

__all__ = ["api_of", "cases", "company_with_owners", "config_with", "member_like", "review"]


def api_of(member: DashboardMember) -> ApiCaller:
    """The member's organisation as an API caller (its API user holds every role)."""
    return ApiCaller(Client(), member.credentials)


def member_like(member: DashboardMember, username: str, role: str) -> DashboardMember:
    """Another member of the same organisation, with `role`."""
    user = get_user_model().objects.create_user(username, email=f"{username}@example.com", password=PASSWORD)
    other = Member.objects.create(user=user, organisation=member.organisation, role=role)
    return DashboardMember(user, other, member.organisation, member.app_customer, member.credentials)


def company_with_owners(
    caller, config_uuid, name: str, org_nr: str, *, screened: tuple[str, ...] = (), pending: tuple[str, ...] = ()
) -> Company:
    """A company whose owners are monitored: `screened` approved (their run starts on commit), `pending` not."""
    company = Company.objects.create(name=name, org_nr=org_nr)
    for full_name in pending:
        person = Person.objects.create(full_name=full_name)
        monitoring_make(caller, config_uuid, person=person.uuid, type_key="beneficial_owners", related_company=company.uuid)
    for full_name in screened:
        person = Person.objects.create(full_name=full_name)
        monitoring_make(
            caller, config_uuid, person=person.uuid, type_key="beneficial_owners", related_company=company.uuid,
            decision={"approved_flag": True},
        )
    return company
