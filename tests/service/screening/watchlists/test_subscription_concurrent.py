"""Two syncs of the same config and company at once (two workers, a redelivered task) end with
one monitoring per entity: the config row lock orders them, the partial UNIQUE constraint
backs it. A sync that waits for the lock behind a config change is made after it. PostgreSQL
only: SQLite serialises writers anyway."""

from __future__ import annotations


import pytest
from django.db import connection
from django.test import Client

from service.screening import config_services
from service.screening.models import EntityMonitoring, ScreeningConfigSystemSuggestionSetting
from service.screening.subscription import config_companies_sync
from tests.conftest import ApiCaller
from tests.racing import at_once, race
from tests.service.screening.helpers import config_make, config_url, monitorings, patch
from tests.service.screening.watchlists.helpers import attach, nordlys_owned_by_kari, watchlist_add, watchlist_make

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks")


def test_concurrent_syncs_make_each_monitoring_once(api):
    from service.screening.models import ScreeningConfigWatchlist

    config = config_make(api, auto_approve_monitoring_flag=True)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist = watchlist_make(api, companies=[nordlys])
    # Link without the API, so no sync has run yet: the threads below do the first one.
    ScreeningConfigWatchlist.objects.create(screening_config_id=config["uuid"], watchlist_id=watchlist)
    at_once(*[lambda: config_companies_sync(config_uuid=config["uuid"], company_uuids=[nordlys.uuid])] * 4)
    rows = EntityMonitoring.objects.filter(screening_config_id=config["uuid"], removed_flag=False)
    assert sorted(rows.values_list("entity_key", flat=True)) == ["company", "person"]
    assert all(m.latest_decision_id for m in rows)


def test_a_company_added_while_the_suggestion_setting_changes_is_monitored_under_the_new_setting(api, monkeypatch):
    config = config_make(api)
    watchlist = watchlist_make(api)
    assert attach(api, config["uuid"], watchlist).status_code == 201
    nordlys, _ = nordlys_owned_by_kari()
    extended = str(ScreeningConfigSystemSuggestionSetting.objects.get(key="enin_calculated_extended_beneficial_owners").uuid)

    def setting_change():
        caller = ApiCaller(Client(), api.credentials)
        return patch(caller, config_url(config["uuid"]), {"screening_config_system_suggestion_setting_uuid": extended})

    def add():
        watchlist_add(ApiCaller(Client(), api.credentials), watchlist, nordlys)  # asserts its 200

    # The setting change is held, uncommitted, until the add's sync (run on the add's commit)
    # waits for the config's lock. The change's own re-evaluation found no company to do.
    changed, added = race(monkeypatch, config_services, "audit_record", setting_change, add)

    assert changed.status_code == 200 and added is None, (changed, added)
    names = sorted(m["entity_monitoring"]["monitoring_entity_name"] for m in monitorings(api, config["uuid"]))
    assert names == ["Kari Nordmann", "Nordlys AS", "Ola Styre"]  # the extended setting screens the board too
