"""Watchlist pages when the service is busy (its rate limit, a 429): a sentence on the page, never the 500 page."""

from __future__ import annotations

from tests.service_busy import BUSY, service_busy
from tests.watchlists.helpers import create


def test_the_watchlists_and_a_watchlist_say_the_service_is_busy(member, companies, settings):
    client = member.client()
    watchlist = create(client)
    service_busy(settings, member)

    listing = client.get("/watchlists/")
    one = client.get(f"/watchlists/{watchlist}/")
    search = client.get(f"/watchlists/{watchlist}/search/", {"q": "havbris"}, HTTP_HX_REQUEST="true")
    confirm = client.get(f"/watchlists/{watchlist}/delete/", follow=True)

    for response in (listing, one, search, confirm):
        assert response.status_code in (200, 503)
        assert BUSY in response.content.decode()
