"""Cases for the dashboard's screening tests, made the way the service tests make them: a config
with the UN category, persons put into screening through the HTTP API, the run on commit."""

from __future__ import annotations

from dataclasses import dataclass

from django.test import Client

from portal.models import Member
from portal.service import ServiceUnavailable
from portal.service.screening import ScreeningArea
from service.auth.models import AppCustomer
from service.auth.services import app_membership_create
from service.companies.models import Company, Person
from service.screening.models import ScreeningCase
from tests.conftest import ApiCaller
from tests.portal.conftest import DashboardMember, make_member
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import config_with, customer_person_screened
from tests.service.screening.helpers import monitoring_make

QUEUE = "/screening/cases/"


def case_url(case_uuid) -> str:
    return f"{QUEUE}{case_uuid}/"


def api_of(member: DashboardMember) -> ApiCaller:
    """The member's organisation's API user, to set things up through the API."""
    return ApiCaller(Client(), member.credentials)


def member_make(org_name: str, username: str, role: str = Member.Role.OFFICER, *, like: DashboardMember | None = None) -> DashboardMember:
    """A dashboard member who is also a person of the service (the reviewer identity). With `like`,
    a second member of `like`'s organisation."""
    if like is None:
        member = make_member(org_name, username, role=role)
    else:
        from django.contrib.auth import get_user_model

        from tests.portal.conftest import PASSWORD

        user = get_user_model().objects.create_user(username, email=f"{username}@example.com", password=PASSWORD)
        record = Member.objects.create(user=user, organisation=like.organisation, role=role)
        member = DashboardMember(user, record, like.organisation, like.app_customer, like.credentials)
    organisation = AppCustomer.objects.get(uuid=member.app_customer.uuid)
    membership = app_membership_create(app_customer=organisation, email=member.user.email)
    member.member.app_membership_uuid = membership.uuid
    member.member.save(update_fields=["app_membership_uuid"])
    return member


@dataclass
class Screened:
    config_uuid: str
    sanction_case: ScreeningCase  # Ivan Dragunov, owner of Nordlys AS, on the UN list
    pep_case: ScreeningCase  # Ingrid Solbakken, a customer person, on the PEP list
    company: Company


def cases_make(member: DashboardMember) -> Screened:
    """Two pending cases: a UN sanction hit on a beneficial owner of Nordlys AS, and a PEP hit
    on a customer person (no company)."""
    api = api_of(member)
    config = config_with(api, "un_security_council")
    company = Company.objects.create(name="Nordlys AS", org_nr="912345670")
    owner = Person.objects.create(full_name=UN_PERSON, birth_date="1966-03-14", nationality="ru")
    monitoring_make(api, config["uuid"], person=owner.uuid, type_key="beneficial_owners", related_company=company.uuid,
                    decision={"approved_flag": True})
    customer_person_screened(api, config["uuid"], PEP_PERSON, "1961-09-30")
    return Screened(
        config_uuid=config["uuid"],
        sanction_case=ScreeningCase.objects.get(entity_inquiry__person=owner),
        pep_case=ScreeningCase.objects.get(pep_flag=True, screening_config_id=config["uuid"]),
        company=company,
    )


def service_down(monkeypatch, method: str) -> None:
    """The dashboard's call `ScreeningArea.<method>` finds the service unreachable."""
    def down(*args, **kwargs):
        raise ServiceUnavailable(0, "unreachable", "connection refused")

    monkeypatch.setattr(ScreeningArea, method, down)


def never_sent(monkeypatch, method: str) -> None:
    """The dashboard's call `ScreeningArea.<method>` fails the test if it is made."""
    def never(*args, **kwargs):
        raise AssertionError(f"nothing should be sent: {method} was called")

    monkeypatch.setattr(ScreeningArea, method, never)
