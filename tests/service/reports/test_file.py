"""GET /analysis/v1/file/{file_path}: downloads with the API's auth or with a file session."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from service.reports.models import FileSession
from tests.service.reports.conftest import order_reports, pdf_text

URL = "/analysis/v1/file/"


def session_for(caller, path) -> str:
    response = caller.post("/analysis/v1/file-session", [{"app_customer_uuid": str(caller.app_customer_uuid), "file_path": path}])
    assert response.status_code == 201
    return response.json()[0]["file_session_uuid"]


def anonymous(path: str, **params):
    return Client().get(URL + path, params)


def test_it_downloads_with_basic_auth(api, report_file):
    response = api.get(URL + report_file)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["Cache-Control"] == "private, no-store"
    text, _ = pdf_text(b"".join(response.streaming_content))
    assert "Nordlys Handel AS" in text


def test_it_downloads_with_a_file_session_and_no_authorization_header(api, report_file):
    session = session_for(api, report_file)

    response = anonymous(report_file, file_session_uuid=session, bucket_name="general")

    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"%PDF")


def test_it_keeps_the_file_when_the_session_expires(api, report_file):
    session = session_for(api, report_file)
    FileSession.objects.filter(uuid=session).update(expires=timezone.now() - timedelta(seconds=1))

    assert anonymous(report_file, file_session_uuid=session, bucket_name="general").status_code == 401
    assert api.get(URL + report_file).status_code == 200
    assert anonymous(report_file, file_session_uuid=session_for(api, report_file), bucket_name="general").status_code == 200


def test_it_sets_sessions_to_expire_after_a_day(api, report_file, settings):
    session = FileSession.objects.get(uuid=session_for(api, report_file))

    assert timedelta(hours=23, minutes=59) < session.expires - timezone.now() <= timedelta(hours=settings.VAKT_FILE_SESSION_HOURS)


@pytest.mark.parametrize("session", ["", "not-a-uuid", "3f0c6b2e-8d1a-4c57-9e0b-6a2d5f4e1c90"])
def test_it_refuses_an_unknown_session_with_401(report_file, session):
    response = anonymous(report_file, file_session_uuid=session, bucket_name="general")

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_it_refuses_a_wrong_bucket_with_400(api, report_file):
    session = session_for(api, report_file)

    response = anonymous(report_file, file_session_uuid=session, bucket_name="private")

    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["query", "bucket_name"]
    assert anonymous(report_file, file_session_uuid=session).status_code == 400


def test_it_refuses_a_session_used_for_another_file_with_404(api, company, report_file, django_capture_on_commit_callbacks):
    other = order_reports(api, django_capture_on_commit_callbacks, company, "ownership_report", roles=())
    other_path = other["partner_report_composites"][0]["partner_report"]
    from service.reports.models import PartnerReport

    other_path = PartnerReport.objects.get(uuid=other_path["uuid"]).file_path
    session = session_for(api, report_file)

    response = anonymous(other_path, file_session_uuid=session, bucket_name="general")

    assert response.status_code == 404
    assert b"PDF" not in response.content


def test_it_refuses_another_organisations_session_for_its_own_file(api, other_api, company, report_file,
                                                                   django_capture_on_commit_callbacks):
    foreign = order_reports(other_api, django_capture_on_commit_callbacks, company, "company_profile", roles=())
    from service.reports.models import PartnerReport

    foreign_path = PartnerReport.objects.get(uuid=foreign["partner_report_composites"][0]["partner_report"]["uuid"]).file_path
    foreign_session = session_for(other_api, foreign_path)

    response = anonymous(report_file, file_session_uuid=foreign_session, bucket_name="general")

    assert response.status_code == 404


def test_it_is_404_for_another_organisations_file(api, other_api, report_file):
    response = other_api.get(URL + report_file)

    assert response.status_code == 404
    assert response.json()["detail"] == "No such file."


def test_it_is_404_for_a_well_formed_path_without_a_file(api):
    path = f"app_customer/{api.app_customer_uuid}/company/{uuid.uuid4()}/company_profile/{uuid.uuid4()}.pdf"

    assert api.get(URL + path).status_code == 404


@pytest.mark.parametrize(
    "suffix",
    [
        "../../../../etc/passwd",
        "..%2F..%2F..%2Fetc%2Fpasswd",
        "%2e%2e/%2e%2e/settings.py",
        "%252e%252e%252fsecret.pdf",
        "/etc/passwd",
        "%2Fetc%2Fpasswd",
        "..\\..\\secret.pdf",
        "{ok}/..",
        "{ok}/../../../other.pdf",
        "{ok_dir}/..%2F..%2Fx.pdf",
    ],
)
def test_it_refuses_path_traversal_with_400(api, report_file, media_root, suffix):
    (media_root / "secret.pdf").write_bytes(b"%PDF secret")
    directory = report_file.rsplit("/", 1)[0]
    path = suffix.replace("{ok}", report_file).replace("{ok_dir}", directory)

    response = api.get(URL + path)

    assert response.status_code == 400, (path, response.status_code)
    assert response.json()["code"] == "invalid_file_path"
    assert b"secret" not in response.content and b"root:" not in response.content


def test_it_refuses_traversal_before_looking_at_anything(api):
    response = api.get(URL + "..%2F..%2Fportal%2Fsettings.py")

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"loc": ["path", "file_path"], "msg": response.json()["errors"][0]["msg"]}
    ]


def test_it_needs_auth_or_a_session(report_file):
    response = anonymous(report_file)

    assert response.status_code == 401
    assert "WWW-Authenticate" in response


def test_a_report_made_with_credit_check_is_given_only_to_a_caller_granted_it(api, company, django_capture_on_commit_callbacks):
    # The order keeps the roles it was made with; its file shows payment remarks, so the file needs them too.
    from service.reports.models import PartnerReport

    answer = order_reports(api, django_capture_on_commit_callbacks, company, "credit_report", roles=("credit_check",))
    path = PartnerReport.objects.get(uuid=answer["partner_report_composites"][0]["partner_report"]["uuid"]).file_path
    body = [{"app_customer_uuid": str(api.app_customer_uuid), "file_path": path}]

    download = api.get(URL + path, roles=["aml"])
    session = api.post("/analysis/v1/file-session", body, roles=["aml"])

    assert (download.status_code, download.json()["code"]) == (403, "role_missing")
    assert (session.status_code, session.json()["code"]) == (403, "role_missing")
    assert "Inkasso Norge AS" in pdf_text(b"".join(api.get(URL + path, roles=["credit_check"]).streaming_content))[0]
    assert api.post("/analysis/v1/file-session", body, roles=["credit_check"]).status_code == 201


def test_an_ownership_report_made_with_credit_check_is_given_to_a_caller_without_it(api, company, django_capture_on_commit_callbacks):
    # An ownership report shows the same to every caller: the order's credit_check does not close its file,
    # while the company profile of the same order (its score counts payment remarks) stays closed.
    from service.reports.models import PartnerReport

    answer = order_reports(api, django_capture_on_commit_callbacks, company, "ownership_report", "company_profile",
                           roles=("credit_check",))
    paths = {r["partner_report"]["partner_report_type_key"]: PartnerReport.objects.get(uuid=r["partner_report"]["uuid"]).file_path
             for r in answer["partner_report_composites"]}

    def body(path):
        return [{"app_customer_uuid": str(api.app_customer_uuid), "file_path": path}]

    ownership = api.get(URL + paths["ownership_report"], roles=["aml"])
    assert ownership.status_code == 200
    assert "Kari Nordmann" in pdf_text(b"".join(ownership.streaming_content))[0]
    assert api.post("/analysis/v1/file-session", body(paths["ownership_report"]), roles=["aml"]).status_code == 201
    profile = api.get(URL + paths["company_profile"], roles=["aml"])
    session = api.post("/analysis/v1/file-session", body(paths["company_profile"]), roles=["aml"])
    assert (profile.status_code, profile.json()["code"]) == (403, "role_missing")
    assert (session.status_code, session.json()["code"]) == (403, "role_missing")


def test_an_ownership_report_of_an_order_kept_before_the_rule_is_given_without_the_role(api, company, django_capture_on_commit_callbacks):
    # The rule is read at each request: an order stored with credit_check, whatever its reports' types,
    # closes only the files of the types that depend on it; no stored order needs rewriting.
    from service.reports.models import PartnerReport

    answer = order_reports(api, django_capture_on_commit_callbacks, company, "ownership_report", roles=("credit_check",))
    report = PartnerReport.objects.select_related("order").get(uuid=answer["partner_report_composites"][0]["partner_report"]["uuid"])

    assert report.order.granted_role_keys == ["credit_check"]
    assert api.get(URL + report.file_path, roles=[]).status_code == 200
