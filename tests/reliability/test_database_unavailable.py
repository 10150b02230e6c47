"""PostgreSQL briefly unavailable: a gunicorn web process answers 503 in the error shape while its
database cannot be reached, and answers normally again once it can, on its own. The database is
reached through a TCP relay the test cuts (the shared server itself keeps running)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.reliability.cluster import HttpCaller, TcpProxy, cluster_running, database_url, postgresql_and_redis, wait_for

pytestmark = [postgresql_and_redis, pytest.mark.django_db(transaction=True)]


def test_it_answers_503_in_the_error_shape_while_the_database_is_away_and_recovers(api, tmp_path):
    proxy = TcpProxy(int(connection.settings_dict["PORT"] or 5432))
    try:
        with cluster_running(tmp_path, webs=1, workers=0, db_url=database_url(port=proxy.port)) as cluster:
            web = HttpCaller(cluster.urls["web1"], api.credentials)
            path = f"/analysis/v1/app-customer/{web.app_customer_uuid}/watchlist"
            assert web.get(path).status_code == 200

            proxy.cut()
            for _ in range(3):  # the broken connection, then new ones refused
                down = web.get(path)
                assert down.status_code == 503, down.text
                body = down.json()
                assert body["code"] == "service_unavailable" and body["errors"] == []
                assert body["request_id"] == down.headers["X-Request-Id"] and down.headers["Retry-After"] == "5"

            proxy.restore()
            wait_for(lambda: web.get(path).status_code == 200, timeout=10, what="answers again after the database is back")
    finally:
        proxy.close()
