"""/members/audit/: who did what, in words, newest first, only this organisation's records."""

from __future__ import annotations

import re

from portal.models import Member
from tests.portal.conftest import make_member


def _rows(page: str) -> list[str]:
    return re.findall(r'<tr data-testid="audit-row">(.*?)</tr>', page, re.DOTALL)


def test_it_lists_changes_with_the_actor_action_object_link_and_norwegian_time(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    client = admin.client()
    client.post("/watchlists/", {"watchlist_name": "Kunder"})
    client.post("/members/invite/", {"email": "kari@nordbank.no", "full_name": "Kari Nordmann", "role": "viewer"})

    page = client.get("/members/audit/").content.decode()

    rows = _rows(page)
    assert "Invited a member" in rows[0] and "kari@nordbank.no" in rows[0]
    assert "Created a watchlist" in rows[1] and "ada@example.com" in rows[1]
    assert re.search(r'href="/watchlists/[0-9a-f-]{36}/">Kunder</a>', rows[1])
    assert re.search(r"\d\d\.\d\d\.20\d\d \d\d:\d\d", rows[0])


def test_it_filters_by_kind_in_the_url_and_says_when_nothing_is_recorded(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    admin.client().post("/watchlists/", {"watchlist_name": "Kunder"})

    watchlists = admin.client().get("/members/audit/?kind=watchlists").content.decode()
    cases = admin.client().get("/members/audit/?kind=cases").content.decode()

    assert len(_rows(watchlists)) == 1
    assert _rows(cases) == [] and "Nothing of this kind recorded yet." in cases


def test_another_organisations_records_never_show(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    stranger = make_member("Fjordkreditt AS", "olav", role=Member.Role.ADMIN)
    stranger.client().post("/watchlists/", {"watchlist_name": "Fjordkunder"})

    page = admin.client().get("/members/audit/").content.decode()

    assert "Fjordkunder" not in page and "olav@example.com" not in page
