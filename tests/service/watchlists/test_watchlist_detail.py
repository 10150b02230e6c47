"""GET /analysis/v1/watchlist/{watchlist_uuid}: one watchlist (extension)."""

import uuid

from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import watchlist_make, watchlist_url


def test_it_returns_the_watchlist_with_its_company_count(api):
    watchlist_uuid = watchlist_make(api, "Kunder", [company_make(), company_make()])

    response = api.get(watchlist_url(watchlist_uuid))

    assert response.status_code == 200
    assert response.json()["watchlist_name"] == "Kunder"
    assert response.json()["company_count"] == 2


def test_it_is_404_for_an_unknown_watchlist(api):
    response = api.get(watchlist_url(uuid.uuid4()))

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
