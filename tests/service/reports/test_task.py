"""The production task: status moves, and a worker that dies mid-report."""

from __future__ import annotations

import pytest
from django.core.files.storage import default_storage

from service.reports import services
from service.reports.models import PartnerReport, PartnerReportOrder
from service.reports.paths import storage_name
from service.reports.producers.pdf import PdfReportProducer
from service.reports.tasks import partner_report_order_produce


class WorkerKilled(BaseException):
    """Stands in for SIGKILL: not an Exception, so nothing in the service catches it."""


@pytest.fixture
def pending_order(api, company, django_capture_on_commit_callbacks):
    lines = [{"partner_report": {"company_uuid": str(company.uuid), "partner_report_type_key": key}}
             for key in ("company_profile", "ownership_report")]
    with django_capture_on_commit_callbacks(execute=False):  # the task is not run: the order stays pending
        response = api.post(
            f"/analysis/v1/app-customer/{api.app_customer_uuid}/partner-report-order-composite",
            {"partner_report_composites": lines},
        )
    return PartnerReportOrder.objects.get(uuid=response.json()["partner_report_order_uuid"])


def files_of(order) -> list[str]:
    folder = storage_name(f"app_customer/{order.app_customer_id}")
    found = []

    def walk(path):
        directories, files = default_storage.listdir(path)
        found.extend(f"{path}/{name}" for name in files)
        for directory in directories:
            walk(f"{path}/{directory}")

    walk(folder)
    return sorted(found)


def test_it_moves_pending_to_processing_to_complete(pending_order, monkeypatch):
    seen = []

    class Watching(PdfReportProducer):
        def produce(self, report):
            seen.append((PartnerReportOrder.objects.get().status, PartnerReport.objects.get(pk=report.pk).status))
            return super().produce(report)

    assert pending_order.status == "pending"
    services.partner_report_order_process(order_uuid=pending_order.uuid, producer=Watching())

    assert seen == [("processing", "processing"), ("processing", "processing")]
    pending_order.refresh_from_db()
    assert pending_order.status == "complete" and pending_order.complete_timestamp is not None


def test_a_worker_killed_after_writing_leaves_an_order_that_completes_with_one_file(pending_order, monkeypatch):
    real_write = services.file_write

    def write_then_die(**kwargs):
        real_write(**kwargs)
        raise WorkerKilled  # the file is written, the row not yet marked complete

    monkeypatch.setattr(services, "file_write", write_then_die)
    with pytest.raises(WorkerKilled):
        partner_report_order_produce.delay(str(pending_order.uuid))
    pending_order.refresh_from_db()
    assert pending_order.status == "processing"
    assert list(PartnerReport.objects.order_by("position").values_list("status", flat=True)) == ["processing", "pending"]
    assert len(files_of(pending_order)) == 1

    monkeypatch.setattr(services, "file_write", real_write)
    partner_report_order_produce.delay(str(pending_order.uuid))  # the broker redelivers (acks_late)

    pending_order.refresh_from_db()
    assert pending_order.status == "complete"
    reports = list(PartnerReport.objects.order_by("position"))
    assert [r.status for r in reports] == ["complete", "complete"]
    assert files_of(pending_order) == sorted(storage_name(r.file_path) for r in reports)


def test_a_worker_killed_mid_render_leaves_no_file_and_completes_later(pending_order, monkeypatch):
    class DiesInTheMiddle(PdfReportProducer):
        def produce(self, report):
            raise WorkerKilled

    with pytest.raises(WorkerKilled):
        services.partner_report_order_process(order_uuid=pending_order.uuid, producer=DiesInTheMiddle())
    assert PartnerReportOrder.objects.get().status == "processing"

    partner_report_order_produce.delay(str(pending_order.uuid))

    assert PartnerReportOrder.objects.get().status == "complete"
    assert len(files_of(pending_order)) == 2


def test_running_a_complete_order_again_changes_nothing(pending_order):
    partner_report_order_produce.delay(str(pending_order.uuid))
    before = {r.uuid: (r.status, r.complete_timestamp) for r in PartnerReport.objects.all()}

    partner_report_order_produce.delay(str(pending_order.uuid))

    assert {r.uuid: (r.status, r.complete_timestamp) for r in PartnerReport.objects.all()} == before
    assert len(files_of(pending_order)) == 2


def test_it_logs_and_returns_when_the_order_is_gone(pending_order, caplog):
    order_uuid = str(pending_order.uuid)
    pending_order.delete()

    assert partner_report_order_produce.delay(order_uuid).result is None
    assert "is gone" in caplog.text


def test_an_unexpected_error_fails_the_report_with_a_reason(pending_order):
    class Buggy(PdfReportProducer):
        def produce(self, report):
            raise ValueError("bug")

    services.partner_report_order_process(order_uuid=pending_order.uuid, producer=Buggy())

    order = PartnerReportOrder.objects.get()
    assert order.status == "failed"
    assert "internal error" in order.failure_reason and "bug" not in order.failure_reason
