"""Four runs of the same monitoring at once (two workers, a redelivered task) make one entity
inquiry and one case: both are inserted with ON CONFLICT DO NOTHING against their UNIQUE
constraints. PostgreSQL only: SQLite serialises writers anyway."""

from __future__ import annotations

import pytest
from django.db import connection

from service.screening.models import EntityInquiry, ScreeningCase
from service.screening.screening_run import monitorings_screen
from tests.racing import at_once
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import customer_person_make, decide, monitoring_make

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs concurrent writers")


def test_it_makes_one_case_under_concurrent_runs(api, lists):
    config = config_with(api, "un_security_council")
    person = customer_person_make(api, config["uuid"], full_name=UN_PERSON, birth_date=None, gender_uuid=None)
    monitoring = monitoring_make(api, config["uuid"], customer_person=person["uuid"])["entity_monitoring"]
    decide(api, config["uuid"], monitoring["uuid"])  # the first run, on commit
    ScreeningCase.objects.all().delete()
    EntityInquiry.objects.all().delete()
    at_once(*[lambda: monitorings_screen(monitoring_uuids=[monitoring["uuid"]])] * 4)
    assert EntityInquiry.objects.count() == 1
    assert ScreeningCase.objects.count() == 1
