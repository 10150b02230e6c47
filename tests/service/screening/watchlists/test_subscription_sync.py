"""config_companies_sync, the task's body: idempotent, no duplicates, follows ownership changes."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from service.companies.models import CompanyRole
from service.screening.models import EntityMonitoring
from service.screening.subscription import config_companies_sync
from service.screening.tasks import screening_config_sync_task
from tests.service.companies.factories import person_make
from tests.service.screening.helpers import config_make, monitorings, status_of
from tests.service.screening.watchlists.helpers import attach, nordlys_owned_by_kari, owns, watchlist_make


@pytest.fixture
def setup(api):
    config = config_make(api, auto_approve_monitoring_flag=True)
    nordlys, kari = nordlys_owned_by_kari()
    attach(api, config["uuid"], watchlist_make(api, companies=[nordlys]))
    return config, nordlys, kari


def test_a_second_run_changes_nothing(setup):
    config, nordlys, _ = setup
    before = list(EntityMonitoring.objects.values_list("uuid", "update_timestamp").order_by("uuid"))
    result = config_companies_sync(config_uuid=config["uuid"], company_uuids=[nordlys.uuid])
    assert (result.created, result.removed, result.updated, result.auto_approved) == (0, 0, 0, 0)
    assert list(EntityMonitoring.objects.values_list("uuid", "update_timestamp").order_by("uuid")) == before


def test_the_database_refuses_a_duplicate_monitoring(setup):
    existing = EntityMonitoring.objects.filter(entity_key="person").first()
    existing.pk = None
    existing.uuid = None
    with pytest.raises(IntegrityError), transaction.atomic():
        existing.save(force_insert=True)


def test_it_follows_a_change_of_owners(api, setup):
    config, nordlys, kari = setup
    CompanyRole.objects.filter(holder_person=kari).delete()
    owns(person_make(full_name="Nils Ny"), nordlys, 40)

    summary = screening_config_sync_task(config["uuid"], [str(nordlys.uuid)])
    assert "1 monitorings created" in summary and "1 removed" in summary
    rows = {r["entity_monitoring"]["monitoring_entity_name"]: r for r in monitorings(api, config["uuid"])}
    assert status_of(rows["Nils Ny"]) == "active"
    assert status_of(rows["Kari Nordmann"]) == "removed"
    assert rows["Kari Nordmann"]["entity_monitoring"]["removal_reason"].startswith("No longer suggested for the company")


def test_it_returns_quietly_when_the_config_is_gone(setup):
    config, nordlys, _ = setup
    from service.screening.models import ScreeningConfig

    ScreeningConfig.objects.filter(uuid=config["uuid"]).delete()
    assert screening_config_sync_task(config["uuid"], [str(nordlys.uuid)]) is None


def test_the_daily_resync_makes_up_syncs_whose_messages_were_lost(api, settings):
    from portal.celery import app
    from service.screening.tasks import screening_configs_resync_all
    from service.watchlists.models import WatchlistCompany

    config = config_make(api, auto_approve_monitoring_flag=True)
    nordlys, _ = nordlys_owned_by_kari()
    watchlist = watchlist_make(api)
    attach(api, config["uuid"], watchlist)
    # Nordlys joins the attached watchlist, but the sync's message is lost: nobody is screened for it.
    WatchlistCompany.objects.create(watchlist_id=watchlist, company=nordlys)
    assert monitorings(api, config["uuid"]) == []

    assert screening_configs_resync_all() == 1
    statuses = {r["entity_monitoring"]["monitoring_entity_name"]: status_of(r) for r in monitorings(api, config["uuid"])}
    assert statuses == {"Nordlys AS": "active", "Kari Nordmann": "active"}

    # In order now: a second resync writes nothing.
    before = list(EntityMonitoring.objects.values_list("uuid", "update_timestamp").order_by("uuid"))
    screening_configs_resync_all()
    assert list(EntityMonitoring.objects.values_list("uuid", "update_timestamp").order_by("uuid")) == before

    # Nordlys leaves the watchlist, and that sync's message is lost too: its screening stops, saying why.
    WatchlistCompany.objects.filter(watchlist_id=watchlist).delete()
    screening_configs_resync_all()
    rows = monitorings(api, config["uuid"])
    assert {status_of(r) for r in rows} == {"removed"}
    assert {r["entity_monitoring"]["removal_reason"] for r in rows} == {
        "The company is no longer on a watchlist attached to this screening config."
    }

    app.loader.import_default_modules()  # what a worker does at start
    entry = settings.CELERY_BEAT_SCHEDULE["screening-configs-resync"]
    assert entry["task"] in app.tasks and entry["schedule"] == 24 * 3600
