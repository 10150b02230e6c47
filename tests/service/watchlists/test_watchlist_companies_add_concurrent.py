"""Two requests adding overlapping lists at the same moment: each company lands once, the
counts add up, and each request reports (and signals) only the companies it really added.

Needs PostgreSQL: SQLite serialises writers on one database lock, so the race this guards
against (two transactions inserting the same rows at once) cannot happen there.
"""

import pytest
from django.db import connection
from django.test import Client

from service.watchlists.models import WatchlistCompany
from tests.conftest import ApiCaller
from tests.racing import at_once
from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import companies_url, entry, watchlist_make

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL (SQLite serialises them)"
)

ROUNDS = 5


def test_it_adds_overlapping_lists_sent_at_once_exactly_once(transactional_db, api, changes):
    companies = [company_make() for _ in range(90)]
    for _ in range(ROUNDS):
        watchlist_uuid = watchlist_make(api)
        changes.clear()
        first, second = companies[:60], companies[30:]  # 30 in both

        responses = at_once(
            *[lambda body=[entry(c) for c in chosen]: ApiCaller(Client(), api.credentials).post(companies_url(watchlist_uuid), body)
              for chosen in (first, second)]
        )

        assert [r.status_code for r in responses] == [200, 200]
        results = [r.json() for r in responses]
        assert sum(r["added_count"] for r in results) == 90
        assert sum(r["ignored_count"] for r in results) == 30
        assert max(r["company_count"] for r in results) == 90
        rows = WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid)
        assert rows.count() == 90
        assert set(rows.values_list("company_id", flat=True)) == {c.uuid for c in companies}
        signalled = [set(change["added_company_uuids"]) for change in changes]
        assert len(signalled) == 2
        assert sorted(len(added) for added in signalled) == sorted(r["added_count"] for r in results)
        assert signalled[0].isdisjoint(signalled[1])
        assert signalled[0] | signalled[1] == {c.uuid for c in companies}
