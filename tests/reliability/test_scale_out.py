"""Scale-out: two gunicorn web processes and two Celery workers on one PostgreSQL database and
one Redis broker share the work (report orders, screenings, a list import and the re-screening
runs it and a full re-screen start) and do none of it twice."""

from __future__ import annotations

import subprocess

import pytest

from service.reports.models import PartnerReport
from service.screening.models import ScreeningCase, ScreeningListVersion, ScreeningRun, ScreeningRunChunk
from service.screening.rescreen import full_rescreen_plan
from service.screening.tasks import screening_list_refresh_task
from tests.reliability.cluster import FileServer, HttpCaller, cluster_running, postgresql_and_redis, wait_for
from tests.reliability.steps import (
    LISTED_PERSON, NEW_LISTED_PERSON, UN, category_refresh_url_set, companies, list_served, lists_imported, order,
    orders_finished, orders_wait, person_screened,
)
from tests.service.screening.cases.steps import config_with

pytestmark = [postgresql_and_redis, pytest.mark.django_db(transaction=True)]

ORDERS = 12
NAMES = [LISTED_PERSON, NEW_LISTED_PERSON, "Kari Nordmann", "Ola Nordmann", "Per Hansen", "Liv Berg"]


def celery_processes() -> str:
    """The machine's Celery processes: a worker left over from another test would take orders."""
    ps = subprocess.run(["ps", "-eo", "pid,pgid,etimes,args"], capture_output=True, text=True)
    return "\n".join(line for line in ps.stdout.splitlines() if " celery " in line) or "none"


def test_it_shares_the_work_between_two_web_processes_and_two_workers_and_does_none_twice(api, tmp_path):
    lists_imported(tmp_path)
    config = config_with(api, UN)
    reported = companies(ORDERS)
    served = FileServer(tmp_path / "served")
    list_served(tmp_path / "served")
    category_refresh_url_set(UN, f"{served.url}/un.xml")

    # Nothing is killed here: a visibility timeout longer than any task, as in production.
    with cluster_running(tmp_path, visibility_timeout=120) as cluster:
        webs = [HttpCaller(url, api.credentials) for url in cluster.urls.values()]
        order_uuids = [order(webs[i % 2], company) for i, company in enumerate(reported)]
        monitoring_uuids = [person_screened(webs[i % 2], config["uuid"], name) for i, name in enumerate(NAMES)]
        screening_list_refresh_task.delay(UN)  # a list import in a worker: the next UN version
        orders_wait(order_uuids, timeout=45)
        wait_for(lambda: ScreeningListVersion.objects.filter(category__key=UN).count() == 2, timeout=60,
                 what="the UN list's next version imported")
        wait_for(lambda: not ScreeningRun.objects.filter(finished_timestamp=None).exists(), timeout=30,
                 what="the new version's re-screen finished")
        wait_for(lambda: sum(cluster.log().by_worker("screening_run_task").values()) == len(monitoring_uuids),
                 timeout=30, what="every new monitoring screened")
        run = full_rescreen_plan(chunk_size=2)  # planned here, as `manage.py rescreen_all` does; chunks to the workers
        wait_for(lambda: ScreeningRun.objects.filter(pk=run.pk).exclude(finished_timestamp=None).exists(),
                 timeout=30, what="the full re-screen finished")
        # A chunk is marked done before its worker logs it: wait for every chunk task's last line.
        wait_for(lambda: sum(cluster.log().by_worker("screening_run_chunk_task").values())
                 >= ScreeningRunChunk.objects.count(), timeout=30, what="every chunk task logged")
        log = cluster.log()

    # Every task ran exactly once, and both workers took a share of the orders and of the screening.
    assert [task for task, runs in log.task_ids().items() if runs != 1] == []
    unlogged = sorted(set(order_uuids) - set(log.orders()))
    assert not unlogged, "\n".join(
        f"order {u} ({orders_finished([u])}) is in no worker's log; its lines:\n{log.mentions(tmp_path, u)}"
        f"\ncelery processes now:\n{celery_processes()}"
        for u in unlogged
    )
    assert sorted(log.orders()) == sorted(order_uuids) and set(log.orders().values()) == {1}
    assert sum(log.by_worker("partner_report_order_produce").values()) == ORDERS
    assert all(count > 0 for count in log.by_worker("partner_report_order_produce").values()), log.by_worker("partner_report_order_produce")
    screening = {w: log.by_worker("screening_run_task")[w] + log.by_worker("screening_run_chunk_task")[w] for w in ("w1", "w2")}
    assert all(count > 0 for count in screening.values()), screening
    assert sorted(log.chunks()) == sorted(str(u) for u in ScreeningRunChunk.objects.values_list("uuid", flat=True))
    assert set(log.chunks().values()) == {1}
    assert served.requests["/un.xml"] == 1  # the list import ran once

    # What the users see: every report produced once, one case per listed person, nothing doubled.
    assert PartnerReport.objects.filter(order__in=order_uuids, status="complete").count() == ORDERS
    assert sorted(ScreeningCase.objects.values_list("list_source_id", flat=True)) == ["KPi.901", "KPi.902"]
    assert ScreeningRun.objects.get(pk=run.pk).chunk_count == 3
    served.close()
