"""The reports page: the organisation's reports, progress by htmx polling, links renewed after a day."""

from datetime import timedelta

from django.utils import timezone

from reports.models import ReportDownload
from reports.services import report_order


def _ordered(member, company, capture, *, execute=True):
    with capture(execute=execute):
        return report_order(member=member.member, company_uuid=company.uuid, report_type="company_profile")[0]


def test_it_shows_a_clear_empty_state(member):
    page = member.client().get("/reports/").content.decode()
    assert "No reports yet." in page


def test_it_polls_a_pending_row_every_2s_and_stops_when_it_is_ready(member, company, django_capture_on_commit_callbacks):
    download = _ordered(member, company, django_capture_on_commit_callbacks, execute=False)
    client = member.client()

    row = client.get(f"/reports/{download.uuid}/row/").content.decode()
    assert 'hx-trigger="every 2s"' in row and "Ordered" in row and 'data-testid="download"' not in row

    expires = timezone.now() + timedelta(hours=20)
    ReportDownload.objects.filter(pk=download.pk).update(
        status="complete", download_url="/analysis/v1/file/x.pdf?file_session_uuid=1&bucket_name=general",
        link_expires_at=expires, file_size=6042,
    )
    row = client.get(f"/reports/{download.uuid}/row/").content.decode()
    assert "hx-trigger" not in row and "Ready" in row and 'data-testid="download"' in row
    # Norwegian like the rest of the dashboard, not 2026-11-27 03:59 and 5.9 KB
    assert f"5,9\xa0kB · link valid until {timezone.localtime(expires):%d.%m.%Y %H:%M}" in row
    assert f"{timezone.localtime(download.ordered_at):%d.%m.%Y %H:%M}" in row


def test_it_renews_a_link_when_a_day_has_passed(member, company, django_capture_on_commit_callbacks):
    download = _ordered(member, company, django_capture_on_commit_callbacks)
    old_session = download.file_session_uuid = ReportDownload.objects.get().file_session_uuid
    ReportDownload.objects.filter(pk=download.pk).update(link_expires_at=timezone.now() - timedelta(minutes=1))

    page = member.client().get("/reports/").content.decode()

    renewed = ReportDownload.objects.get()
    assert renewed.file_session_uuid != old_session
    assert renewed.link_expires_at > timezone.now() + timedelta(hours=23)
    assert f"file_session_uuid={renewed.file_session_uuid}" in page


def test_it_shows_only_the_organisations_own_reports(member, other_member, company, django_capture_on_commit_callbacks):
    download = _ordered(member, company, django_capture_on_commit_callbacks)
    other = other_member.client()

    assert "Havbris Teknologi AS" not in other.get("/reports/").content.decode()
    assert other.get(f"/reports/{download.uuid}/row/").status_code == 404
    assert "Havbris Teknologi AS" in member.client().get("/reports/").content.decode()


def test_it_needs_a_login(client, db):
    assert client.get("/reports/").status_code == 302


def test_a_viewer_gets_no_link_to_a_report_made_with_credit_check(member, company, django_capture_on_commit_callbacks):
    # The officer's reports are made with credit_check (payment remarks, remark factors and flag):
    # a viewer, whose calls never carry it, must not download them from the reports page or home.
    from portal.models import Member
    from tests.portal.conftest import add_member

    with django_capture_on_commit_callbacks(execute=True):
        credit = report_order(member=member.member, company_uuid=company.uuid, report_type="credit_report")[0]
    credit.refresh_from_db()
    assert credit.status == "complete" and credit.download_url
    viewer = add_member(member, "vilde", Member.Role.VIEWER).client()

    for page in (viewer.get("/reports/").content.decode(), viewer.get("/").content.decode()):
        assert str(credit.file_session_uuid) not in page and credit.file_path not in page
    assert viewer.get(f"/reports/{credit.uuid}/row/").status_code == 404
    assert str(credit.file_session_uuid) in member.client().get("/reports/").content.decode()
    assert "that your role opens (reports showing payment remarks are listed for roles that read them)" in viewer.get("/reports/").content.decode()
    assert "reports showing payment remarks" not in member.client().get("/reports/").content.decode()


def test_a_refused_renewal_keeps_no_other_reports_link_from_renewing(member, company, django_capture_on_commit_callbacks):
    # The organisation's API user lost credit_check: the file of the report made with it is refused,
    # the link of a viewer's report (made without it) is renewed all the same, and the dead link of
    # the other is no longer offered.
    from portal.models import Member
    from service.auth.services import api_user_update
    from tests.conftest import ALL_ROLES
    from tests.portal.conftest import add_member

    viewer = add_member(member, "vilde", Member.Role.VIEWER)
    profile = _ordered(viewer, company, django_capture_on_commit_callbacks)
    assert profile.role_key_list == []
    with django_capture_on_commit_callbacks(execute=True):
        credit = report_order(member=member.member, company_uuid=company.uuid, report_type="credit_report")[0]
    ReportDownload.objects.update(link_expires_at=timezone.now() - timedelta(minutes=1))
    old = dict(ReportDownload.objects.values_list("uuid", "file_session_uuid"))
    with django_capture_on_commit_callbacks(execute=True):  # the service forgets the roles it remembered
        api_user_update(api_user=member.credentials.api_user, role_keys=[k for k in ALL_ROLES if k != "credit_check"])

    page = member.client().get("/reports/").content.decode()

    profile.refresh_from_db()
    credit.refresh_from_db()
    assert profile.file_session_uuid != old[profile.uuid] and profile.link_expires_at > timezone.now()
    assert f"file_session_uuid={profile.file_session_uuid}" in page
    assert credit.file_session_uuid == old[credit.uuid] and str(credit.file_session_uuid) not in page
    assert "Download links could not be renewed" in page
    assert page.count('data-testid="download"') == 1 and 'data-testid="link-expired"' in page


def test_a_viewer_sees_and_downloads_the_ownership_report_an_officer_with_credit_check_ordered(member, company, django_capture_on_commit_callbacks):
    # An ownership report shows the same whoever orders it (the service's rule per report type): the
    # officer's credit_check closes their company profile and credit report to a viewer, not it.
    from django.test import Client

    from portal.models import Member
    from tests.portal.conftest import add_member

    ordered = {}
    for kind in ("ownership_report", "company_profile", "credit_report"):
        with django_capture_on_commit_callbacks(execute=True):
            ordered[kind] = report_order(member=member.member, company_uuid=company.uuid, report_type=kind)[0]
        ordered[kind].refresh_from_db()
        assert ordered[kind].status == "complete", ordered[kind].failure_reason
    viewer = add_member(member, "vilde", Member.Role.VIEWER).client()

    page = viewer.get("/reports/").content.decode()

    ownership = ordered["ownership_report"]
    assert ownership.role_keys == "" and ordered["company_profile"].role_keys == "credit_check"
    assert f"file_session_uuid={ownership.file_session_uuid}" in page
    assert viewer.get(f"/reports/{ownership.uuid}/row/").status_code == 200
    pdf = Client().get(ownership.download_url)
    assert pdf.status_code == 200 and b"".join(pdf.streaming_content).startswith(b"%PDF")
    for kind in ("company_profile", "credit_report"):
        assert str(ordered[kind].file_session_uuid) not in page
        assert viewer.get(f"/reports/{ordered[kind].uuid}/row/").status_code == 404
    assert "1 ordered by" in page and "that your role opens" in page
    home = viewer.get("/").content.decode()
    assert '<span data-testid="reports-ready-count">1</span> ready' in home and home.count('data-testid="home-report"') == 1


def test_an_ownership_report_kept_with_credit_check_before_the_rule_is_shown_to_a_viewer(member, company, django_capture_on_commit_callbacks):
    # Rows stored when every report kept the orderer's credit_check are not rewritten: the rule is applied
    # when reading, so the viewer sees the ownership report and still not the company profile.
    from portal.models import Member
    from tests.portal.conftest import add_member

    with django_capture_on_commit_callbacks(execute=True):
        ownership = report_order(member=member.member, company_uuid=company.uuid, report_type="ownership_report")[0]
        profile = report_order(member=member.member, company_uuid=company.uuid, report_type="company_profile")[0]
    ReportDownload.objects.update(role_keys="credit_check")  # as the rows were kept before
    ownership.refresh_from_db()
    viewer = add_member(member, "vilde", Member.Role.VIEWER).client()

    page = viewer.get("/reports/").content.decode()

    assert f"file_session_uuid={ownership.file_session_uuid}" in page
    assert viewer.get(f"/reports/{profile.uuid}/row/").status_code == 404


def test_while_the_service_does_not_say_which_roles_change_a_type_a_report_kept_with_a_role_stays_hidden(
        member, company, django_capture_on_commit_callbacks, monkeypatch):
    # The dashboard keeps no copy of the rule: without the service's report types, a viewer sees no report
    # an officer kept with credit_check, an ownership report included (closed rather than open by mistake).
    from django.core.cache import cache

    from portal.models import Member
    from portal.service import ServiceError
    from portal.service.reports import ReportsArea
    from tests.portal.conftest import add_member

    with django_capture_on_commit_callbacks(execute=True):
        ownership = report_order(member=member.member, company_uuid=company.uuid, report_type="ownership_report")[0]
    ReportDownload.objects.update(role_keys="credit_check")  # kept before the rule
    viewer = add_member(member, "vilde", Member.Role.VIEWER).client()
    cache.clear()

    def unavailable(self):
        raise ServiceError(503, "unavailable", "The service is restarting.")

    monkeypatch.setattr(ReportsArea, "types", unavailable)

    assert viewer.get(f"/reports/{ownership.uuid}/row/").status_code == 404
    monkeypatch.undo()
    assert viewer.get(f"/reports/{ownership.uuid}/row/").status_code == 200
