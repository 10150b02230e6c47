"""Writes one PDF of each report type to $VAKT_REPORT_SAMPLES (when set) for looking at them."""

import os
from pathlib import Path

import pytest
from django.core.files.storage import default_storage

from service.reports.models import PartnerReport
from service.reports.paths import storage_name

pytestmark = pytest.mark.skipif(not os.environ.get("VAKT_REPORT_SAMPLES"), reason="set VAKT_REPORT_SAMPLES to a folder")


def test_it_writes_samples(api, company, django_capture_on_commit_callbacks):
    lines = [{"partner_report": {"company_uuid": str(company.uuid), "partner_report_type_key": k}}
             for k in ("company_profile", "credit_report", "ownership_report")]
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"/analysis/v1/app-customer/{api.app_customer_uuid}/partner-report-order-composite",
                 {"partner_report_composites": lines}, roles=["credit_check"])
    folder = Path(os.environ["VAKT_REPORT_SAMPLES"])
    for report in PartnerReport.objects.select_related("report_type"):
        with default_storage.open(storage_name(report.file_path)) as handle:
            (folder / f"{report.report_type.key}.pdf").write_bytes(handle.read())
