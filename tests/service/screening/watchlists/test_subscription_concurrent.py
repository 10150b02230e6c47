"""Two syncs of the same config and company at once (two workers, a redelivered task) end with
one monitoring per entity: the config row lock orders them, the partial UNIQUE constraint
backs it. PostgreSQL only: SQLite serialises writers anyway."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from service.screening.models import EntityMonitoring
from service.screening.subscription import config_companies_sync
from tests.service.screening.helpers import config_make
from tests.service.screening.watchlists.helpers import nordlys_owned_by_kari, watchlist_make

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks")


def test_concurrent_syncs_make_each_monitoring_once(api):
    from service.screening.models import ScreeningConfigWatchlist

    config = config_make(api, auto_approve_monitoring_flag=True)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist = watchlist_make(api, companies=[nordlys])
    # Link without the API, so no sync has run yet: the threads below do the first one.
    ScreeningConfigWatchlist.objects.create(screening_config_id=config["uuid"], watchlist_id=watchlist)
    start = threading.Barrier(4)
    errors = []

    def sync():
        try:
            start.wait()
            config_companies_sync(config_uuid=config["uuid"], company_uuids=[nordlys.uuid])
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=sync) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    rows = EntityMonitoring.objects.filter(screening_config_id=config["uuid"], removed_flag=False)
    assert sorted(rows.values_list("entity_key", flat=True)) == ["company", "person"]
    assert all(m.latest_decision_id for m in rows)
