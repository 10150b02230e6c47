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
