"""A watchlist's page: its companies with risk and flags; rename, remove one, remove all, delete."""

import re

from portal.service import ServiceUnavailable
from service.companies.analysis import analysis_refresh
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make
from tests.watchlists.conftest import make_member
from tests.watchlists.helpers import create, paste


def test_it_shows_each_company_with_risk_class_flags_and_a_link(member, companies):
    client = member.client()
    watchlist = create(client)
    paste(client, watchlist, "\n".join(c.org_nr for c in companies))

    page = client.get(f"/watchlists/{watchlist}/").content.decode()

    troubled = companies[1]
    assert f'<a href="/companies/{troubled.uuid}/">Fjellvann Bygg AS</a>' in page
    row = page.split(f'<a href="/companies/{troubled.uuid}/">')[1].split("</tr>")[0]
    assert 'class="badge risk-' in row and '<td data-label="Credit risk">' in row
    assert ">Credit risk</th>" in page  # the credit model's class, not a verdict on screening
    assert "Negative total equity" in row
    assert 'value="company_profile"' in row  # a report can be ordered from the row
    assert re.search(r'<td class="text-nowrap" data-label="Added">\d\d\.\d\d\.\d{4}</td>', row)  # added, dd.mm.yyyy


def test_without_credit_check_the_risk_shown_leaves_payment_remarks_out(db):
    """A company with a payment remark shows the risk of its twin without: the full score would tell them apart."""
    indebted, twin = company_make(name="Skyldig Handel AS"), company_make(name="Skyldfri Handel AS")
    for company in (indebted, twin):
        accounts_make(company=company, year=2024)
    payment_remark_make(company=indebted, amount="187654")
    analysis_refresh(company_uuids=[indebted.uuid, twin.uuid])

    def risks(member) -> list[str]:
        client = member.client()
        watchlist = create(client)
        paste(client, watchlist, f"{indebted.org_nr}\n{twin.org_nr}")
        page = client.get(f"/watchlists/{watchlist}/").content.decode()
        return [  # by name: Skyldfri, Skyldig
            re.search(r'<span class="badge risk-[^>]*>[^<]*</span>', row).group(0)
            for row in page.split('data-testid="watchlist-company">')[1:]
        ]

    without_credit_check = make_member("Nordbank ASA", "otto", roles=["aml"])
    with_credit_check = make_member("Kredittbanken ASA", "olga", roles=["aml", "credit_check"])

    twin_seen, indebted_seen = risks(without_credit_check)
    assert indebted_seen == twin_seen  # score (in the title) and class alike
    twin_full, indebted_full = risks(with_credit_check)
    assert twin_full == twin_seen and indebted_full != indebted_seen


def test_it_renames(member):
    client = member.client()
    watchlist = create(client, "Old name")

    page = client.post(f"/watchlists/{watchlist}/rename/", {"watchlist_name": "New name"}, follow=True).content.decode()

    assert "Renamed to “New name”." in page and 'data-testid="watchlist-name">New name<' in page


def test_a_name_another_watchlist_has_is_refused_on_create_and_rename(member):
    """Two watchlists of one name read as one: a company added to the one that is not screened looks screened."""
    client = member.client()
    create(client, "Enhanced due diligence")
    other = create(client, "Suppliers")

    twin = client.post("/watchlists/", {"watchlist_name": "enhanced  Due diligence"}, follow=True).content.decode()
    renamed = client.post(f"/watchlists/{other}/rename/", {"watchlist_name": "Enhanced due diligence"}, follow=True).content.decode()

    taken = "A watchlist named “{}” exists already: choose another name, or open that one."
    assert taken.format("enhanced  Due diligence") in twin and taken.format("Enhanced due diligence") in renamed
    page = client.get("/watchlists/").content.decode()
    assert page.count("Enhanced due diligence") == 1 and "Suppliers" in page
    same = client.post(f"/watchlists/{other}/rename/", {"watchlist_name": "suppliers"}, follow=True).content.decode()
    assert "Renamed to “suppliers”." in same  # its own name, in another case, is not taken


def test_it_removes_one_company(member, companies):
    client = member.client()
    watchlist = create(client)
    paste(client, watchlist, f"{companies[0].org_nr}\n{companies[1].org_nr}")

    page = client.post(
        f"/watchlists/{watchlist}/companies/{companies[0].uuid}/remove/", {"company_name": "Havbris Teknologi AS"}, follow=True
    ).content.decode()

    assert "Havbris Teknologi AS removed from the watchlist." in page
    assert page.count('data-testid="watchlist-company"') == 1

    again = client.post(
        f"/watchlists/{watchlist}/companies/{companies[0].uuid}/remove/", {"company_name": "Havbris Teknologi AS"}, follow=True
    ).content.decode()
    assert "Havbris Teknologi AS is not on the watchlist (any more)." in again


def test_it_removes_all_after_a_confirmation(member, companies):
    client = member.client()
    watchlist = create(client)
    paste(client, watchlist, f"{companies[0].org_nr}\n{companies[1].org_nr}")

    confirm = client.get(f"/watchlists/{watchlist}/clear/").content.decode()
    assert "Remove all 2 companies from “Key customers”?" in confirm
    assert client.get(f"/watchlists/{watchlist}/").content.decode().count('data-testid="watchlist-company"') == 2

    page = client.post(f"/watchlists/{watchlist}/clear/", follow=True).content.decode()
    assert "Removed all 2 companies from the watchlist." in page and "No companies on this watchlist yet." in page


def test_it_deletes_after_a_confirmation(member, companies):
    client = member.client()
    watchlist = create(client, "Short-lived")

    assert "Delete the watchlist “Short-lived”?" in client.get(f"/watchlists/{watchlist}/delete/").content.decode()
    page = client.post(f"/watchlists/{watchlist}/delete/", follow=True).content.decode()

    assert "Watchlist “Short-lived” deleted (0 companies)." in page
    assert client.get(f"/watchlists/{watchlist}/").status_code == 404


def test_a_viewer_manages_watchlists_too(viewer, companies):
    client = viewer.client()
    watchlist = create(client)
    response = paste(client, watchlist, companies[0].org_nr, follow=True)
    assert "Added 1 company" in response.content.decode()


def test_it_shows_a_sentence_not_a_trace_when_the_service_is_unreachable(member, monkeypatch):
    client = member.client()
    watchlist = create(client)

    def unreachable(*args, **kwargs):
        raise ServiceUnavailable(0, "unreachable", "The service could not be reached: connection refused")

    monkeypatch.setattr("portal.service.watchlists.WatchlistsArea.list", unreachable)
    monkeypatch.setattr("portal.service.watchlists.WatchlistsArea.get", unreachable)
    monkeypatch.setattr("portal.service.watchlists.WatchlistsArea.add", unreachable)

    for response in (
        client.get("/watchlists/"),
        client.get(f"/watchlists/{watchlist}/"),
        paste(client, watchlist, "923609016", follow=True),
    ):
        page = response.content.decode()
        assert "The service could not be reached" in page and "connection refused" not in page and "Traceback" not in page


def test_another_organisations_watchlist_is_neither_shown_nor_changed(member, other_member, companies):
    theirs_client = other_member.client()
    theirs = create(theirs_client, "Their customers")
    paste(theirs_client, theirs, companies[0].org_nr)
    client, base = member.client(), f"/watchlists/{theirs}/"

    for path in ("", "delete/", "clear/"):
        assert client.get(base + path).status_code == 404, path
    client.post(base + "rename/", {"watchlist_name": "Taken over"})
    client.post(base + "add/", {"numbers": companies[1].org_nr})
    client.post(base + f"companies/{companies[0].uuid}/remove/")
    client.post(base + "clear/")
    client.post(base + "delete/")

    page = theirs_client.get(base).content.decode()
    assert "Their customers" in page and "Taken over" not in page
    assert companies[0].name in page and companies[1].name not in page
