"""Ordering a report from the dashboard: the row, the poll, the link straight to the service."""

import io
from uuid import uuid4

from django.test import Client
from pypdf import PdfReader

from portal.service import ServiceUnavailable
from reports.models import ReportDownload


def _order(client, company, report_type="company_profile", capture=None, **extra):
    with capture(execute=True):
        return client.post("/reports/order/", {"company_uuid": str(company.uuid), "report_type": report_type, **extra})


def test_it_orders_a_company_profile_and_links_the_pdf_through_a_file_session(
    member, company, django_capture_on_commit_callbacks
):
    client = member.client()

    response = _order(client, company, capture=django_capture_on_commit_callbacks)

    assert response.status_code == 302 and response["Location"] == "/reports/"
    download = ReportDownload.objects.get()
    assert (download.status, download.company_name, download.report_type) == ("complete", "Havbris Teknologi AS", "company_profile")
    assert download.organisation == member.organisation and download.ordered_by == member.member
    assert download.file_session_uuid and download.link_expires_at
    page = client.get("/reports/").content.decode()
    assert "Company profile of Havbris Teknologi AS ordered" in page
    assert f'href="/analysis/v1/file/{download.file_path}?file_session_uuid={download.file_session_uuid}&amp;bucket_name=general"' in page
    # the link works in a browser with no credentials at all: it goes straight to the service
    pdf = Client().get(download.download_url)
    content = b"".join(pdf.streaming_content) if pdf.streaming else pdf.content
    assert pdf.status_code == 200 and content.startswith(b"%PDF")
    assert "Havbris Teknologi AS" in PdfReader(io.BytesIO(content)).pages[0].extract_text()


def test_it_lets_a_viewer_order_a_company_profile_but_not_a_credit_report(
    viewer, company, django_capture_on_commit_callbacks
):
    client = viewer.client()
    company_page = client.get(f"/companies/{company.uuid}/").content.decode()
    assert 'value="company_profile"' in company_page and 'value="credit_report"' not in company_page

    refused = _order(client, company, "credit_report", capture=django_capture_on_commit_callbacks, next=f"/companies/{company.uuid}/")
    assert refused["Location"] == f"/companies/{company.uuid}/"
    assert "Your role cannot order a credit report" in client.get(refused["Location"]).content.decode()
    assert not ReportDownload.objects.exists()

    _order(client, company, "ownership_report", capture=django_capture_on_commit_callbacks)
    assert ReportDownload.objects.get().status == "complete"


def test_it_offers_what_the_service_says_a_role_may_order(viewer, company):
    """The role a report type needs is the service's rule (its report types say it); the dashboard has no copy."""
    from service.reports.models import PartnerReportType

    PartnerReportType.objects.filter(key="ownership_report").update(required_role_key="credit_check")
    PartnerReportType.objects.filter(key="credit_report").update(required_role_key="")

    company_page = viewer.client().get(f"/companies/{company.uuid}/").content.decode()

    assert 'value="credit_report"' in company_page and 'value="ownership_report"' not in company_page


def test_it_offers_an_officer_the_credit_report(member, company, django_capture_on_commit_callbacks):
    client = member.client()
    assert 'value="credit_report"' in client.get(f"/companies/{company.uuid}/").content.decode()

    _order(client, company, "credit_report", capture=django_capture_on_commit_callbacks)

    assert ReportDownload.objects.get().report_type == "credit_report"


def test_it_says_so_when_the_company_is_unknown_and_orders_nothing(member, db, django_capture_on_commit_callbacks):
    client = member.client()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/reports/order/", {"company_uuid": str(uuid4()), "report_type": "company_profile"}, follow=True)

    assert "The report was not ordered." in response.content.decode()
    assert not ReportDownload.objects.exists()


def test_it_shows_a_sentence_not_a_trace_when_the_service_is_unreachable(member, company, monkeypatch):
    def unreachable(*args, **kwargs):
        raise ServiceUnavailable(0, "unreachable", "The service could not be reached: connection refused")

    monkeypatch.setattr("portal.service.reports.ReportsArea.order", unreachable)
    response = member.client().post(
        "/reports/order/", {"company_uuid": str(company.uuid), "report_type": "company_profile"}, follow=True
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert "The report was not ordered. The service could not be reached, so nothing was changed." in page
    assert "Traceback" not in page and "connection refused" not in page
