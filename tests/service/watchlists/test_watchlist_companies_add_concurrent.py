"""Two requests adding overlapping lists at the same moment: each company lands once, the
counts add up, and each request reports (and signals) only the companies it really added.

Needs PostgreSQL: SQLite serialises writers on one database lock, so the race this guards
against (two transactions inserting the same rows at once) cannot happen there.
"""

import threading

import pytest
from django.db import connection, connections
from django.test import Client

from service.watchlists.models import WatchlistCompany
from service.watchlists.signals import watchlist_companies_changed
from tests.conftest import ApiCaller
from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import companies_url, entry, watchlist_make

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL (SQLite serialises them)"
)

ROUNDS = 5


def _add_at_once(api, watchlist_uuid, bodies) -> list:
    barrier = threading.Barrier(len(bodies))
    responses: list = [None] * len(bodies)

    def add(index):
        caller = ApiCaller(Client(), api.credentials)  # a client of its own per thread
        try:
            barrier.wait()
            responses[index] = caller.post(companies_url(watchlist_uuid), bodies[index])
        finally:
            connections.close_all()  # this thread's connection

    threads = [threading.Thread(target=add, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return responses


def test_it_adds_overlapping_lists_sent_at_once_exactly_once(transactional_db, api):
    companies = [company_make() for _ in range(90)]
    signalled: list = []

    def receiver(sender, added_company_uuids, **kwargs):
        signalled.append(added_company_uuids)

    watchlist_companies_changed.connect(receiver, dispatch_uid="concurrent-test")
    try:
        for _ in range(ROUNDS):
            watchlist_uuid = watchlist_make(api)
            signalled.clear()
            first, second = companies[:60], companies[30:]  # 30 in both

            responses = _add_at_once(api, watchlist_uuid, [[entry(c) for c in first], [entry(c) for c in second]])

            assert [r.status_code for r in responses] == [200, 200]
            results = [r.json() for r in responses]
            assert sum(r["added_count"] for r in results) == 90
            assert sum(r["ignored_count"] for r in results) == 30
            assert max(r["company_count"] for r in results) == 90
            rows = WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid)
            assert rows.count() == 90
            assert set(rows.values_list("company_id", flat=True)) == {c.uuid for c in companies}
            assert len(signalled) == 2
            assert sorted(len(added) for added in signalled) == sorted(r["added_count"] for r in results)
            assert set(signalled[0]).isdisjoint(signalled[1])
            assert set(signalled[0]) | set(signalled[1]) == {c.uuid for c in companies}
    finally:
        watchlist_companies_changed.disconnect(dispatch_uid="concurrent-test")
