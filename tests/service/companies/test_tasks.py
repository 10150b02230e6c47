"""The analysis tasks: a write enqueues the refresh on commit, the task is idempotent, and the
daily refresh picks up what time alone changes."""

import uuid
from datetime import date

import pytest
from django.db import transaction
from django.forms.models import model_to_dict

from service.companies import models as m
from service.companies import tasks
from service.companies.tasks import analysis_refresh_all, analysis_refresh_on_commit, analysis_refresh_task
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch) -> list[list[str]]:
    """The company uuids of every analysis_refresh_task enqueued; each still runs (eagerly)."""
    calls = []
    delay = tasks.analysis_refresh_task.delay

    def recording(company_uuids):
        calls.append(company_uuids)
        return delay(company_uuids)

    monkeypatch.setattr(tasks.analysis_refresh_task, "delay", recording)
    return calls


def test_a_write_enqueues_the_refresh_on_commit_and_nothing_when_it_rolls_back(
    queued, django_capture_on_commit_callbacks
):
    company = company_make()

    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            payment_remark_make(company=company)
            raise RuntimeError("the rest of the request failed")
    assert queued == []
    assert not m.CompanyCreditRisk.objects.filter(company=company).exists()

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        payment_remark_make(company=company)
    assert queued == []  # not before the commit

    for callback in callbacks:
        callback()
    assert queued == [[str(company.uuid)]]
    assert "payment_remarks" in set(
        m.CompanyFlag.objects.filter(company=company, flag_end_date=None).values_list("company_flag_type__key", flat=True)
    )


def test_a_big_set_is_enqueued_in_chunks_and_everything_as_one_task(
    queued, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(tasks, "CHUNK_SIZE", 2)
    companies = [company_make() for _ in range(5)]
    everything = []
    monkeypatch.setattr(tasks.analysis_refresh_all, "delay", lambda: everything.append(True))

    with django_capture_on_commit_callbacks(execute=True):
        analysis_refresh_on_commit(company_uuids=[c.uuid for c in companies])
        analysis_refresh_on_commit(company_uuids=None)

    assert [len(chunk) for chunk in queued] == [2, 2, 1]
    assert {value for chunk in queued for value in chunk} == {str(c.uuid) for c in companies}
    assert m.CompanyCreditRisk.objects.filter(company__in=companies).count() == 5
    assert everything == [True]


def test_a_write_stands_when_the_broker_refuses_the_refresh(monkeypatch, django_capture_on_commit_callbacks):
    from kombu.exceptions import OperationalError

    def refused(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    company = company_make()
    monkeypatch.setattr(tasks.analysis_refresh_task, "delay", refused)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        payment_remark_make(company=company)  # the daily refresh analyses it

    assert len(callbacks) == 1
    assert m.PaymentRemark.objects.filter(company=company).exists()


def _analysis_of(company: m.Company) -> list[dict]:
    rows = [
        *m.AccountsHighlights.objects.filter(accounts__company=company),
        *m.CompanyMeasureYearly.objects.filter(company=company),
        *m.CompanyFlag.objects.filter(company=company),
        *m.CompanyCreditRisk.objects.filter(company=company),
    ]
    return [model_to_dict(row) for row in rows]


def test_the_task_run_twice_leaves_the_analysis_as_the_first_run_left_it(stopped_clock):
    # Both runs on one day: on the next the company is a day older, which may change its score.
    company = company_make(registration_date=date(2015, 1, 1))
    accounts_make(company=company, year=2020)  # overdue: a missing_accounts flag
    payment_remark_make(company=company)

    assert analysis_refresh_task([str(company.uuid)]) is not None
    first = _analysis_of(company)
    analysis_refresh_task([str(company.uuid)])  # the broker redelivers (acks_late)

    assert first and _analysis_of(company) == first
    assert m.CompanyFlag.objects.filter(company=company, company_flag_type__key="missing_accounts").count() == 1


def test_the_task_returns_when_its_companies_are_gone():
    gone = company_make()
    gone_uuid = str(gone.uuid)
    gone.delete()

    assert analysis_refresh_task([gone_uuid, str(uuid.uuid4())]) is None


def test_it_raises_missing_accounts_once_the_deadline_has_passed():
    company = company_make(registration_date=date(2015, 1, 1))
    accounts_make(company=company, year=2020)  # the last filing is long overdue by today

    analysis_refresh_all()

    assert m.CompanyFlag.objects.filter(
        company=company, company_flag_type__key="missing_accounts", flag_end_date__isnull=True
    ).exists()
