"""One way to name a member on the case pages, the queue and the reports page: the login's email, as the
service names reviewers and assignees (a review's reviewer email, the case report). A login called
"admin" is "admin@nordbank.no" in the assignee column, on the case page, in the review history, in the
lists to hand a case to, in the messages and the navigation bar: never "admin" here and "admin@…" there.
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth import get_user_model

from portal.models import Member
from reports.models import ReportDownload
from service.auth.models import AppCustomer
from service.auth.services import app_membership_create
from tests.portal.conftest import PASSWORD, DashboardMember
from tests.screening.helpers import QUEUE, case_url, cases_make, member_make

EMAIL = "admin@nordbank.no"


@pytest.fixture
def officer(lists):
    return member_make("Nordbank ASA", "ingrid")


@pytest.fixture
def admin(officer):
    """A login named "admin" whose email is Admin@Nordbank.no (the service keeps it in lower case)."""
    user = get_user_model().objects.create_user("admin", email="Admin@Nordbank.no", password=PASSWORD)
    person = app_membership_create(app_customer=AppCustomer.objects.get(uuid=officer.app_customer.uuid), email=user.email)
    member = Member.objects.create(user=user, organisation=officer.organisation, role=Member.Role.ADMIN,
                                   app_membership_uuid=person.uuid)
    return DashboardMember(user, member, officer.organisation, officer.app_customer, officer.credentials)


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_queue_the_case_page_and_the_messages_name_a_member_by_email(officer, admin):
    screened = cases_make(officer)
    client = officer.client()
    case = case_url(screened.sanction_case.uuid)

    # Handed over from the case page: the menu, the message and the assignee line use the email.
    page = client.get(case).content.decode()
    assert re.findall(r'data-testid="assign-to-colleague">([^<]+?) <', page) == [EMAIL]
    handed = client.post(f"{case}assign/", {"to": str(admin.member.uuid), "back": case}, follow=True).content.decode()
    assert f"Assigned to {EMAIL}." in handed
    assert f"Assigned to <strong>{EMAIL}</strong>" in handed

    # The queue's assignee column and its batch bar.
    queue = client.get(QUEUE).content.decode()
    row = re.search(r'<tr data-testid="queue-row"[^>]*>(?:(?!</tr>).)*Dragunov(?:(?!</tr>).)*</tr>', queue, re.DOTALL).group(0)
    assert _text(re.search(r'data-testid="assignee">(.*?)</td>', row, re.DOTALL).group(1)) == EMAIL
    assert f'<option value="{admin.member.uuid}">{EMAIL}</option>' in queue
    batch = client.post("/screening/cases/batch/", {"case": [str(screened.pep_case.uuid)], "action": "assign",
                                                    "to": str(admin.member.uuid), "back": QUEUE}, follow=True)
    assert f"1 case assigned to {EMAIL}." in batch.content.decode()

    # The review history names the reviewer the same way (the service's email), and so does the navigation.
    reviewed = admin.client().post(f"{case}review/", {"status": "escalated", "decision": "possible_match",
                                                     "comment": "Same birth date"}, follow=True).content.decode()
    history = re.search(r'data-testid="review-history">(.*)', reviewed, re.DOTALL).group(1)
    assert EMAIL in _text(history)
    assert _text(re.search(r'data-testid="who">(.*?)</span>', reviewed, re.DOTALL).group(1)) == f"Nordbank ASA · {EMAIL}"
    escalated_row = re.search(r'<tr data-testid="queue-row"[^>]*>(?:(?!</tr>).)*Dragunov(?:(?!</tr>).)*</tr>',
                              client.get(QUEUE).content.decode(), re.DOTALL).group(0)
    assert f"Escalated by {EMAIL} for a second opinion" in escalated_row


def test_the_reports_page_names_who_ordered_by_email(officer, admin):
    ReportDownload.objects.create(organisation=officer.organisation, ordered_by=admin.member, order_uuid=uuid.uuid4(),
                                  report_uuid=uuid.uuid4(), company_uuid=uuid.uuid4(), company_name="Nordlys AS",
                                  report_type="company_profile")

    page = officer.client().get("/reports/").content.decode()

    row = re.search(r'data-testid="report-row".*?</tr>', page, re.DOTALL).group(0)
    assert f'<td class="small text-secondary">{EMAIL}</td>' in row
