"""CompanyFlag rules and their history."""

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from service.companies import models as m
from service.companies import services
from service.companies.analysis import analysis_refresh
from service.companies.analysis.flags import accounts_due_year, as_datetime
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

pytestmark = pytest.mark.django_db
TODAY = date(2025, 9, 1)


def refresh(company, today=TODAY):
    analysis_refresh(company_uuids=[company.uuid], today=today)


def active(company, today=TODAY) -> dict[str, m.CompanyFlag]:
    """Flags active at the start of `today` (the moment analysis_refresh(today=...) works with)."""
    rows = m.CompanyFlag.objects.filter(company=company, flag_end_date__isnull=True).select_related("company_flag_type")
    later = m.CompanyFlag.objects.filter(company=company, flag_end_date__isnull=False).select_related(
        "company_flag_type"
    )
    now = as_datetime(today)
    result = {row.company_flag_type.key: row for row in rows}
    result.update({row.company_flag_type.key: row for row in later if row.flag_end_date > now})
    return result


def local_date(moment):
    return timezone.localtime(moment).date()


def filed_company(**fields):
    """An AS that has filed accounts for 2023 and 2024 (nothing overdue on TODAY)."""
    company = company_make(**fields)
    accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024)
    return company


def test_a_healthy_company_has_no_flags():
    company = filed_company()

    refresh(company)

    assert active(company) == {}


def test_negative_equity_in_the_latest_accounts_raises_a_flag_with_evidence():
    company = company_make()
    accounts_make(company=company, year=2023)
    latest = accounts_make(company=company, year=2024, balance={"total_equity": Decimal("-123456")})

    refresh(company)

    flag = active(company)["negative_total_equity"]
    assert flag.flag_context == {"accounting_year": 2024, "accounts_uuid": str(latest.uuid), "total_equity": -123456}


def test_negative_equity_in_an_older_year_only_does_not_count():
    company = company_make()
    accounts_make(company=company, year=2023, balance={"total_equity": Decimal("-1")})
    accounts_make(company=company, year=2024)

    refresh(company)

    assert "negative_total_equity" not in active(company)


def test_a_flag_that_no_longer_holds_is_ended_and_a_new_occurrence_opens_a_new_row():
    company = company_make()
    accounts_make(company=company, year=2023)
    bad = accounts_make(company=company, year=2024, balance={"total_equity": Decimal("-5")})
    refresh(company)
    first = active(company)["negative_total_equity"]

    accounts_make(company=company, year=2024, replaces=bad)  # corrected: positive equity
    refresh(company)
    first.refresh_from_db()
    assert first.flag_end_date is not None
    assert "negative_total_equity" not in active(company)

    accounts_make(company=company, year=2025, balance={"total_equity": Decimal("-7")})
    refresh(company, today=date(2026, 7, 1))
    second = active(company, today=date(2026, 7, 1))["negative_total_equity"]
    assert second.uuid != first.uuid
    assert m.CompanyFlag.objects.filter(company=company, company_flag_type__key="negative_total_equity").count() == 2


def test_a_still_holding_flag_keeps_its_row_and_updates_its_evidence():
    company = company_make()
    accounts_make(company=company, year=2023, balance={"total_equity": Decimal("-1")})
    refresh(company, today=date(2024, 9, 1))
    first = active(company, today=date(2024, 9, 1))["negative_total_equity"]

    accounts_make(company=company, year=2024, balance={"total_equity": Decimal("-2")})
    refresh(company)

    flag = active(company)["negative_total_equity"]
    assert flag.uuid == first.uuid
    assert flag.flag_context["accounting_year"] == 2024 and flag.flag_context["total_equity"] == -2


def test_replaced_unaudited_accounts_with_significant_changes():
    company = company_make()
    accounts_make(company=company, year=2023)
    old = accounts_make(company=company, year=2024)
    new = accounts_make(
        company=company,
        year=2024,
        replaces=old,
        audited=False,
        announcement_date=date(2025, 8, 1),
        income={"result_before_tax": Decimal("920000") * Decimal("1.11")},  # +11%
    )

    refresh(company)

    flags = active(company)
    assert "replaced_unaudited_accounts" not in flags
    flag = flags["replaced_unaudited_accounts_with_significant_changes"]
    assert flag.flag_context["accounts_uuid"] == str(new.uuid)
    assert flag.flag_context["replaced_accounts_uuid"] == str(old.uuid)
    assert flag.flag_context["changes"]["result_before_tax"]["change_ratio"] == pytest.approx(0.11)
    assert local_date(flag.flag_end_date) == date(2025, 8, 1) + timedelta(days=730)


def test_replaced_unaudited_accounts_with_small_changes():
    company = company_make()
    accounts_make(company=company, year=2023)
    old = accounts_make(company=company, year=2024)
    accounts_make(
        company=company,
        year=2024,
        replaces=old,
        audited=False,
        announcement_date=date(2025, 8, 1),
        balance={"total_assets": Decimal("8000000") * Decimal("1.10")},  # exactly 10%: not more than 10%
    )

    refresh(company)

    flags = active(company)
    assert "replaced_unaudited_accounts" in flags
    assert "replaced_unaudited_accounts_with_significant_changes" not in flags


def test_replacement_by_audited_accounts_raises_nothing():
    company = company_make()
    accounts_make(company=company, year=2023)
    old = accounts_make(company=company, year=2024)
    accounts_make(company=company, year=2024, replaces=old, audited=True, balance={"total_assets": Decimal("1")})

    refresh(company)

    assert not {"replaced_unaudited_accounts", "replaced_unaudited_accounts_with_significant_changes"} & set(
        active(company)
    )


def test_register_statuses_raise_persistent_flags_and_status_rows():
    company = filed_company(
        is_bankrupt=True,
        bankrupt_date=date(2025, 5, 2),
        is_under_liquidation=True,
        is_under_forced_dissolution=True,
        forced_dissolution_date=date(2025, 4, 1),
    )

    refresh(company)

    flags = active(company)
    assert {"bankrupt", "under_liquidation", "forced_dissolution"} <= set(flags)
    assert local_date(flags["bankrupt"].flag_date) == date(2025, 5, 2)
    statuses = {s.company_risk_status_type.key: s for s in m.CompanyRiskStatus.objects.filter(company=company)}
    assert statuses["bankrupt"].from_date == date(2025, 5, 2) and statuses["bankrupt"].to_date is None
    assert statuses["under_liquidation"].from_date == TODAY  # no date on the register: the day it was seen


def test_persistent_flags_stay_when_the_status_is_lifted():
    company = filed_company()
    services.company_risk_status_set(company=company, status_key="bankrupt", on_date=date(2025, 3, 1))
    refresh(company)
    services.company_risk_status_set(company=company, status_key="bankrupt", active=False, on_date=date(2025, 8, 1))

    refresh(company)

    assert "bankrupt" in active(company)  # persist_flag
    status = m.CompanyRiskStatus.objects.get(company=company)
    assert status.to_date == date(2025, 8, 1)
    company.refresh_from_db()
    assert company.is_bankrupt is False


@pytest.mark.parametrize(
    ("today", "due_year"),
    [(date(2025, 7, 31), 2023), (date(2025, 8, 1), 2024), (date(2026, 1, 15), 2024)],
)
def test_the_due_year_turns_after_the_31_july_deadline(today, due_year):
    assert accounts_due_year(today) == due_year


def test_missing_accounts_for_an_as_past_the_deadline():
    company = company_make(registration_date=date(2020, 1, 1))
    accounts_make(company=company, year=2023)

    refresh(company)

    flag = active(company)["missing_accounts"]
    assert flag.flag_context["due_year"] == 2024
    assert flag.flag_context["deadline"] == "2025-07-31"
    assert flag.flag_context["last_accounts_year"] == 2023


def test_missing_accounts_is_not_raised_before_the_deadline_nor_for_young_or_other_companies():
    late_filer = company_make(registration_date=date(2020, 1, 1))
    accounts_make(company=late_filer, year=2023)
    young = company_make(registration_date=date(2024, 8, 1))  # first period may run to the end of 2025
    enk = company_make(organization_type="ENK", registration_date=date(2000, 1, 1))
    group_only = company_make(registration_date=date(2020, 1, 1))
    accounts_make(company=group_only, year=2024, type_key="annual_corporate_group_accounts")

    refresh(late_filer, today=date(2025, 7, 31))
    assert "missing_accounts" not in active(late_filer, today=date(2025, 7, 31))
    for company in (young, enk):
        refresh(company)
    refresh(group_only)

    assert "missing_accounts" not in active(young)
    assert "missing_accounts" not in active(enk)
    assert "missing_accounts" in active(group_only)  # group accounts are not the company's own


def test_recent_high_risk_event_from_a_status_or_an_adverse_note_within_the_lookback():
    company = filed_company()
    services.company_risk_status_set(company=company, status_key="forced_dissolution", on_date=date(2025, 2, 1))

    refresh(company)

    flag = active(company)["recent_high_risk_event"]
    assert flag.flag_context["event"] == "forced_dissolution"
    assert local_date(flag.flag_end_date) == date(2026, 2, 1)

    noted = company_make()
    accounts_make(company=noted, year=2023)
    accounts_make(company=noted, year=2024, notes=[("adverse_opinion", "Does not give a true and fair view.")])
    refresh(noted)
    assert active(noted)["recent_high_risk_event"].flag_context["event"] == "adverse_opinion"


def test_old_high_risk_events_do_not_count():
    company = filed_company()
    services.company_risk_status_set(company=company, status_key="bankrupt", on_date=date(2023, 1, 1))

    refresh(company)

    assert "recent_high_risk_event" not in active(company)
    assert "bankrupt" in active(company)


def test_going_concern_doubt_on_the_latest_accounts():
    company = company_make()
    accounts_make(company=company, year=2023, notes=[("going_concern", "old doubt")])
    accounts_make(company=company, year=2024, notes=[("going_concern", "Material uncertainty.")])

    refresh(company)

    assert active(company)["going_concern_doubt"].flag_context["auditor_note"] == "Material uncertainty."

    cleared = company_make()
    accounts_make(company=cleared, year=2023, notes=[("going_concern", "old doubt")])
    accounts_make(company=cleared, year=2024, notes=[("unqualified_opinion", "Clean.")])
    refresh(cleared)
    assert "going_concern_doubt" not in active(cleared)


def test_unsettled_payment_remarks_raise_a_flag_and_settling_them_ends_it():
    company = filed_company()
    first = payment_remark_make(company=company, amount="1000", registered=date(2025, 1, 10))
    payment_remark_make(company=company, amount="2500.50", registered=date(2025, 3, 10))
    payment_remark_make(company=company, amount="999", registered=date(2024, 3, 10), settled_date=date(2024, 5, 1))

    refresh(company)

    flag = active(company)["payment_remarks"]
    assert flag.flag_context == {"unsettled_count": 2, "unsettled_amount": 3500.5, "first_registered_date": "2025-01-10"}

    services.payment_remark_settle(payment_remark=first, settled_date=date(2025, 8, 1))
    refresh(company)
    assert active(company)["payment_remarks"].flag_context["unsettled_count"] == 1


def test_a_refresh_that_runs_past_midnight_ends_flags_when_it_ends_them(stopped_clock):
    stopped_clock.now = datetime(2026, 11, 26, 22, 59, 59, tzinfo=UTC)  # a second before midnight in Oslo
    companies = [filed_company(), filed_company()]
    remarks = [payment_remark_make(company=company, amount="1000", registered=date(2026, 1, 10)) for company in companies]
    analysis_refresh(company_uuids=[company.uuid for company in companies])
    for remark in remarks:
        services.payment_remark_settle(payment_remark=remark, settled_date=date(2026, 11, 26))

    def batch_done(count):
        stopped_clock.now += timedelta(seconds=2)

    analysis_refresh(company_uuids=[company.uuid for company in companies], batch_size=1, progress=batch_done)

    ended = m.CompanyFlag.objects.filter(company_flag_type__key="payment_remarks").values_list("flag_end_date", flat=True)
    assert sorted(ended) == [datetime(2026, 11, 26, 22, 59, 59, tzinfo=UTC), datetime(2026, 11, 26, 23, 0, 1, tzinfo=UTC)]


def test_services_refresh_the_analysis_on_commit(django_capture_on_commit_callbacks):
    company = filed_company()

    with django_capture_on_commit_callbacks(execute=True):
        payment_remark_make(company=company, amount="500")

    assert "payment_remarks" in active(company)
    assert m.CompanyCreditRisk.objects.filter(company=company).exists()
