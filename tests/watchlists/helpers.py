import re


def create(client, name="Key customers") -> str:
    """Creates a watchlist through the page; its uuid."""
    response = client.post("/watchlists/", {"watchlist_name": name})
    assert response.status_code == 302, response
    return re.search(r"/watchlists/([0-9a-f-]{36})/", response["Location"]).group(1)


def paste(client, watchlist, text, *, follow=False, **fields):
    return client.post(f"/watchlists/{watchlist}/add/", {"numbers": text, "mode": "add", **fields}, follow=follow)
