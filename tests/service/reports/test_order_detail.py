"""GET /analysis/v1/app-customer/{acu}/partner-report-order/{uuid}: the order and its status."""

from __future__ import annotations

from service.reports.models import PartnerReportOrder
from service.reports.producers import ProducerError
from tests.service.reports.conftest import order_reports


def url(caller, order_uuid) -> str:
    return f"/analysis/v1/app-customer/{caller.app_customer_uuid}/partner-report-order/{order_uuid}"


def test_it_shows_a_complete_order(api, company, django_capture_on_commit_callbacks):
    answer = order_reports(api, django_capture_on_commit_callbacks, company, "company_profile")

    response = api.get(url(api, answer["partner_report_order_uuid"]))

    assert response.status_code == 200
    order = response.json()
    assert order["partner_report_order_status_key"] == "complete"
    assert order["failure_reason"] is None and order["complete_timestamp"] is not None
    assert set(order) == {"uuid", "app_customer_uuid", "partner_report_order_status_key", "failure_reason",
                          "create_timestamp", "update_timestamp", "complete_timestamp", "app_url"}


class BrokenPartner:
    def produce(self, report):
        raise ProducerError("The report partner answered HTTP 503.")


def test_it_shows_a_failed_order_with_its_reason(api, company, settings, django_capture_on_commit_callbacks):
    settings.VAKT_REPORT_PRODUCER = "tests.service.reports.test_order_detail.BrokenPartner"

    answer = order_reports(api, django_capture_on_commit_callbacks, company, "company_profile")
    order = api.get(url(api, answer["partner_report_order_uuid"])).json()

    assert order["partner_report_order_status_key"] == "failed"
    assert order["failure_reason"] == "company_profile for Nordlys Handel AS (913748174): The report partner answered HTTP 503."
    assert order["complete_timestamp"] is None


def test_it_is_404_for_another_organisations_order(api, other_api, company, django_capture_on_commit_callbacks):
    answer = order_reports(api, django_capture_on_commit_callbacks, company, "company_profile")
    order_uuid = answer["partner_report_order_uuid"]

    assert other_api.get(url(other_api, order_uuid)).status_code == 404
    assert other_api.get(url(api, order_uuid)).status_code == 404
    assert PartnerReportOrder.objects.count() == 1


def test_it_is_404_for_an_unknown_order(api):
    assert api.get(url(api, "6f1c2a0e-0000-4000-8000-000000000000")).status_code == 404
