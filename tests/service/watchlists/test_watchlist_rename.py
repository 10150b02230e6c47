"""PATCH /analysis/v1/watchlist/{watchlist_uuid}: rename a watchlist (extension)."""

from datetime import UTC, datetime

from service.watchlists.models import Watchlist
from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import patch, watchlist_make, watchlist_url


def test_it_renames_the_watchlist_and_keeps_its_companies(api):
    watchlist_uuid = watchlist_make(api, "Kunder", [company_make()])
    Watchlist.objects.filter(uuid=watchlist_uuid).update(update_timestamp=datetime(2024, 1, 1, tzinfo=UTC))

    response = patch(api, watchlist_url(watchlist_uuid), {"watchlist_name": "Kunder 2025"})

    assert response.status_code == 200
    body = response.json()
    assert body["uuid"] == watchlist_uuid
    assert body["watchlist_name"] == "Kunder 2025"
    assert body["company_count"] == 1
    assert body["update_timestamp"] > "2024-01-02"
    assert api.get(watchlist_url(watchlist_uuid)).json()["watchlist_name"] == "Kunder 2025"


def test_it_refuses_a_blank_name_and_keeps_the_old_one(api):
    watchlist_uuid = watchlist_make(api, "Kunder")

    response = patch(api, watchlist_url(watchlist_uuid), {"watchlist_name": ""})

    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"][-1] == "watchlist_name"
    assert Watchlist.objects.get(uuid=watchlist_uuid).watchlist_name == "Kunder"
