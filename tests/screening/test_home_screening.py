"""The home page's screening card: open cases by status and companies awaiting approval, from the
organisation's cached screening state (screening.freshness)."""

from __future__ import annotations

import re

from portal.models import Member
from screening import freshness
from tests.portal.conftest import make_member
from tests.screening.steps import api_of, cases, company_with_owners, config_with, review
from tests.service.screening.cases.conftest import UN_PERSON, lists  # noqa: F401 (fixture)

HOME = "/"


def figure(page: str, name: str) -> str:
    return re.search(rf'data-testid="{name}">([^<]*)<', page).group(1)


def test_the_work_list_shows_open_cases_by_status_and_follows_a_members_action(transactional_db, lists):
    member = make_member("Nordbank ASA", "ingrid", role=Member.Role.OFFICER)
    api = api_of(member)
    config = config_with(api, "un_security_council")
    company_with_owners(api, config["uuid"], "Nordlys Shipping AS", "912345670", screened=(UN_PERSON,), pending=("Kari Nordmann",))
    client = member.client()

    page = client.get(HOME).content.decode()

    assert (figure(page, "home-open-cases"), figure(page, "home-cases-new"), figure(page, "home-cases-in-review")) == ("1", "1", "0")
    assert figure(page, "home-pending-companies") == "1"
    [case] = cases(api, config["uuid"])["elements"]
    review(api, config["uuid"], case["screening_case"]["uuid"], "in_review", "possible_match")
    assert figure(client.get(HOME).content.decode(), "home-cases-new") == "1"  # cached until forgotten
    freshness.forget(organisation_uuid=member.organisation.app_customer_uuid)  # what a review in the dashboard does
    page = client.get(HOME).content.decode()
    assert (figure(page, "home-cases-new"), figure(page, "home-cases-in-review")) == ("0", "1")
    assert 'data-testid="home-confirmed-companies"' not in page

    review(api, config["uuid"], case["screening_case"]["uuid"], "confirmed_hit", "match")
    freshness.forget(organisation_uuid=member.organisation.app_customer_uuid)
    page = client.get(HOME).content.decode()
    assert figure(page, "home-open-cases") == "0" and figure(page, "home-confirmed-companies") == "1"
    assert '<a href="/screening/related-companies/?show=confirmed">Companies with a confirmed hit</a>' in page


def test_officers_and_admins_find_the_name_check_from_the_card(transactional_db, lists):
    officer = make_member("Nordbank ASA", "ingrid", role=Member.Role.OFFICER)
    viewer = make_member("Nordbank ASA", "vilde", role=Member.Role.VIEWER)
    config_with(api_of(officer), "un_security_council")

    link = officer.client().get(HOME).content.decode().split('data-testid="home-name-check"')[0].rsplit("<a", 1)[1]
    assert 'href="/screening/batches/#name-check"' in link
    assert 'data-testid="home-name-check"' not in viewer.client().get(HOME).content.decode()  # viewers read, they do not check


def test_no_card_for_an_organisation_that_cannot_screen(db):
    member = make_member("Smaabank AS", "siv", roles=["credit_check"])

    page = member.client().get(HOME).content.decode()

    assert 'data-testid="work-screening"' not in page and 'data-testid="work-reports"' in page


def test_customer_persons_awaiting_approval_have_a_row_of_their_own(transactional_db, lists):
    from tests.service.screening.helpers import customer_person_make, monitoring_make

    member = make_member("Nordbank ASA", "ingrid", role=Member.Role.ADMIN)
    api = api_of(member)
    config = config_with(api, "un_security_council")
    company_with_owners(api, config["uuid"], "Nordlys Shipping AS", "912345670", pending=("Kari Nordmann",))
    client = member.client()
    assert 'data-testid="home-pending-customer-persons"' not in client.get(HOME).content.decode()  # none waits: no row

    for name in ("Jon Egil Dahl", "Ola Nordvik"):
        person = customer_person_make(api, config["uuid"], full_name=name)
        monitoring_make(api, config["uuid"], customer_person=person["uuid"])
    screened = customer_person_make(api, config["uuid"], full_name="Per Hansen")
    monitoring_make(api, config["uuid"], customer_person=screened["uuid"], decision={"approved_flag": True})
    freshness.forget(organisation_uuid=member.organisation.app_customer_uuid)

    page = client.get(HOME).content.decode()
    assert figure(page, "home-pending-companies") == "1"  # the company's owner, not the customer persons
    assert figure(page, "home-pending-customer-persons") == "2"
    row = page.split('data-testid="home-pending-customer-persons"')[0].rsplit("<tr>", 1)[1]
    assert '<a href="/screening/approvals/">Customer persons awaiting approval</a>' in row
