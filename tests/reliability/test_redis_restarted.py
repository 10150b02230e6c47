"""Redis killed and restarted while report orders arrive: every order the API accepted is
produced; nothing is lost. The orders are in PostgreSQL; the queue survives in Redis's
append-only file, and beat enqueues again what a publish during the outage could not send.

Runs its own redis-server on a spare port (never the machine's shared one)."""

from __future__ import annotations

import threading
import time

import pytest

from service.reports.models import PartnerReport
from tests.reliability.cluster import HttpCaller, RedisServer, cluster_running, postgresql_and_redis
from tests.reliability.steps import companies, orders_wait

pytestmark = [postgresql_and_redis, pytest.mark.django_db(transaction=True)]
ORDERS = 40


def test_it_loses_no_accepted_order_when_redis_restarts_under_load(api, tmp_path):
    reported = companies(ORDERS)
    (tmp_path / "redis").mkdir()
    server = RedisServer(tmp_path / "redis")
    server.start()
    accepted, refused = [], []
    env = {"VAKT_RESUME_AFTER_SECONDS": "5", "VAKT_RESUME_CHECK_SECONDS": "5"}
    try:
        with cluster_running(tmp_path, broker_url=server.url, env=env, beat=True) as cluster:
            webs = [HttpCaller(url, api.credentials) for url in cluster.urls.values()]

            def place_orders():
                for i, company in enumerate(reported):
                    path = f"/analysis/v1/app-customer/{webs[i % 2].app_customer_uuid}/partner-report-order-composite"
                    line = {"partner_report": {"company_uuid": str(company.uuid), "partner_report_type_key": "company_profile"}}
                    try:
                        response = webs[i % 2].post(path, {"partner_report_composites": [line]})
                    except Exception as exc:  # noqa: BLE001 - a refused request is counted, not raised
                        refused.append(repr(exc))
                        continue
                    if response.status_code == 201:
                        accepted.append(response.json()["partner_report_order_uuid"])
                    else:
                        refused.append(response.status_code)
                    time.sleep(0.1)

            load = threading.Thread(target=place_orders)
            load.start()
            while len(accepted) + len(refused) < ORDERS // 4:
                time.sleep(0.05)
            server.kill()
            time.sleep(2)
            server.start()
            load.join()
            orders_wait(accepted, timeout=90)
            log = cluster.log()
    finally:
        server.stop()

    print(f"accepted {len(accepted)}, refused {len(refused)} during the outage: {refused}")
    assert len(accepted) >= ORDERS // 2  # the load went on through the outage
    assert set(refused) <= {503}  # refused while Redis was away: "try again", not a failure
    assert PartnerReport.objects.filter(order__in=accepted, status="complete").count() == len(accepted)
    assert set(log.orders()) == set(accepted)
