"""The Customer persons tab of the approvals page: found by name, fifty a page."""

from __future__ import annotations

import re

from dateutil.relativedelta import relativedelta
from django.utils import timezone

from portal.models import Member
from service.screening.models import CustomerPerson
from screening.customer_persons_tab import PERSONS_PER_PAGE
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401
from tests.service.screening.helpers import config_make, customer_person_make

TAB = "/screening/approvals/"


def _names(response) -> list[str]:
    return re.findall(r'data-testid="customer-person"><td class="stack-title"><a href="[^"]+">([^<]+)</a>', response.content.decode())


def test_it_finds_customer_persons_by_a_part_of_their_name(org, admin):
    config = config_make(org.api)
    for name in ("Kari Nordmann", "Ola Nordvik", "Per Hansen"):
        customer_person_make(org.api, config["uuid"], full_name=name)

    response = admin.get(TAB, {"view": "persons", "q": "  nord  "})
    assert _names(response) == ["Kari Nordmann", "Ola Nordvik"]
    assert 'value="nord"' in response.content.decode()  # the search stays in its box
    assert _names(admin.get(TAB, {"view": "persons"})) == ["Kari Nordmann", "Ola Nordvik", "Per Hansen"]


def test_it_says_when_no_name_contains_the_search(org, admin):
    config = config_make(org.api)
    customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")

    page = admin.get(TAB, {"view": "persons", "q": "Solberg"}).content.decode()
    assert "No customer person’s name contains “Solberg”." in page
    assert "No customer persons yet" not in page


def test_it_pages_through_customer_persons_keeping_the_search(org, admin):
    config = config_make(org.api)
    names = [f"Kari Nordmann {n:03d}" for n in range(PERSONS_PER_PAGE + 2)]
    for name in names:
        customer_person_make(org.api, config["uuid"], full_name=name)
    customer_person_make(org.api, config["uuid"], full_name="Per Hansen")

    first = admin.get(TAB, {"view": "persons", "q": "nordmann"})
    assert _names(first) == names[:PERSONS_PER_PAGE]
    assert 'href="?view=persons&q=nordmann&page=2">Next</a>' in first.content.decode()
    second = admin.get(TAB, {"view": "persons", "q": "nordmann", "page": "2"})
    assert _names(second) == names[PERSONS_PER_PAGE:]
    assert "Next</a>" not in second.content.decode()
    assert 'href="?view=persons&q=nordmann&page=1">Previous</a>' in second.content.decode()


def test_officers_search_too_and_see_only_their_organisations_persons(org, other_org):
    config = config_make(org.api)
    customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")
    customer_person_make(other_org.api, config_make(other_org.api)["uuid"], full_name="Kari Nordmo")
    officer = org.member("oline", Member.Role.OFFICER)

    assert _names(officer.get(TAB, {"view": "persons", "q": "kari"})) == ["Kari Nordmann"]


def test_each_person_shows_whether_they_are_screened(org, admin):
    from tests.service.screening.helpers import monitoring_make

    config = config_make(org.api)
    screened = customer_person_make(org.api, config["uuid"], full_name="Anna Screened")
    waiting = customer_person_make(org.api, config["uuid"], full_name="Berit Waiting")
    never = customer_person_make(org.api, config["uuid"], full_name="Cato Never")
    monitoring_make(org.api, config["uuid"], customer_person=screened["uuid"], decision={"approved_flag": True})
    monitoring_make(org.api, config["uuid"], customer_person=waiting["uuid"])

    page = admin.get(TAB, {"view": "persons"}).content.decode()
    rows = [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in re.findall(r'data-testid="customer-person">(.*?)</tr>', page, flags=re.S)]
    # name, customer reference (none: "–"), birth date, gender, then the monitoring's status (and how long one
    # not monitored is kept)
    added = CustomerPerson.objects.get(uuid=never["uuid"]).create_timestamp
    kept_until = timezone.localtime(added + relativedelta(years=5)).strftime("%d.%m.%Y")
    assert [row.rsplit(" ", 1)[0] for row in rows] == [
        "Anna Screened – 15.10.1986 Female Screened",
        "Berit Waiting – 15.10.1986 Female Pending",
        f"Cato Never – 15.10.1986 Female not monitored kept until {kept_until}",
    ]


def _national_id_add(api, person, number: str, schema: str = "NO") -> None:
    from tests.service.screening.helpers import customer_person_url

    body = {"national_identification_schema": schema, "national_identification_number": number}
    response = api.post(customer_person_url(person["uuid"], "/customer-person-national-identification"), body,
                        roles=["aml", "person_national_identification"])
    assert response.status_code == 201, response.json()


def test_it_finds_a_customer_person_by_national_id_however_it_is_written(org, admin):
    config = config_make(org.api)
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")
    customer_person_make(org.api, config["uuid"], full_name="Per Hansen")
    sven = customer_person_make(org.api, config["uuid"], full_name="Sven Svensson", birth_date="1988-03-20")
    _national_id_add(org.api, kari, "15108695088")
    _national_id_add(org.api, sven, "19880320-0016", schema="SE")

    assert 'placeholder="Find a customer person by name, customer reference or national id"' in admin.get(TAB, {"view": "persons"}).content.decode()
    assert _names(admin.get(TAB, {"view": "persons", "q": "151086 95088"})) == ["Kari Nordmann"]
    assert _names(admin.get(TAB, {"view": "persons", "q": "880320-0016"})) == ["Sven Svensson"]  # without the century
    page = admin.get(TAB, {"view": "persons", "q": "01010100131"}).content.decode()  # a valid number nobody has
    assert "No customer person has the national id or the customer reference “01010100131”." in page


def test_without_the_national_id_role_digits_are_a_name_search(db):
    from django.test import Client

    from tests.conftest import ALL_ROLES, ApiCaller
    from tests.portal.conftest import make_member

    roles = [key for key in ALL_ROLES if key != "person_national_identification"]
    member = make_member("Nordbank ASA", "ingrid", roles=roles, role=Member.Role.ADMIN)
    api = ApiCaller(Client(), member.credentials)
    config = config_make(api)
    customer_person_make(api, config["uuid"], full_name="Kari Nordmann")

    page = member.client().get(TAB, {"view": "persons", "q": "15108695088"}).content.decode()
    assert 'placeholder="Find a customer person by name or customer reference"' in page
    assert "No customer person’s name contains “15108695088”." in page  # nobody learns who has a number
