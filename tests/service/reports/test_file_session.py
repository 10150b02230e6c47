"""POST /analysis/v1/file-session: one session per file, all or nothing."""

from __future__ import annotations

import uuid

from service.reports.models import FileSession

URL = "/analysis/v1/file-session"


def test_it_creates_a_session_per_file(api, report_file):
    response = api.post(URL, [{"app_customer_uuid": str(api.app_customer_uuid), "file_path": report_file}])

    assert response.status_code == 201
    (element,) = response.json()
    assert element["app_customer_uuid"] == str(api.app_customer_uuid)
    assert element["file_path"] == report_file
    session = FileSession.objects.get(uuid=element["file_session_uuid"])
    assert session.file_path == report_file and session.app_customer_id == api.app_customer_uuid


def test_it_is_404_for_a_file_that_does_not_exist_and_creates_nothing(api, report_file):
    missing = f"app_customer/{api.app_customer_uuid}/company/{uuid.uuid4()}/company_profile/{uuid.uuid4()}.pdf"

    response = api.post(URL, [
        {"app_customer_uuid": str(api.app_customer_uuid), "file_path": report_file},
        {"app_customer_uuid": str(api.app_customer_uuid), "file_path": missing},
    ])

    assert response.status_code == 404
    assert not FileSession.objects.exists()


def test_it_is_404_for_another_organisations_file(api, other_api, report_file):
    as_theirs = other_api.post(URL, [{"app_customer_uuid": str(other_api.app_customer_uuid), "file_path": report_file}])
    as_ours = other_api.post(URL, [{"app_customer_uuid": str(api.app_customer_uuid), "file_path": report_file}])

    assert (as_theirs.status_code, as_ours.status_code) == (404, 404)
    assert not FileSession.objects.exists()


def test_it_refuses_a_malformed_path_with_400(api, report_file):
    response = api.post(URL, [
        {"app_customer_uuid": str(api.app_customer_uuid), "file_path": report_file},
        {"app_customer_uuid": str(api.app_customer_uuid), "file_path": report_file + "/../../x.pdf"},
    ])

    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["body", 1, "file_path"]
    assert not FileSession.objects.exists()


def test_it_refuses_an_empty_list(api):
    assert api.post(URL, []).status_code == 400


def test_it_needs_authentication(client, report_file):
    response = client.post(URL, [{"app_customer_uuid": str(uuid.uuid4()), "file_path": report_file}], content_type="application/json")

    assert response.status_code == 401
