"""Two replaces of one watchlist at the same moment: the row lock puts one after the other, so
the watchlist ends as exactly one of the two lists (never a mix), and the two signals, applied
in order, lead from the old list to the final one.

Needs PostgreSQL: SQLite serialises writers on one database lock.
"""

import threading

import pytest
from django.db import connection, connections
from django.test import Client

from service.watchlists.models import WatchlistCompany
from service.watchlists.signals import watchlist_companies_changed
from tests.conftest import ApiCaller
from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import companies_url, entry, put, watchlist_make

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL (SQLite serialises them)"
)

ROUNDS = 5


def _replace_at_once(api, watchlist_uuid, bodies) -> list:
    barrier = threading.Barrier(len(bodies))
    responses: list = [None] * len(bodies)

    def replace(index):
        caller = ApiCaller(Client(), api.credentials)  # a client of its own per thread
        try:
            barrier.wait()
            responses[index] = put(caller, companies_url(watchlist_uuid), bodies[index])
        finally:
            connections.close_all()  # this thread's connection

    threads = [threading.Thread(target=replace, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return responses


def test_two_replaces_at_once_end_as_one_of_the_lists(transactional_db, api):
    companies = [company_make() for _ in range(60)]
    old, first, second = set(companies[:30]), set(companies[15:45]), set(companies[30:])
    signalled: list = []

    def receiver(sender, added_company_uuids, removed_company_uuids, **kwargs):
        signalled.append((set(added_company_uuids), set(removed_company_uuids)))

    watchlist_companies_changed.connect(receiver, dispatch_uid="concurrent-replace-test")
    try:
        for _ in range(ROUNDS):
            watchlist_uuid = watchlist_make(api, companies=sorted(old, key=lambda c: c.org_nr))
            signalled.clear()

            responses = _replace_at_once(api, watchlist_uuid, [[entry(c) for c in first], [entry(c) for c in second]])

            assert [r.status_code for r in responses] == [200, 200]
            final = set(WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid).values_list("company_id", flat=True))
            assert final in ({c.uuid for c in first}, {c.uuid for c in second})
            assert len(signalled) == 2
            members = {c.uuid for c in old}
            for added, removed in signalled:
                assert not added & members and removed <= members
                members = (members - removed) | added
            assert members == final
    finally:
        watchlist_companies_changed.disconnect(dispatch_uid="concurrent-replace-test")
