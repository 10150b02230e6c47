"""A merge and a write to the duplicate at once: the write waits for the merge (both lock the
duplicate's row) and then finds the record merged, so nothing lands on a record nobody screens.
Without the locks a monitoring approved meanwhile would screen the customer twice again.

PostgreSQL only: SQLite runs one writing transaction at a time, so the two cannot overlap."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from service.screening import person_merge
from service.screening.models import EntityMonitoring
from tests.conftest import ApiCaller
from tests.racing import race
from tests.service.screening.helpers import (
    config_make,
    config_url,
    customer_person_make,
    customer_person_url,
    monitoring_body,
    monitoring_make,
)

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")

BOTH = ["aml", "person_national_identification"]
APPROVED = {"approved_flag": True}


def _caller(api) -> ApiCaller:
    return ApiCaller(Client(raise_request_exception=False), api.credentials)  # a client per thread


def test_a_monitoring_of_the_duplicate_made_during_a_merge_is_refused(transactional_db, api, monkeypatch):
    config = config_make(api)
    kept = customer_person_make(api, config["uuid"])
    monitoring_make(api, config["uuid"], customer_person=kept["uuid"], decision=APPROVED)
    duplicate = customer_person_make(api, config["uuid"], customer_reference="K-10231")

    def merge():
        body = {"duplicate_customer_person_uuid": duplicate["uuid"]}
        return _caller(api).post(customer_person_url(kept["uuid"], "/merge"), body, roles=BOTH)

    def monitor():
        body = monitoring_body(customer_person=duplicate["uuid"], decision=APPROVED)
        return _caller(api).post(config_url(config["uuid"], "/entity-monitoring-composite"), body, roles=BOTH)

    first, second = race(monkeypatch, person_merge, "customer_person_audit", merge, monitor)

    assert first.status_code == 200, first.content
    assert second.status_code == 400, second.content
    assert second.json()["code"] == "merged"
    assert not EntityMonitoring.objects.filter(customer_person_id=duplicate["uuid"]).exists()
