"""Watchlists are private: another organisation gets 404 in every operation, changes nothing
and sees none of them in its own list."""

import pytest

from service.watchlists.models import Watchlist, WatchlistCompany
from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import companies_url, entry, patch, watchlist_url, watchlists_url


@pytest.fixture
def setup(api, other_api):
    member, outsider = company_make(), company_make()
    response = api.post(watchlists_url(api.app_customer_uuid), {"watchlist_name": "Kunder"})
    watchlist_uuid = response.json()["uuid"]
    api.post(companies_url(watchlist_uuid), [entry(member)])
    return watchlist_uuid, member, outsider


OPERATIONS = {
    "detail": lambda caller, w, member, outsider: caller.get(watchlist_url(w)),
    "rename": lambda caller, w, member, outsider: patch(caller, watchlist_url(w), {"watchlist_name": "Mine"}),
    "delete": lambda caller, w, member, outsider: caller.delete(watchlist_url(w)),
    "list companies": lambda caller, w, member, outsider: caller.get(companies_url(w)),
    "add companies": lambda caller, w, member, outsider: caller.post(companies_url(w), [entry(outsider)]),
    "remove all": lambda caller, w, member, outsider: caller.delete(companies_url(w)),
    "remove one": lambda caller, w, member, outsider: caller.delete(f"{companies_url(w)}/{member.uuid}"),
}


@pytest.mark.parametrize("operation", OPERATIONS)
def test_it_is_404_for_another_organisations_watchlist_and_changes_nothing(other_api, setup, operation):
    watchlist_uuid, member, outsider = setup

    response = OPERATIONS[operation](other_api, watchlist_uuid, member, outsider)

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    watchlist = Watchlist.objects.get(uuid=watchlist_uuid)
    assert watchlist.watchlist_name == "Kunder"
    assert set(WatchlistCompany.objects.filter(watchlist=watchlist).values_list("company_id", flat=True)) == {member.uuid}


def test_another_organisation_sees_none_of_them_and_cannot_use_the_owners_path(api, other_api, setup):
    assert other_api.get(watchlists_url(other_api.app_customer_uuid)).json() == []
    assert other_api.get(watchlists_url(api.app_customer_uuid)).status_code == 404
    created = other_api.post(watchlists_url(api.app_customer_uuid), {"watchlist_name": "Inntrenger"})
    assert created.status_code == 404
    assert not Watchlist.objects.filter(watchlist_name="Inntrenger").exists()
    assert [w["watchlist_name"] for w in api.get(watchlists_url(api.app_customer_uuid)).json()] == ["Kunder"]
