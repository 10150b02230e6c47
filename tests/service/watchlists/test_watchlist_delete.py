"""DELETE /analysis/v1/watchlist/{watchlist_uuid}: delete a watchlist (extension)."""

import uuid

from service.companies.models import Company
from service.watchlists.models import WatchlistCompany
from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import watchlist_make, watchlist_url, watchlists_url


def test_it_deletes_the_watchlist_and_its_memberships_but_not_the_companies(api, changes, django_capture_on_commit_callbacks):
    companies = [company_make(), company_make()]
    watchlist_uuid = watchlist_make(api, "Kunder", companies)
    kept = watchlist_make(api, "Leverandører", companies[:1])
    changes.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(watchlist_url(watchlist_uuid))

    assert response.status_code == 204
    assert api.get(watchlist_url(watchlist_uuid)).status_code == 404
    assert [w["uuid"] for w in api.get(watchlists_url(api.app_customer_uuid)).json()] == [kept]
    assert Company.objects.count() == 2
    assert WatchlistCompany.objects.filter(watchlist_id=kept).count() == 1
    assert len(changes) == 1
    assert changes[0]["watchlist_uuid"] == uuid.UUID(watchlist_uuid)
    assert changes[0]["app_customer_uuid"] == api.app_customer_uuid
    assert changes[0]["added_company_uuids"] == []
    assert sorted(changes[0]["removed_company_uuids"]) == sorted(c.uuid for c in companies)


def test_it_is_404_for_an_unknown_watchlist(api):
    assert api.delete(watchlist_url(uuid.uuid4())).status_code == 404
