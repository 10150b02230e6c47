"""The watchlists page: the organisation's lists with company counts; create one."""

import re

from tests.watchlists.helpers import create, paste


def test_it_shows_a_clear_empty_state(member):
    page = member.client().get("/watchlists/").content.decode()
    assert "No watchlists yet." in page


def test_it_creates_a_watchlist_and_opens_it(member):
    client = member.client()
    response = client.post("/watchlists/", {"watchlist_name": "Key customers"}, follow=True)

    page = response.content.decode()
    assert response.redirect_chain[-1][0].startswith("/watchlists/")
    assert "Watchlist “Key customers” created." in page
    assert "No companies on this watchlist yet." in page


def test_it_lists_each_watchlist_with_its_company_count(member, companies):
    client = member.client()
    full = create(client, "Suppliers")
    paste(client, full, f"{companies[0].org_nr}\n{companies[1].org_nr}")
    create(client, "Empty one")

    page = client.get("/watchlists/").content.decode().split('data-testid="watchlists"')[1]

    assert page.index("Empty one") < page.index("Suppliers")  # by name
    assert '<td class="text-end" data-testid="company-count">2</td>' in page
    assert '<td class="text-end" data-testid="company-count">0</td>' in page
    # created and last changed as on every other page: 27.11.2026, 27.11.2026 10:25
    assert re.search(r'<td class="text-nowrap">\d\d\.\d\d\.\d{4}</td>\s*<td class="text-nowrap">\d\d\.\d\d\.\d{4} \d\d:\d\d</td>', page)
    assert not re.search(r"\d{4}-\d\d-\d\d", page)


def test_it_refuses_a_blank_name_with_a_message(member):
    response = member.client().post("/watchlists/", {"watchlist_name": "   "}, follow=True)
    assert "Give the watchlist a name." in response.content.decode()


def test_it_never_shows_another_organisations_watchlists(member, other_member):
    theirs = create(other_member.client(), "Fjord secrets")
    client = member.client()

    assert "Fjord secrets" not in client.get("/watchlists/").content.decode()
    assert client.get(f"/watchlists/{theirs}/").status_code == 404
    assert client.post(f"/watchlists/{theirs}/rename/", {"watchlist_name": "Mine"}).status_code == 302
    assert "Fjord secrets" in other_member.client().get("/watchlists/").content.decode()
