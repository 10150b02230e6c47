"""POST /analysis/v1/app-customer/{app_customer_uuid}/watchlist: create a watchlist (extension)."""

from service.watchlists.models import Watchlist
from tests.service.watchlists.helpers import watchlists_url


def test_it_creates_an_empty_watchlist_of_the_organisation(api):
    response = api.post(watchlists_url(api.app_customer_uuid), {"watchlist_name": "  Leverandører  "})

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {
        "uuid", "app_customer_uuid", "watchlist_name", "company_count", "create_timestamp", "update_timestamp", "app_url",
    }
    assert body["watchlist_name"] == "Leverandører"
    assert body["app_customer_uuid"] == str(api.app_customer_uuid)
    assert body["company_count"] == 0
    assert body["app_url"].endswith(f"/watchlists/{body['uuid']}/")
    assert Watchlist.objects.get(uuid=body["uuid"]).app_customer_id == api.app_customer_uuid


def test_it_refuses_a_blank_or_missing_name_and_creates_nothing(api):
    for body in ({"watchlist_name": "   "}, {}, {"watchlist_name": "x" * 201}):
        response = api.post(watchlists_url(api.app_customer_uuid), body)

        assert response.status_code == 400
        assert response.json()["errors"][0]["loc"][-1] == "watchlist_name"
    assert not Watchlist.objects.exists()
