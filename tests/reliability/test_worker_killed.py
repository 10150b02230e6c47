"""A Celery worker killed (SIGKILL) in the middle of producing a report, of a list import and of
a screening run: the message it held was never acknowledged (acks_late), comes back after the
broker's visibility timeout, and the restarted worker completes the work once; nothing is lost
and nothing doubled."""

from __future__ import annotations

import io
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from reportlab.pdfgen import canvas

from service.reports.models import PartnerReport
from service.screening.models import ScreeningCase, ScreeningListVersion, ScreeningRun, ScreeningRunChunk
from service.screening.rescreen import full_rescreen_plan
from service.screening.tasks import screening_list_refresh_task
from tests.reliability.cluster import (
    VISIBILITY_TIMEOUT_SECONDS, FileServer, HttpCaller, cluster_running, postgresql_and_redis, wait_for,
)
from tests.reliability.steps import (
    LISTED_PERSON, UN, category_refresh_url_set, companies, list_served, lists_imported, order, orders_wait,
    persons_monitored,
)
from tests.service.screening.cases.steps import config_with

pytestmark = [postgresql_and_redis, pytest.mark.django_db(transaction=True)]
BACK_WITHIN = VISIBILITY_TIMEOUT_SECONDS + 60  # redelivery, then a worker's start and the work


class Hold:
    """Holds the first request it sees until released: the moment the worker is mid-task."""

    def __init__(self) -> None:
        self.reached, self.release, self.first = threading.Event(), threading.Event(), True

    def __call__(self, *_args) -> None:
        if self.first:
            self.first = False
            self.reached.set()
            self.release.wait(60)


class Partner:
    """A report partner over HTTP: answers a one-page PDF and records each Idempotency-Key."""

    def __init__(self, hold: Hold) -> None:
        partner, self.keys = self, []
        buffer = io.BytesIO()
        page = canvas.Canvas(buffer)
        page.drawString(72, 720, "Partner report")
        page.save()
        pdf = buffer.getvalue()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                partner.keys.append(self.headers["Idempotency-Key"])
                hold()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/pdf")
                    self.send_header("Content-Length", str(len(pdf)))
                    self.end_headers()
                    self.wfile.write(pdf)
                except OSError:
                    pass  # the worker that asked is gone

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/reports"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()


def test_it_completes_a_report_once_after_its_worker_is_killed_mid_report(api, tmp_path):
    [company] = companies(1)
    hold = Hold()
    partner = Partner(hold)
    env = {"VAKT_REPORT_PRODUCER": "service.reports.producers.http.HttpReportProducer",
           "VAKT_REPORT_PARTNER_URL": partner.url, "VAKT_REPORT_PARTNER_RETRIES": "0"}
    with cluster_running(tmp_path, webs=1, workers=1, env=env) as cluster:
        order_uuid = order(HttpCaller(cluster.urls["web1"], api.credentials), company)
        assert hold.reached.wait(60), "the worker never asked the partner"
        cluster.worker_kill("w1")  # mid-report: the partner has the request, the worker no answer
        hold.release.set()
        cluster.worker_start("w1")
        orders_wait([order_uuid], timeout=BACK_WITHIN)
        log = cluster.log()
    partner.httpd.shutdown()

    [report] = PartnerReport.objects.filter(order=order_uuid)
    assert report.status == "complete"
    assert (tmp_path / "data" / "media" / "general" / report.file_path).read_bytes().startswith(b"%PDF")
    assert partner.keys == [str(report.uuid)] * 2  # asked again with the same key: the partner bills once
    assert log.orders() == {order_uuid: 1}  # finished once, by the restarted worker


def test_it_imports_a_list_version_once_after_its_worker_is_killed_mid_import(api, tmp_path):
    lists_imported(tmp_path)
    config_with(api, UN)
    hold = Hold()
    served = FileServer(tmp_path / "served", on_request=hold)
    list_served(tmp_path / "served")
    category_refresh_url_set(UN, f"{served.url}/un.xml")
    with cluster_running(tmp_path, webs=0, workers=1) as cluster:
        screening_list_refresh_task.delay(UN)
        assert hold.reached.wait(60), "the worker never fetched the list"
        cluster.worker_kill("w1")  # mid-import: the download under way
        hold.release.set()
        cluster.worker_start("w1")
        wait_for(lambda: ScreeningRun.objects.filter(list_version__number=2, finished_timestamp__isnull=False).exists(),
                 timeout=BACK_WITHIN, what="the list's next version imported and re-screened")
        time.sleep(1)  # a second import, if there were one, would show now
        log = cluster.log()
    served.close()

    assert served.requests["/un.xml"] == 2
    assert list(ScreeningListVersion.objects.filter(category__key=UN).order_by("number").values_list("number", flat=True)) == [1, 2]
    assert ScreeningRun.objects.filter(list_version__number=2).count() == 1
    assert sum(log.by_worker("screening_list_refresh_task").values()) == 1


def test_it_finishes_a_screening_run_once_after_a_worker_is_killed_mid_chunk(api, tmp_path):
    lists_imported(tmp_path)
    config = config_with(api, UN)
    persons_monitored(config["uuid"], [LISTED_PERSON, "Kari Nordmann", "Ola Nordmann", "Per Hansen", "Liv Berg"])
    # The first worker loads the matching engine on its first chunk (seconds), when it is killed;
    # the restarted one loads it before it takes work, as production workers do.
    with cluster_running(tmp_path, webs=0, workers=1) as cluster:
        run = full_rescreen_plan(chunk_size=2)
        wait_for(lambda: "screening_run_chunk_task" in cluster.log().text["w1"], timeout=30, what="a chunk taken")
        time.sleep(0.5)
        cluster.worker_kill("w1")
        assert ScreeningRunChunk.objects.filter(run=run, done_timestamp=None).exists()  # killed mid-run
        cluster.worker_start("w1", env={"VAKT_WORKER_WARM_UP": "1"})
        wait_for(lambda: ScreeningRun.objects.filter(pk=run.pk, finished_timestamp__isnull=False).exists(),
                 timeout=BACK_WITHIN + 60, what="the run finished")

    chunks = ScreeningRunChunk.objects.filter(run=run)
    assert chunks.count() == 3 and all(c.done_timestamp for c in chunks)
    assert sum(c.screened for c in chunks) == 5  # every person screened, none counted twice
    assert list(ScreeningCase.objects.values_list("list_source_id", flat=True)) == ["KPi.901"]
