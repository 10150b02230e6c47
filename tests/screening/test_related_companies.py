"""The related companies page, /screening/related-companies/: each watchlisted company with its
screening state, filters in the URL, the cached state and its refresh, tenancy and roles."""

from __future__ import annotations

import re

import pytest

from portal.models import Member
from screening import freshness
from tests.portal.conftest import make_member
from tests.screening.steps import api_of, cases, company_with_owners, config_with, member_like, review
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON, lists  # noqa: F401 (fixture)

PAGE = "/screening/related-companies/"
REFRESH = "/screening/related-companies/refresh/"


@pytest.fixture
def member(transactional_db):
    return make_member("Nordbank ASA", "ingrid", role=Member.Role.ADMIN)


@pytest.fixture
def screening(member, lists):
    """Nordlys: a screened owner on the UN list and a pending owner; Fjellvegen: a pending owner only;
    Brygga: a screened owner who is on no list."""
    api = api_of(member)
    config = config_with(api, "un_security_council", "pep")
    companies = {
        "Nordlys": company_with_owners(api, config["uuid"], "Nordlys Shipping AS", "912345670", screened=(UN_PERSON,), pending=("Kari Nordmann",)),
        "Fjellvegen": company_with_owners(api, config["uuid"], "Fjellvegen Eiendom AS", "923456781", pending=("Ola Nordmann", "Per Hansen")),
        "Brygga": company_with_owners(api, config["uuid"], "Brygga Regnskap AS", "934567892", screened=("Liv Ullmannsen",)),
    }
    return api, config, companies


def rows(html: str) -> list[dict]:
    """Each table row as the cells a reader sees."""
    found = []
    for row in re.findall(r'<tr data-testid="related-row".*?</tr>', html, re.DOTALL):
        cell = lambda name: re.sub(r"<[^>]+>|\s+", " ", re.search(rf'data-testid="{name}"[^>]*>(.*?)</(td|a)>', row, re.DOTALL).group(1)).strip()
        found.append({
            "name": cell("company-name"), "state": cell("state"), "active": cell("active"),
            "pending": cell("pending"), "open": cell("open"), "html": row,
        })
    return found


def test_it_shows_each_company_with_its_state_those_needing_attention_first(member, screening):
    _, _, companies = screening

    response = member.client().get(PAGE)

    assert response.status_code == 200
    html = response.content.decode()
    shown = rows(html)
    assert [r["name"] for r in shown] == ["Nordlys Shipping AS", "Fjellvegen Eiendom AS", "Brygga Regnskap AS"]
    nordlys, fjellvegen, brygga = shown
    assert (nordlys["active"], nordlys["pending"], nordlys["open"]) == ("1", "1", "1")
    assert "Sanction hit" in nordlys["state"] and "Awaiting approval" in nordlys["state"]
    assert (fjellvegen["active"], fjellvegen["pending"], fjellvegen["open"]) == ("0", "2", "0")
    assert fjellvegen["state"] == "Awaiting approval"
    assert (brygga["active"], brygga["pending"], brygga["open"]) == ("1", "0", "0")
    assert brygga["state"] == "Screened, nothing open"
    uuid = companies["Nordlys"].uuid
    assert f'href="/screening/cases/?company={uuid}"' in nordlys["html"]
    assert f'href="/screening/approvals/?company={uuid}"' in nordlys["html"]  # an admin approves
    assert re.search(r'data-testid="open-cases">1<', html) and re.search(r'data-testid="open-sanction">1<', html)
    assert re.search(r'data-testid="pending-companies">2<', html)
    # The cards count cases, the filters companies: their labels say which.
    assert re.search(r'>With open sanction hits <span class="badge[^"]*">1<', html)
    assert re.search(r'>With open PEP hits <span class="badge[^"]*">0<', html)
    assert "Updated just now" in html


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("show=open-hits", ["Nordlys Shipping AS"]),
        ("show=confirmed", []),
        ("show=sanction", ["Nordlys Shipping AS"]),
        ("show=pep", []),
        ("show=pending-approvals", ["Nordlys Shipping AS", "Fjellvegen Eiendom AS"]),
        ("show=not-screened", ["Fjellvegen Eiendom AS"]),
        ("q=brygga", ["Brygga Regnskap AS"]),
        ("q=923+456+781", ["Fjellvegen Eiendom AS"]),
        ("show=pending-approvals&q=fjell", ["Fjellvegen Eiendom AS"]),
    ],
)
def test_filters_in_the_url_keep_only_the_chosen_companies(member, screening, query, expected):
    html = member.client().get(f"{PAGE}?{query}").content.decode()

    assert [r["name"] for r in rows(html)] == expected
    if not expected:
        assert 'data-testid="no-match"' in html and "Show all companies" in html


def test_a_confirmed_sanction_hit_stays_red_and_first_once_its_case_is_closed(member, screening):
    api, config, _ = screening
    [case] = cases(api, config["uuid"])["elements"]
    assert review(api, config["uuid"], case["screening_case"]["uuid"], "confirmed_hit", "match").status_code == 201
    freshness.forget(organisation_uuid=member.organisation.app_customer_uuid)

    html = member.client().get(PAGE).content.decode()

    nordlys = rows(html)[0]
    assert nordlys["name"] == "Nordlys Shipping AS" and nordlys["open"] == "0"
    assert "Confirmed sanction hit" in nordlys["state"] and "Screened, nothing open" not in nordlys["state"]
    assert re.search(r'>With confirmed hits <span class="badge[^"]*">1<', html)
    assert [r["name"] for r in rows(member.client().get(f"{PAGE}?show=confirmed").content.decode())] == [
        "Nordlys Shipping AS"]


def test_another_organisations_companies_never_appear(member, screening):
    other = make_member("Fjordkreditt AS", "olav", role=Member.Role.ADMIN)
    other_api = api_of(other)
    other_config = config_with(other_api)
    company_with_owners(other_api, other_config["uuid"], "Fjordkreditt Kunde AS", "945678903", pending=("Siri Berg",))

    mine = member.client().get(PAGE).content.decode()
    theirs = other.client().get(PAGE).content.decode()

    assert "Fjordkreditt Kunde AS" not in mine and len(rows(mine)) == 3
    assert [r["name"] for r in rows(theirs)] == ["Fjordkreditt Kunde AS"]
    assert "Nordlys" not in theirs and "Brygga" not in theirs


def test_a_viewer_reads_the_page_but_is_not_offered_approvals(member, screening):
    viewer = member_like(member, "vera", Member.Role.VIEWER)

    html = viewer.client().get(PAGE).content.decode()

    assert [r["name"] for r in rows(html)][0] == "Nordlys Shipping AS"
    assert 'data-testid="approvals-link"' not in html and 'data-testid="cases-link"' in html
    assert 'data-testid="nav-related"' in html


def test_the_page_shows_the_cached_state_until_refreshed_or_forgotten(member, screening):
    api, config, _ = screening
    client = member.client()
    assert rows(client.get(PAGE).content.decode())[0]["open"] == "1"
    [case] = cases(api, config["uuid"])["elements"]

    # A review made elsewhere (through the API): the cached page does not know yet.
    assert review(api, config["uuid"], case["screening_case"]["uuid"], "false_positive").status_code == 201
    assert rows(client.get(PAGE).content.decode())[0]["open"] == "1"

    response = client.post(REFRESH, {"next": f"{PAGE}?show=all"}, follow=True)
    assert response.redirect_chain == [(f"{PAGE}?show=all", 302)]
    html = response.content.decode()
    assert "Screening state refreshed" in html
    nordlys = next(r for r in rows(html) if r["name"] == "Nordlys Shipping AS")
    assert nordlys["open"] == "0" and "Sanction hit" not in nordlys["state"]

    # A member's own action forgets the cached state: the next read goes to the service.
    review(api, config["uuid"], case["screening_case"]["uuid"], "in_review", "possible_match")
    freshness.forget(organisation_uuid=member.organisation.app_customer_uuid)
    html = client.get(PAGE).content.decode()
    assert rows(html)[0]["name"] == "Nordlys Shipping AS" and rows(html)[0]["open"] == "1"


def test_a_refresh_goes_back_only_to_this_site(member, screening):
    response = member.client().post(REFRESH, {"next": "https://evil.example/"})

    assert response.status_code == 302 and response["Location"] == PAGE


def test_it_says_what_is_missing_before_setup_and_before_a_watchlist_is_attached(member, lists):
    officer = member_like(member, "otto", Member.Role.OFFICER)
    before = member.client().get(PAGE).content.decode()
    assert 'data-testid="no-config"' in before and "Set up screening" in before
    assert "An admin of your organisation sets it up" in officer.client().get(PAGE).content.decode()

    config_with(api_of(member))
    freshness.forget(organisation_uuid=member.organisation.app_customer_uuid)
    html = member.client().get(PAGE).content.decode()

    assert 'data-testid="no-watchlists"' in html and "Attach a watchlist" in html


def test_an_organisation_without_the_screening_role_reads_a_sentence_not_a_trace(transactional_db):
    member = make_member("Smaabank AS", "siv", roles=["credit_check"])

    response = member.client().get(PAGE)

    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="service-error"' in html and "Missing role(s): aml" in html
    assert "Traceback" not in html


def test_the_page_needs_a_login(client):
    response = client.get(PAGE)

    assert response.status_code == 302 and "/login/" in response["Location"]
