"""GET /analysis/v1/app-customer/{acu}/partner-report-composite: report metadata with the file path."""

from __future__ import annotations

from tests.service.reports.conftest import order_reports


def url(caller) -> str:
    return f"/analysis/v1/app-customer/{caller.app_customer_uuid}/partner-report-composite"


def test_it_lists_the_reports_newest_first_with_their_file_paths(api, company, django_capture_on_commit_callbacks):
    first = order_reports(api, django_capture_on_commit_callbacks, company, "company_profile")
    second = order_reports(api, django_capture_on_commit_callbacks, company, "ownership_report")

    response = api.get(url(api))

    assert response.status_code == 200
    reports = [element["partner_report"] for element in response.json()]
    assert [r["partner_report_order_uuid"] for r in reports] == [
        second["partner_report_order_uuid"], first["partner_report_order_uuid"],
    ]
    newest = reports[0]
    assert newest["partner_report_status_key"] == "complete"
    assert newest["file_path"] == (
        f"app_customer/{api.app_customer_uuid}/company/{company.uuid}/ownership_report/{newest['file_name']}"
    )
    assert newest["content_type"] == "application/pdf" and newest["file_size"] > 1000
    assert response.json()[0]["company"]["org_nr"] == "913748174"


def test_it_filters_by_company_type_and_order(api, company, django_capture_on_commit_callbacks):
    first = order_reports(api, django_capture_on_commit_callbacks, company, "company_profile", "credit_report")
    order_reports(api, django_capture_on_commit_callbacks, company, "ownership_report")

    by_type = api.get(url(api), {"partner_report_type_identifiers": "credit_report,ownership_report"}).json()
    by_order = api.get(url(api), {"partner_report_order_uuid": first["partner_report_order_uuid"]}).json()
    by_org_nr = api.get(url(api), {"company_identifier": "NO913748174", "limit": 2}).json()

    assert sorted(e["partner_report_type"]["partner_report_type_key"] for e in by_type) == ["credit_report", "ownership_report"]
    assert len(by_order) == 2
    assert len(by_org_nr) == 2


def test_it_names_a_bad_filter(api):
    response = api.get(url(api), {"partner_report_type_identifiers": "gossip", "limit": 5})

    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["query", "partner_report_type_identifiers"]
    assert api.get(url(api), {"limit": 0}).status_code == 400


def test_it_shows_nothing_of_another_organisation(api, other_api, company, django_capture_on_commit_callbacks):
    order_reports(api, django_capture_on_commit_callbacks, company, "company_profile")

    assert other_api.get(url(other_api)).json() == []
    assert other_api.get(url(api)).status_code == 404
