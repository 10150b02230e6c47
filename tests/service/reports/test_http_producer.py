"""The HTTP partner adapter against a fake partner on 127.0.0.1 (a real socket, a real server)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.files.storage import default_storage

from service.reports.models import PartnerReport, PartnerReportOrder
from service.reports.paths import storage_name
from service.reports.producers import ProducerError
from service.reports.producers.http import HttpReportProducer
from tests.service.reports.conftest import order_reports

PDF = b"%PDF-1.4\n% partner report\n%%EOF\n"


class FakePartner:
    """Answers from a script: each request pops the next (status, content type, body, delay)."""

    def __init__(self):
        self.script: list[tuple[int, str, bytes, float]] = []
        self.requests: list[dict] = []
        partner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                partner.requests.append({"body": json.loads(body), "idempotency_key": self.headers["Idempotency-Key"]})
                status, content_type, answer, delay = partner.script.pop(0) if partner.script else (200, "application/pdf", PDF, 0)
                if delay:
                    threading.Event().wait(delay)
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/reports"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def partner(settings):
    fake = FakePartner()
    settings.VAKT_REPORT_PRODUCER = "service.reports.producers.http.HttpReportProducer"
    settings.VAKT_REPORT_PARTNER_URL = fake.url
    yield fake
    fake.close()


def test_it_stores_the_partners_pdf(api, company, partner, django_capture_on_commit_callbacks):
    order_reports(api, django_capture_on_commit_callbacks, company, "company_profile")

    report = PartnerReport.objects.get()
    assert report.status == "complete"
    with default_storage.open(storage_name(report.file_path)) as handle:
        assert handle.read() == PDF
    (request,) = partner.requests
    assert request["idempotency_key"] == str(report.uuid)
    assert request["body"]["partner_report_type_key"] == "company_profile"
    assert request["body"]["company"]["org_nr"] == "913748174"


def test_it_retries_a_partner_that_is_briefly_down(api, company, partner, django_capture_on_commit_callbacks):
    partner.script = [(503, "text/plain", b"busy", 0), (502, "text/plain", b"busy", 0)]

    order_reports(api, django_capture_on_commit_callbacks, company, "company_profile")

    assert PartnerReportOrder.objects.get().status == "complete"
    assert len(partner.requests) == 3
    assert len({r["idempotency_key"] for r in partner.requests}) == 1


def test_it_fails_the_order_when_the_partner_keeps_failing(api, company, partner, settings, django_capture_on_commit_callbacks):
    settings.VAKT_REPORT_PARTNER_RETRIES = 1
    partner.script = [(500, "text/plain", b"down", 0)] * 5

    order_reports(api, django_capture_on_commit_callbacks, company, "company_profile")

    order = PartnerReportOrder.objects.get()
    assert order.status == "failed"
    assert order.failure_reason.endswith("The report partner answered HTTP 500.")
    assert len(partner.requests) == 2


def test_it_gives_up_after_its_timeout(company, partner):
    partner.script = [(200, "application/pdf", PDF, 1.5)]
    producer = HttpReportProducer(url=partner.url, timeout_seconds=0.3, retries=0)
    report = type("Line", (), {"uuid": "r-1", "company": company, "report_type": type("T", (), {"key": "company_profile"})})

    with pytest.raises(ProducerError, match="did not answer within 0.3 s"):
        producer.produce(report)


def test_it_refuses_an_answer_that_is_not_a_pdf(company, partner):
    partner.script = [(200, "text/html", b"<html>login</html>", 0)]
    report = type("Line", (), {"uuid": "r-1", "company": company, "report_type": type("T", (), {"key": "company_profile"})})

    with pytest.raises(ProducerError, match="sent no PDF"):
        HttpReportProducer(url=partner.url, retries=0).produce(report)


def test_an_unconfigured_partner_fails_the_order_with_a_reason(api, company, settings, django_capture_on_commit_callbacks):
    settings.VAKT_REPORT_PRODUCER = "service.reports.producers.http.HttpReportProducer"
    settings.VAKT_REPORT_PARTNER_URL = ""

    order_reports(api, django_capture_on_commit_callbacks, company, "company_profile")

    assert "VAKT_REPORT_PARTNER_URL" in PartnerReportOrder.objects.get().failure_reason
