"""portal.service.reports against a fake service answering the shapes of /work/wt/CONTRACT.md."""

from uuid import UUID, uuid4

import pytest

from portal.service import ServiceForbidden
from tests.portal.service.fakes import BASE_URL, FakeService, fake_client

ACU = str(uuid4())
ORDER = str(uuid4())
COMPANY = str(uuid4())
FILE_PATH = f"app_customer/{ACU}/company/{COMPANY}/company_profile/Nordlys AS company profile.pdf"


def _order(status="pending", reason=None) -> dict:
    return {
        "uuid": ORDER, "app_customer_uuid": ACU, "partner_report_order_status_key": status, "failure_reason": reason,
        "create_timestamp": "2025-05-01T08:00:00Z", "update_timestamp": "2025-05-01T08:00:05Z",
        "complete_timestamp": "2025-05-01T08:00:05Z" if status == "complete" else None,
        "app_url": f"/reports/orders/{ORDER}/",
    }


def _composite(status="pending", type_key="company_profile") -> dict:
    complete = status == "complete"
    return {
        "partner_report": {
            "uuid": str(uuid4()), "partner_report_order_uuid": ORDER, "company_uuid": COMPANY,
            "partner_report_type_key": type_key, "partner_report_status_key": status,
            "file_path": FILE_PATH if complete else None, "file_name": FILE_PATH.rsplit("/", 1)[1] if complete else None,
            "file_size": 48213 if complete else None, "content_type": "application/pdf" if complete else None,
            "create_timestamp": "2025-05-01T08:00:00Z", "complete_timestamp": "2025-05-01T08:00:05Z" if complete else None,
        },
        "company": {"uuid": COMPANY, "name": "Nordlys AS", "org_nr": "923609016", "org_nr_schema": "NO", "app_url": None},
        "partner_report_type": {"uuid": str(uuid4()), "partner_report_type_key": type_key, "description": "Company profile"},
    }


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture
def reports(service):
    return fake_client(service, app_customer_uuid=ACU).reports


def test_it_lists_the_report_types(service, reports):
    service.answer("GET", "/analysis/v1/partner-report-type", [
        {"uuid": str(uuid4()), "partner_report_type_key": "company_profile", "description": "Company profile"},
        {"uuid": str(uuid4()), "partner_report_type_key": "credit_report", "description": "Credit report"},
    ])

    assert [t.key for t in reports.types()] == ["company_profile", "credit_report"]


def test_it_orders_reports_and_reads_the_order_back(service, reports):
    service.answer("POST", f"/analysis/v1/app-customer/{ACU}/partner-report-order-composite",
                   {"partner_report_order_uuid": ORDER, "partner_report_order": _order(), "partner_report_composites": [_composite()]},
                   status=201)

    placed = reports.order([(UUID(COMPANY), "company_profile")])

    assert placed.order.uuid == UUID(ORDER) and placed.order.status == "pending" and not placed.order.is_finished
    assert placed.reports[0].company.name == "Nordlys AS" and placed.reports[0].file_path is None
    assert service.sent[-1].body == {
        "partner_report_composites": [{"partner_report": {"company_uuid": COMPANY, "partner_report_type_key": "company_profile"}}]
    }


def test_a_credit_report_without_credit_check_is_forbidden(service, reports):
    service.answer("POST", f"/analysis/v1/app-customer/{ACU}/partner-report-order-composite",
                   {"detail": "Missing role(s): credit_check. Do you have access to the role, and have you added it to the Nk-Role-Keys header?",
                    "code": "role_missing", "errors": []}, status=403)

    with pytest.raises(ServiceForbidden) as caught:
        reports.order([(COMPANY, "credit_report")])

    assert caught.value.code == "role_missing"


@pytest.mark.parametrize("status, finished", [("pending", False), ("processing", False), ("complete", True), ("failed", True)])
def test_it_polls_the_order_status(service, reports, status, finished):
    service.answer("GET", f"/analysis/v1/app-customer/{ACU}/partner-report-order/{ORDER}",
                   _order(status, "The partner timed out." if status == "failed" else None))

    order = reports.order_get(ORDER)

    assert (order.status, order.is_finished) == (status, finished)
    assert (order.failure_reason is not None) == (status == "failed")


def test_it_lists_reports_with_their_files(service, reports):
    service.answer("GET", f"/analysis/v1/app-customer/{ACU}/partner-report-composite", [_composite("complete")])

    (report,) = reports.list(company_identifier="NO923609016", type_keys=["company_profile", "credit_report"], order_uuid=ORDER)

    assert report.status == "complete" and report.file_path == FILE_PATH
    assert (report.file_size, report.content_type, report.report_type.description) == (48213, "application/pdf", "Company profile")
    assert service.sent[-1].query == {
        "company_identifier": "NO923609016",
        "partner_report_type_identifiers": "company_profile,credit_report",
        "partner_report_order_uuid": ORDER,
    }


def test_a_file_session_gives_a_link_that_needs_no_credentials(service, reports):
    session_uuid = str(uuid4())
    service.answer("POST", "/analysis/v1/file-session", [
        {"app_customer_uuid": ACU, "file_path": FILE_PATH, "file_session_uuid": session_uuid, "expires_timestamp": "2025-05-02T08:00:00Z"}
    ], status=201)

    session = reports.file_session(FILE_PATH)
    link = reports.download_url(session)

    assert service.sent[-1].body == [{"app_customer_uuid": ACU, "file_path": FILE_PATH}]
    assert session.uuid == UUID(session_uuid) and session.expires_at.day == 2
    assert link == (
        f"{BASE_URL}/analysis/v1/file/app_customer/{ACU}/company/{COMPANY}/company_profile/Nordlys%20AS%20company%20profile.pdf"
        f"?file_session_uuid={session_uuid}&bucket_name=general"
    )


def test_in_process_the_link_is_relative_to_this_site(service):
    reports = fake_client(service, app_customer_uuid=ACU).reports
    reports.client.link_base_url = ""
    session_uuid = str(uuid4())
    service.answer("POST", "/analysis/v1/file-session", [{"app_customer_uuid": ACU, "file_path": FILE_PATH, "file_session_uuid": session_uuid}])

    assert reports.download_url(reports.file_session(FILE_PATH)).startswith("/analysis/v1/file/app_customer/")


def test_it_downloads_a_file_with_its_own_credentials(service, reports):
    service.answer("GET", "/analysis/v1/file/app_customer/.+", b"%PDF-1.4 ...")

    assert reports.download(FILE_PATH).startswith(b"%PDF")
    assert service.sent[-1].headers["Authorization"].startswith("Basic ")
