"""Two replaces of one watchlist at the same moment: the row lock puts one after the other, so
the watchlist ends as exactly one of the two lists (never a mix), and the two signals, applied
in order, lead from the old list to the final one.

Needs PostgreSQL: SQLite serialises writers on one database lock.
"""

import pytest
from django.db import connection
from django.test import Client

from service.watchlists.models import WatchlistCompany
from tests.conftest import ApiCaller
from tests.racing import at_once
from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import companies_url, entry, put, watchlist_make

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL (SQLite serialises them)"
)

ROUNDS = 5


def test_two_replaces_at_once_end_as_one_of_the_lists(transactional_db, api, changes):
    companies = [company_make() for _ in range(60)]
    old, first, second = set(companies[:30]), set(companies[15:45]), set(companies[30:])
    for _ in range(ROUNDS):
        watchlist_uuid = watchlist_make(api, companies=sorted(old, key=lambda c: c.org_nr))
        changes.clear()

        responses = at_once(
            *[lambda body=[entry(c) for c in chosen]: put(ApiCaller(Client(), api.credentials), companies_url(watchlist_uuid), body)
              for chosen in (first, second)]
        )

        assert [r.status_code for r in responses] == [200, 200]
        final = set(WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid).values_list("company_id", flat=True))
        assert final in ({c.uuid for c in first}, {c.uuid for c in second})
        assert len(changes) == 2
        members = {c.uuid for c in old}
        for change in changes:
            added, removed = set(change["added_company_uuids"]), set(change["removed_company_uuids"])
            assert not added & members and removed <= members
            members = (members - removed) | added
        assert members == final
