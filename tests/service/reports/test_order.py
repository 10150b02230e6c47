"""POST /analysis/v1/app-customer/{acu}/partner-report-order-composite: ordering reports."""

from __future__ import annotations

import pytest
from django.core.files.storage import default_storage

from service.reports.models import PartnerReport, PartnerReportOrder
from service.reports.paths import storage_name
from tests.service.reports.conftest import pdf_text

SPEC_WORDING = (
    "Missing role(s): credit_check. Do you have access to the role, "
    "and have you added it to the Nk-Role-Keys header?"
)


def order_url(caller) -> str:
    return f"/analysis/v1/app-customer/{caller.app_customer_uuid}/partner-report-order-composite"


def body(*lines) -> dict:
    return {"partner_report_composites": [
        {"partner_report": {"company_uuid": str(company_uuid), "partner_report_type_key": key}} for company_uuid, key in lines
    ]}


def order(caller, django_capture_on_commit_callbacks, *lines, roles=None):
    with django_capture_on_commit_callbacks(execute=True):
        return caller.post(order_url(caller), body(*lines), roles=roles)


def test_it_orders_a_company_profile_and_produces_it(api, company, django_capture_on_commit_callbacks):
    response = order(api, django_capture_on_commit_callbacks, (company.uuid, "company_profile"))

    assert response.status_code == 201
    answer = response.json()
    assert answer["partner_report_order_uuid"] == answer["partner_report_order"]["uuid"]
    assert answer["partner_report_order"]["app_customer_uuid"] == str(api.app_customer_uuid)
    (composite,) = answer["partner_report_composites"]
    assert composite["company"]["name"] == "Nordlys Handel AS"
    assert composite["partner_report_type"]["partner_report_type_key"] == "company_profile"
    order_row = PartnerReportOrder.objects.get(uuid=answer["partner_report_order_uuid"])
    assert order_row.status == "complete" and order_row.complete_timestamp is not None
    report = PartnerReport.objects.get(order=order_row)
    assert report.file_path == (
        f"app_customer/{api.app_customer_uuid}/company/{company.uuid}/company_profile/{report.uuid}.pdf"
    )
    with default_storage.open(storage_name(report.file_path)) as handle:
        content = handle.read()
    assert content.startswith(b"%PDF") and report.file_size == len(content)


def test_it_answers_pending_at_once_and_enqueues_only_after_commit(api, company, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = api.post(order_url(api), body((company.uuid, "company_profile")))

    assert response.status_code == 201
    assert response.json()["partner_report_order"]["partner_report_order_status_key"] == "pending"
    assert response.json()["partner_report_composites"][0]["partner_report"]["file_path"] is None
    assert len(callbacks) == 1
    callbacks[0]()
    assert PartnerReportOrder.objects.get().status == "complete"


def test_it_orders_several_reports_in_one_order(api, company, django_capture_on_commit_callbacks):
    response = order(
        api, django_capture_on_commit_callbacks,
        (company.uuid, "company_profile"), (company.uuid, "ownership_report"), (company.uuid, "credit_report"),
        roles=["credit_check"],
    )

    assert response.status_code == 201
    keys = [c["partner_report_type"]["partner_report_type_key"] for c in response.json()["partner_report_composites"]]
    assert keys == ["company_profile", "ownership_report", "credit_report"]
    assert set(PartnerReport.objects.values_list("status", flat=True)) == {"complete"}


def test_it_needs_credit_check_for_a_credit_report(api, company, django_capture_on_commit_callbacks):
    response = order(api, django_capture_on_commit_callbacks, (company.uuid, "company_profile"), (company.uuid, "credit_report"))

    assert response.status_code == 403
    assert response.json()["detail"] == SPEC_WORDING
    assert not PartnerReportOrder.objects.exists()


def test_it_lists_every_bad_element_and_creates_nothing(api, company, django_capture_on_commit_callbacks):
    response = order(
        api, django_capture_on_commit_callbacks,
        (company.uuid, "company_profile"), ("not-a-uuid", "company_profile"),
        ("00000000-0000-4000-8000-000000000000", "gossip_report"),
    )

    assert response.status_code == 400
    locs = [error["loc"] for error in response.json()["errors"]]
    prefix = ["body", "partner_report_composites"]
    assert locs == [
        [*prefix, 1, "partner_report", "company_uuid"],
        [*prefix, 2, "partner_report", "company_uuid"],
        [*prefix, 2, "partner_report", "partner_report_type_key"],
    ]
    assert not PartnerReportOrder.objects.exists()


def test_it_refuses_an_empty_order(api, django_capture_on_commit_callbacks):
    response = order(api, django_capture_on_commit_callbacks)

    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["body", "partner_report_composites"]


def test_it_is_404_for_another_organisation(api, other_api, company, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(order_url(other_api), body((company.uuid, "company_profile")))

    assert response.status_code == 404
    assert not PartnerReportOrder.objects.exists()


def test_it_needs_authentication(client, company):
    response = client.post(
        "/analysis/v1/app-customer/00000000-0000-4000-8000-000000000000/partner-report-order-composite",
        body((company.uuid, "company_profile")), content_type="application/json",
    )

    assert response.status_code == 401


@pytest.mark.parametrize("key", ["company_profile", "credit_report", "ownership_report"])
def test_it_writes_a_pdf_with_the_company_and_page_numbers(api, company, key, django_capture_on_commit_callbacks):
    order(api, django_capture_on_commit_callbacks, (company.uuid, key), roles=["credit_check"])

    report = PartnerReport.objects.get()
    with default_storage.open(storage_name(report.file_path)) as handle:
        text, pages = pdf_text(handle.read())
    assert "Nordlys Handel AS" in text
    assert "913 748 174" in text
    assert "Ordered by Nordbank ASA" in text
    assert f"Page 1 of {pages}" in text and f"Page {pages} of {pages}" in text
