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
    assert re.search(r'href="/watchlists/[0-9a-f-]{36}/" data-testid="audit-object">Kunder</a>', rows[1])
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


def _recorded(admin, label: str, at: str) -> None:
    from datetime import datetime

    from service.audit.models import AuditEvent

    AuditEvent.objects.create(  # as the service records them, at a chosen moment
        app_customer_id=admin.app_customer.uuid, action_key="watchlist.create", object_type="watchlist",
        object_label=label, created_timestamp=datetime.fromisoformat(at),
    )


def test_it_shows_a_range_of_oslo_days_typed_the_norwegian_way_and_keeps_it_in_the_links(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    _recorded(admin, "March", "2026-03-31T21:59:00+00:00")  # 31.03 23:59 in Oslo
    _recorded(admin, "April", "2026-04-15T10:00:00+00:00")
    _recorded(admin, "May", "2026-04-30T22:00:00+00:00")  # 01.05 00:00 in Oslo

    page = admin.client().get("/members/audit/", {"kind": "watchlists", "created_from": "01.04.2026", "created_to": "2026-04-30"}).content.decode()

    rows = _rows(page)
    assert len(rows) == 1 and "April" in rows[0]
    assert 'value="01.04.2026"' in page and 'value="30.04.2026"' in page  # shown back as typed in Norway
    assert "/members/audit/export.csv?kind=watchlists&amp;created_from=01.04.2026&amp;created_to=30.04.2026" in page
    assert "?kind=members&amp;created_from=01.04.2026&amp;created_to=30.04.2026" in page  # the kinds keep the days


def test_a_range_of_days_the_wrong_way_round_says_so_at_the_field(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)

    response = admin.client().get("/members/audit/", {"created_from": "30.04.2026", "created_to": "01.04.2026"})
    bad_day = admin.client().get("/members/audit/", {"created_from": "31.02.2026"})

    assert response.status_code == 400
    assert "To: The last day is before the first." in response.content.decode()
    assert "Correct the filter above to see the records." in response.content.decode()
    assert bad_day.status_code == 400 and "From: Enter the date as dd.mm.yyyy" in bad_day.content.decode()


def test_every_audited_action_is_in_one_of_the_filters_kinds():
    from portal.audit_views import AUDIT_GROUPS
    from service.audit.actions import ACTIONS

    grouped = [key for _, keys in AUDIT_GROUPS.values() for key in keys.split(",")]
    assert sorted(grouped) == sorted(ACTIONS)  # each once: a new action shows under its kind
