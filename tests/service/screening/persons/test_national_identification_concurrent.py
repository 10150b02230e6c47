"""The same national id added to two customer persons of one config at once: the second waits for
the first (the config's row is locked while the number is checked) and is then the same 400 as a
later add, naming who has it. Without the lock both would see no holder and both be written.

PostgreSQL only: SQLite runs one writing transaction at a time, so the adds cannot overlap."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from service.screening import person_services
from service.screening.models import CustomerPersonNationalIdentification
from tests.conftest import ApiCaller
from tests.racing import race
from tests.service.screening.helpers import config_make, customer_person_make, customer_person_url

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")

BOTH = ["aml", "person_national_identification"]


def test_two_people_cannot_take_one_number_at_once(transactional_db, api, monkeypatch):
    config = config_make(api)
    kari = customer_person_make(api, config["uuid"], full_name="Kari Nordmann")
    per = customer_person_make(api, config["uuid"], full_name="Per Hansen")

    def add(person):
        def call():
            caller = ApiCaller(Client(raise_request_exception=False), api.credentials)  # a client per thread
            body = {"national_identification_schema": "NO", "national_identification_number": "15108695088"}
            return caller.post(customer_person_url(person["uuid"], "/customer-person-national-identification"), body, roles=BOTH)
        return call

    first, second = race(monkeypatch, person_services, "customer_person_audit", add(kari), add(per))

    assert first.status_code == 201, first.content
    assert second.status_code == 400, second.content
    assert second.json()["code"] == "recorded_for_another_person"
    assert second.json()["errors"][0]["loc"] == ["body", "national_identification_number"]
    assert CustomerPersonNationalIdentification.objects.count() == 1
