"""The Customer persons tab of the approvals page: found by name, fifty a page."""

from __future__ import annotations

import re

from portal.models import Member
from screening.views_approvals import PERSONS_PER_PAGE
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401
from tests.service.screening.helpers import config_make, customer_person_make

TAB = "/screening/approvals/"


def _names(response) -> list[str]:
    return re.findall(r'data-testid="customer-person"><td><a href="[^"]+">([^<]+)</a>', response.content.decode())


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
    customer_person_make(org.api, config["uuid"], full_name="Cato Never")
    monitoring_make(org.api, config["uuid"], customer_person=screened["uuid"], decision={"approved_flag": True})
    monitoring_make(org.api, config["uuid"], customer_person=waiting["uuid"])

    page = admin.get(TAB, {"view": "persons"}).content.decode()
    rows = [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in re.findall(r'data-testid="customer-person">(.*?)</tr>', page, flags=re.S)]
    # name, birth date, gender, then the monitoring's status
    assert [row.rsplit(" ", 1)[0] for row in rows] == [
        "Anna Screened 17.05.1980 Female Screened",
        "Berit Waiting 17.05.1980 Female Pending",
        "Cato Never 17.05.1980 Female not monitored",
    ]
