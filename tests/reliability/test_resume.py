"""Work whose message never reached the broker (Redis away at the moment of the commit) is in
the database: the request still answers, and beat's resume tasks enqueue it again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from portal.celery import app
from service.reports.models import PartnerReportOrder
from service.reports.tasks import partner_report_orders_resume
from service.screening.models import EntityMonitoring, ScreeningCase, ScreeningRun
from service.screening.rescreen import full_rescreen_plan
from service.screening.tasks import screening_monitorings_resume, screening_run_chunks_resume
from tests.reliability.cluster import _producer_pool_reset
from tests.reliability.steps import LISTED_PERSON, UN, lists_imported, person_screened, persons_monitored
from tests.service.companies.factories import company_make
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import customer_person_make, decide, monitoring_make

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_away():
    """Publishing goes to a port where nothing listens, without retries; then eager again."""
    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "task_publish_retry", "broker_connection_timeout")}
    app.conf.update(task_always_eager=False, broker_url="redis://127.0.0.1:9/0", task_publish_retry=False,
                    broker_connection_timeout=0.5)
    _producer_pool_reset(app)
    yield
    app.conf.update(saved)
    _producer_pool_reset(app)


def _later(settings) -> None:
    """Pretend the resume delay has passed."""
    settings.VAKT_RESUME_AFTER_SECONDS = 5
    PartnerReportOrder.objects.update(update_timestamp=timezone.now() - timedelta(seconds=60))
    ScreeningRun.objects.update(created_timestamp=timezone.now() - timedelta(seconds=60))
    EntityMonitoring.objects.exclude(screening_owed_timestamp=None).update(
        screening_owed_timestamp=timezone.now() - timedelta(seconds=60)
    )


def test_it_accepts_an_order_while_the_broker_is_away_and_produces_it_when_resumed(api, broker_away, settings):
    company = company_make(name="Nordlys Handel AS")
    line = {"partner_report": {"company_uuid": str(company.uuid), "partner_report_type_key": "company_profile"}}
    response = api.post(f"/analysis/v1/app-customer/{api.app_customer_uuid}/partner-report-order-composite",
                        {"partner_report_composites": [line]})
    assert response.status_code == 201, response.content
    order = PartnerReportOrder.objects.get(pk=response.json()["partner_report_order_uuid"])
    assert order.status == "pending"  # its message was lost

    app.conf.task_always_eager = True
    assert partner_report_orders_resume() == 0  # not yet: it may still be in a queue
    _later(settings)
    assert partner_report_orders_resume() == 1
    order.refresh_from_db()
    assert order.status == "complete"
    assert partner_report_orders_resume() == 0


def test_it_plans_a_run_while_the_broker_is_away_and_screens_it_when_resumed(api, broker_away, settings, tmp_path):
    app.conf.task_always_eager = True
    lists_imported(tmp_path)
    config = config_with(api, UN)
    persons_monitored(config["uuid"], [LISTED_PERSON, "Kari Nordmann", "Ola Nordmann"])
    app.conf.task_always_eager = False

    run = full_rescreen_plan(chunk_size=2)  # the chunks' messages are lost

    app.conf.task_always_eager = True
    assert not ScreeningRun.objects.filter(pk=run.pk, finished_timestamp__isnull=False).exists()
    _later(settings)
    assert screening_run_chunks_resume() == 2
    assert ScreeningRun.objects.get(pk=run.pk).finished_timestamp is not None



def test_it_approves_monitorings_while_the_broker_is_away_and_screens_them_when_resumed(api, broker_away, settings, tmp_path):
    app.conf.task_always_eager = True
    lists_imported(tmp_path)
    config = config_with(api, UN)
    app.conf.task_always_eager = False

    person_screened(api, config["uuid"], "Kari Nordmann")  # created approved: 201, its screening lost
    listed = customer_person_make(api, config["uuid"], full_name=LISTED_PERSON, birth_date=None)
    pending = monitoring_make(api, config["uuid"], customer_person=listed["uuid"])
    approved = decide(api, config["uuid"], pending["entity_monitoring"]["uuid"])
    assert approved.status_code == 201, approved.content  # approved later: its screening lost too
    assert not ScreeningCase.objects.exists()

    app.conf.task_always_eager = True
    assert screening_monitorings_resume() == 0  # not yet: it may still be in a queue
    _later(settings)
    assert screening_monitorings_resume() == 2
    [case] = ScreeningCase.objects.filter(screening_config_id=config["uuid"])
    assert str(case.entity_inquiry.customer_person_id) == listed["uuid"]
    assert screening_monitorings_resume() == 0
    assert ScreeningCase.objects.count() == 1


def test_it_schedules_every_resume_by_a_task_the_worker_registers(settings):
    app.loader.import_default_modules()  # what a worker does at start: every app's tasks module
    resumes = {key: entry for key, entry in settings.CELERY_BEAT_SCHEDULE.items() if key.endswith("-resume")}
    assert len(resumes) == 8
    assert all(entry["task"] in app.tasks for entry in resumes.values())
    assert len({entry["schedule"] for entry in resumes.values()}) == 1  # all every VAKT_RESUME_CHECK_SECONDS
