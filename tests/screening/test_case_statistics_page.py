"""The case statistics page (/screening/cases/statistics/): the month table newest first with the
period's totals, the open cases by age, the period chosen from 6, 12 or 24 months, and the CSV
download; every member reads it; without screening it says why."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from django.utils import timezone

from portal.models import Member
from service.screening.models import ScreeningCase
from tests.portal.conftest import make_member
from tests.screening.helpers import member_make
from tests.screening.steps import api_of, config_with
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON, lists  # noqa: F401 (fixture)
from tests.service.screening.cases.steps import cases, customer_person_screened, review

PAGE = "/screening/cases/statistics/"


def officer_with_cases():
    """An officer of a UN-screening organisation: a sanction case open for 45 days, a PEP case closed
    as a false positive today."""
    officer = make_member("Nordbank ASA", "ingrid", role=Member.Role.OFFICER)
    api = api_of(officer)
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")
    customer_person_screened(api, config["uuid"], PEP_PERSON, "1961-09-30")
    pep_case = cases(api, config["uuid"], pep_flag="true")["elements"][0]["screening_case"]["uuid"]
    review(api, config["uuid"], pep_case, "false_positive")
    ScreeningCase.objects.filter(sanction_flag=True).update(created_timestamp=timezone.now() - timedelta(days=45))
    return officer


def _cell(page: str, testid: str) -> str:
    return page.split(f'data-testid="{testid}">')[1].split("<")[0]


def test_it_shows_the_months_newest_first_with_totals_and_the_open_cases_by_age(transactional_db, lists):
    officer = officer_with_cases()

    page = officer.client().get(PAGE).content.decode()

    rows = page.split('data-testid="statistics-month"')[1:]
    assert len(rows) == 12
    this_month = timezone.localdate().strftime("%B %Y")
    assert this_month in rows[0]  # newest first
    assert _cell(page, "open-count") == "1" and _cell(page, "open-over-month") == "1"  # the sanction case, 45 days old
    assert _cell(page, "closed-total") == "1" and "1 false positive (100,0\xa0%)" in page
    total = page.split('data-testid="statistics-total">')[1].split("</tr>")[0]
    assert [cell.split("<")[0] for cell in total.split('class="text-end">')[1:]][:5] == ["2", "1", "1", "1", "0"]


def test_the_period_is_chosen_and_the_csv_has_the_same_months(transactional_db, lists):
    officer = officer_with_cases()
    client = officer.client()

    page = client.get(PAGE, {"months": "6"}).content.decode()
    assert page.count('data-testid="statistics-month"') == 6 and '<option value="6" selected>' in page
    assert client.get(PAGE, {"months": "7"}).content.decode().count('data-testid="statistics-month"') == 12  # not offered: the default

    download = client.get("/screening/cases/statistics.csv", {"months": "6"})
    assert download["Content-Disposition"].startswith('attachment; filename="screening-case-statistics-nordbank-asa-')
    rows = list(csv.DictReader(io.StringIO(b"".join(download.streaming_content).decode("utf-8-sig"))))
    assert len(rows) == 6 and rows[-1]["month"] == timezone.localdate().strftime("%Y-%m")  # oldest first, as a sheet
    assert sum(int(row["raised"]) for row in rows) == 2 and sum(int(row["closed_false_positive"]) for row in rows) == 1


def test_a_viewer_reads_it_and_the_queue_links_to_it(transactional_db, lists):
    officer = officer_with_cases()
    viewer = member_make("", "vilde", Member.Role.VIEWER, like=officer)

    page = viewer.client().get(PAGE).content.decode()
    assert _cell(page, "open-count") == "1" and 'data-testid="statistics-csv"' in page
    queue = viewer.client().get("/screening/cases/").content.decode()
    assert f'href="{PAGE}" data-testid="queue-statistics"' in queue


def test_without_aml_it_says_why(db):
    member = make_member("Smaabank AS", "siv", roles=["credit_check"])

    page = member.client().get(PAGE).content.decode()

    assert 'data-testid="no-aml"' in page and 'data-testid="statistics-months"' not in page


def test_the_figures_of_one_kind_of_screened_party(transactional_db, lists):
    officer = officer_with_cases()  # both cases are customers'
    client = officer.client()

    customers = client.get(PAGE, {"screened": "customer"}).content.decode()
    owners = client.get(PAGE, {"screened": "person"}).content.decode()

    assert _cell(customers, "open-count") == "1" and '<option value="customer" selected>Customers</option>' in customers
    assert _cell(owners, "open-count") == "0" and _cell(owners, "closed-total") == "0"
    assert 'href="/screening/cases/statistics.csv?months=12&amp;screened=customer"' in customers
    assert 'href="/screening/cases/?screened=customer" data-testid="statistics-queue"' in customers  # the same cases there
    download = client.get("/screening/cases/statistics.csv", {"months": "12", "screened": "person"})
    assert download["Content-Disposition"].startswith('attachment; filename="screening-case-statistics-nordbank-asa-person-')
    rows = list(csv.DictReader(io.StringIO(b"".join(download.streaming_content).decode("utf-8-sig"))))
    assert sum(int(row["raised"]) for row in rows) == 0
    unknown = client.get(PAGE, {"months": "6", "screened": "robots"})  # not offered: everyone's, at a clean URL
    assert unknown.status_code == 302 and unknown["Location"] == f"{PAGE}?months=6"
