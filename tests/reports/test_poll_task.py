"""The poll task: waits with backoff while the order runs, gives up after the set time, follows failures."""

from datetime import timedelta

import pytest
from django.utils import timezone

from reports.models import ReportDownload
from reports.services import report_download_refresh, report_links_renew, report_order
from reports.tasks import ReportNotReady, report_download_poll, report_downloads_resume
from service.reports.models import PartnerReportOrder


@pytest.fixture
def pending(member, company, django_capture_on_commit_callbacks):
    """An order the service has not produced yet (its production task never ran)."""
    with django_capture_on_commit_callbacks(execute=False):
        return report_order(member=member.member, company_uuid=company.uuid, report_type="company_profile")[0]


def test_it_polls_again_while_the_order_is_pending(pending):
    assert report_download_refresh(download=pending) is False
    assert ReportDownload.objects.get().status == "pending"
    with pytest.raises(ReportNotReady):
        report_download_poll.run(str(pending.uuid))


def test_it_is_declared_to_retry_with_backoff_and_ack_late():
    assert report_download_poll.acks_late is True
    assert ReportNotReady in report_download_poll.autoretry_for
    assert report_download_poll.retry_backoff == 2 and report_download_poll.retry_backoff_max == 60


def test_it_marks_the_report_failed_after_the_set_time(pending, settings):
    settings.VAKT_REPORT_WAIT_SECONDS = 600

    finished = report_download_refresh(download=pending, now=timezone.now() + timedelta(seconds=601))

    pending.refresh_from_db()
    assert finished and pending.status == "failed"
    assert pending.failure_reason == "The report was not ready after 10 minutes."


def test_it_takes_over_the_services_failure_reason(pending):
    PartnerReportOrder.objects.filter(uuid=pending.order_uuid).update(
        status="failed", failure_reason="company_profile: the register is unreachable"
    )

    assert report_download_refresh(download=pending) is True

    pending.refresh_from_db()
    assert (pending.status, pending.failure_reason) == ("failed", "company_profile: the register is unreachable")


def test_it_stores_the_link_once_the_service_completes_it_and_then_leaves_it_alone(pending, django_capture_on_commit_callbacks):
    from service.reports.services import partner_report_order_process

    partner_report_order_process(order_uuid=pending.order_uuid)
    assert report_download_poll.run(str(pending.uuid)) == "complete"
    first = ReportDownload.objects.get()
    assert first.download_url.endswith(f"file_session_uuid={first.file_session_uuid}&bucket_name=general")

    report_download_poll.run(str(pending.uuid))  # idempotent: a second run makes no new session
    assert ReportDownload.objects.get().file_session_uuid == first.file_session_uuid


def test_it_logs_and_returns_when_the_row_is_gone(pending):
    uuid = str(pending.uuid)
    pending.delete()
    assert report_download_poll.run(uuid) is None


def test_it_resumes_the_poll_of_a_download_whose_message_was_lost_once_it_is_due(pending, settings):
    from service.reports.services import partner_report_order_process

    partner_report_order_process(order_uuid=pending.order_uuid)
    assert report_downloads_resume() == 0  # too recent: its poll may still be in a queue
    settings.VAKT_RESUME_AFTER_SECONDS = 5
    ReportDownload.objects.update(ordered_at=timezone.now() - timedelta(seconds=60))

    assert report_downloads_resume() == 1
    assert ReportDownload.objects.get().status == "complete"
    assert report_downloads_resume() == 0


def test_it_resumes_no_download_that_finished(pending, settings):
    PartnerReportOrder.objects.filter(uuid=pending.order_uuid).update(status="failed", failure_reason="unreachable")
    report_download_poll.run(str(pending.uuid))
    settings.VAKT_RESUME_AFTER_SECONDS = 5
    ReportDownload.objects.update(ordered_at=timezone.now() - timedelta(seconds=60))

    assert report_downloads_resume() == 0


def test_a_link_renewed_while_a_second_poll_runs_survives_that_poll(pending, django_capture_on_commit_callbacks):
    from service.reports.services import partner_report_order_process

    partner_report_order_process(order_uuid=pending.order_uuid)
    stale = ReportDownload.objects.get()  # a second poll's copy (a resumed poll), read while the row was pending
    assert report_download_poll.run(str(pending.uuid)) == "complete"
    ReportDownload.objects.update(link_expires_at=timezone.now())
    assert report_links_renew(organisation=pending.organisation) == 1
    renewed = ReportDownload.objects.get()

    assert report_download_refresh(download=stale) is True

    after = ReportDownload.objects.get()
    assert (after.file_session_uuid, after.download_url) == (renewed.file_session_uuid, renewed.download_url)
    assert after.link_expires_at == renewed.link_expires_at
    assert stale.status == "complete" and stale.file_session_uuid == renewed.file_session_uuid  # the copy read again


def test_a_poll_writes_only_its_own_fields(pending, member):
    stale = ReportDownload.objects.get()
    member.member.delete()  # who ordered it: the row keeps no link to a deleted member
    assert ReportDownload.objects.get().ordered_by is None

    PartnerReportOrder.objects.filter(uuid=pending.order_uuid).update(status="processing")
    assert report_download_refresh(download=stale) is False
    from service.reports.services import partner_report_order_process

    partner_report_order_process(order_uuid=pending.order_uuid)
    assert report_download_refresh(download=stale) is True

    after = ReportDownload.objects.get()
    assert after.status == "complete" and after.ordered_by_id is None


@pytest.mark.parametrize("dashboard_knows", [False, True], ids=["service-only", "dashboard-too"])
def test_a_credit_report_whose_organisation_lost_credit_check_fails_at_once_saying_why(
    member, company, settings, django_capture_on_commit_callbacks, dashboard_knows
):
    from service.auth.services import api_user_update
    from service.reports.services import partner_report_order_process
    from tests.conftest import ALL_ROLES

    with django_capture_on_commit_callbacks(execute=False):
        credit = report_order(member=member.member, company_uuid=company.uuid, report_type="credit_report")[0]
    without = [key for key in ALL_ROLES if key != "credit_check"]
    with django_capture_on_commit_callbacks(execute=True):  # the service forgets the roles it remembered
        api_user_update(api_user=member.credentials.api_user, role_keys=without)
    if dashboard_knows:  # dashboard_connect run again with the API user's roles
        member.organisation.api_role_keys = ",".join(without)
        member.organisation.save()
    partner_report_order_process(order_uuid=credit.order_uuid)

    assert report_download_poll.run(str(credit.uuid)) == "failed"  # not retried until the wait runs out

    credit.refresh_from_db()
    assert credit.status == "failed" and not credit.download_url
    assert credit.failure_reason.startswith(
        "This report was ordered with the API role credit_check, which your organisation's API user no longer holds"
    )
    settings.VAKT_RESUME_AFTER_SECONDS = 5
    ReportDownload.objects.update(ordered_at=timezone.now() - timedelta(seconds=60))
    assert report_downloads_resume() == 0
    # A failed row has no file and shows no remarks: it and its reason are shown, also once the
    # dashboard knows nobody's calls carry credit_check (before, it was hidden from everyone).
    row = member.client().get(f"/reports/{credit.uuid}/row/").content.decode()
    assert "Failed" in row and "no longer holds" in row and "hx-trigger" not in row


def test_a_download_deleted_while_its_poll_runs_stays_deleted(pending):
    from service.reports.services import partner_report_order_process

    partner_report_order_process(order_uuid=pending.order_uuid)
    stale = ReportDownload.objects.get()
    ReportDownload.objects.all().delete()

    assert report_download_refresh(download=stale) is True
    assert not ReportDownload.objects.exists()  # not written back from the poll's copy
