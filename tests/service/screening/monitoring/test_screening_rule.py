"""Spec §3's rule: screened iff a monitoring is not removed and its latest decision approves.

`monitorings_screened` is what a screening run reads; the status the API shows must agree
with it on every combination, and it must cost one query per config.
"""

from __future__ import annotations

import itertools

from django.db import connection
from django.test.utils import CaptureQueriesContext

from service.screening.models import ScreeningConfig
from service.screening.monitoring_selectors import monitorings_screened
from tests.service.screening.helpers import (
    config_make,
    config_url,
    customer_person_make,
    decide,
    monitoring_make,
    monitorings,
    patch,
    status_of,
)


def test_it_screens_exactly_the_monitorings_the_api_calls_active(api):
    config = config_make(api)
    expected = set()
    # decisions in order (None: no decision) x removed
    for n, (decisions, removed) in enumerate(
        itertools.product([(), (True,), (False,), (True, False), (False, True)], [False, True])
    ):
        person = customer_person_make(api, config["uuid"], full_name=f"Person {n}")["uuid"]
        monitoring = monitoring_make(api, config["uuid"], customer_person=person)["entity_monitoring"]["uuid"]
        for approved in decisions:
            decide(api, config["uuid"], monitoring, approved=approved)
        if removed:
            patch(api, config_url(config["uuid"], f"/entity-monitoring/{monitoring}"), {"removed_flag": True, "removal_reason": "test"})
        if decisions and decisions[-1] and not removed:
            expected.add(monitoring)

    shown_active = {m["entity_monitoring"]["uuid"] for m in monitorings(api, config["uuid"]) if status_of(m) == "active"}
    filtered = {m["entity_monitoring"]["uuid"] for m in monitorings(api, config["uuid"], approval_status_key="active")}
    config_row = ScreeningConfig.objects.get(uuid=config["uuid"])
    with CaptureQueriesContext(connection) as queries:
        screened = {str(u) for u in monitorings_screened(screening_config=config_row).values_list("uuid", flat=True)}
    assert len(queries) == 1
    assert screened == shown_active == filtered == expected
    assert len(expected) == 2
