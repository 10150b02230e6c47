"""A watchlist screening follows: only an admin removes its companies (one, all, by replacing
the list or by deleting it), since that stops their screening; others see why."""

import pytest

from portal.models import Member
from service.watchlists.models import WatchlistCompany
from tests.screening.setup_helpers import org, org_make  # noqa: F401 (fixture)
from tests.service.companies.factories import company_make
from tests.service.screening.helpers import config_make
from tests.service.screening.watchlists.helpers import attach, watchlist_make

REFUSAL = "Screening follows this watchlist: removing companies from it stops their screening"
WARNING = "Screening follows this watchlist: removing a company from it stops its screening."


@pytest.fixture
def screened(org):  # noqa: F811
    """Nordlys AS and Fjord AS on a watchlist the organisation's screening config follows."""
    companies = [company_make(name="Nordlys AS"), company_make(name="Fjord AS")]
    watchlist = watchlist_make(org.api, "Screened customers", companies=companies)
    assert attach(org.api, config_make(org.api)["uuid"], watchlist).status_code == 201
    return watchlist, companies


def on_the_list(watchlist) -> int:
    return WatchlistCompany.objects.filter(watchlist_id=watchlist).count()


@pytest.mark.parametrize("role", [Member.Role.VIEWER, Member.Role.OFFICER])
def test_the_page_says_why_and_offers_no_removal(org, screened, role):  # noqa: F811
    watchlist, _ = screened
    client = org.member("vera", role)

    page = client.get(f"/watchlists/{watchlist}/").content.decode()

    assert REFUSAL in page
    assert "Remove Nordlys AS" not in page and "Remove all" not in page
    assert "Delete watchlist" not in page and "Replace the list with these" not in page
    assert "Add to the list" not in page  # no mode to choose: pasted numbers are added


def test_a_watchlist_screening_does_not_follow_says_nothing_of_it(org):  # noqa: F811
    watchlist = watchlist_make(org.api, "Suppliers", companies=[company_make(name="Nordlys AS")])
    config_make(org.api)

    page = org.member("vera", Member.Role.VIEWER).get(f"/watchlists/{watchlist}/").content.decode()

    assert "Screening follows" not in page and "Remove Nordlys AS" in page


@pytest.mark.parametrize(
    "method, path, data",
    [
        ("post", "companies/{company}/remove/", {"company_name": "Nordlys AS"}),
        ("post", "clear/", {}),
        ("get", "clear/", {}),
        ("post", "delete/", {}),
        ("get", "delete/", {}),
        ("post", "add/", {"numbers": "{org_nr}", "mode": "replace"}),
    ],
)
def test_an_officer_removes_nothing(org, screened, method, path, data):  # noqa: F811
    watchlist, companies = screened
    client = org.member("otto", Member.Role.OFFICER)
    url = f"/watchlists/{watchlist}/" + path.format(company=companies[0].uuid)
    data = {key: value.format(org_nr=companies[1].org_nr) for key, value in data.items()}

    page = getattr(client, method)(url, data, follow=True).content.decode()

    assert f"Nothing was removed. {REFUSAL}" in page
    assert on_the_list(watchlist) == 2


def test_an_officer_still_adds(org, screened):  # noqa: F811
    watchlist, _ = screened
    client = org.member("otto", Member.Role.OFFICER)

    page = client.post(f"/watchlists/{watchlist}/add/", {"numbers": company_make(name="Ny AS").org_nr}, follow=True)

    assert "Added 1 company; 3 on the watchlist now." in page.content.decode()


def test_an_admin_is_warned_then_removes_and_deletes(org, screened):  # noqa: F811
    watchlist, companies = screened
    client = org.admin.client()
    page = client.get(f"/watchlists/{watchlist}/").content.decode()
    assert REFUSAL not in page and "Remove Nordlys AS" in page
    assert WARNING in page
    assert WARNING in client.get(f"/watchlists/{watchlist}/delete/").content.decode()
    assert WARNING in client.get(f"/watchlists/{watchlist}/clear/").content.decode()

    client.post(f"/watchlists/{watchlist}/companies/{companies[0].uuid}/remove/", {"company_name": "Nordlys AS"})
    assert on_the_list(watchlist) == 1
    client.post(f"/watchlists/{watchlist}/delete/")
    assert client.get(f"/watchlists/{watchlist}/").status_code == 404


def test_the_list_of_watchlists_marks_those_screening_follows(org, screened):  # noqa: F811
    watchlist, _ = screened
    watchlist_make(org.api, "Suppliers")

    page = org.member("vera", Member.Role.VIEWER).get("/watchlists/").content.decode()

    rows = {row.split("</a>")[0].rsplit(">", 1)[1]: row for row in page.split('data-testid="watchlist-row"')[1:]}
    assert 'data-testid="screened"' in rows["Screened customers"]
    assert 'data-testid="screened"' not in rows["Suppliers"]
