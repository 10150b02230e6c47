"""Beat's weekly full re-screen: every screened entity against every current list, so what a list
version's delta run leaves out by design (here: a name changed outside every screening path) is
found within a week; one run at a time, and a lost run does not block the next."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from service.screening.models import CustomerPerson, ScreeningRun
from service.screening.tasks import screening_full_rescreen_scheduled
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened


def test_it_finds_a_hit_no_delta_run_looks_for(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], "Kari Nordmann")
    assert cases(api, config["uuid"])["count"] == 0
    # Corrected in the database by hand: no screening path saw the new name.
    CustomerPerson.objects.update(full_name=UN_PERSON)
    earlier = set(ScreeningRun.objects.values_list("uuid", flat=True))  # the config's own, when UN was selected

    assert screening_full_rescreen_scheduled().startswith("run ")

    [composite] = cases(api, config["uuid"])["elements"]
    assert composite["screening_case_match"]["list_entry"]["source_id"] == "KPi.901"
    run = ScreeningRun.objects.exclude(uuid__in=earlier).get(kind="full")
    assert run.finished_timestamp is not None and run.chunks.get().cases_created == 1


def test_it_waits_for_an_unfinished_run_of_the_last_day_but_not_for_a_lost_one(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], "Kari Nordmann")
    unfinished = ScreeningRun.objects.create(kind=ScreeningRun.Kind.FULL)
    runs = ScreeningRun.objects.filter(kind="full").count()

    assert screening_full_rescreen_scheduled() is None
    assert ScreeningRun.objects.filter(kind="full").count() == runs

    ScreeningRun.objects.filter(pk=unfinished.pk).update(created_timestamp=timezone.now() - timedelta(days=2))
    assert screening_full_rescreen_scheduled() is not None
    assert ScreeningRun.objects.filter(kind="full").count() == runs + 1


def test_beat_schedules_it_weekly_by_a_task_the_worker_registers(settings):
    from portal.celery import app

    app.loader.import_default_modules()  # what a worker does at start
    entry = settings.CELERY_BEAT_SCHEDULE["screening-full-rescreen"]
    assert entry["task"] in app.tasks and entry["schedule"] == 7 * 24 * 3600
