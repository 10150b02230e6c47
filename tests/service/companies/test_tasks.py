"""The daily analysis refresh picks up what time alone changes."""

from datetime import date

from service.companies.models import CompanyFlag
from service.companies.tasks import analysis_refresh_all
from tests.service.companies.factories import accounts_make, company_make


def test_it_raises_missing_accounts_once_the_deadline_has_passed(db):
    company = company_make(registration_date=date(2015, 1, 1))
    accounts_make(company=company, year=2020)  # the last filing is long overdue by today

    analysis_refresh_all()

    assert CompanyFlag.objects.filter(
        company=company, company_flag_type__key="missing_accounts", flag_end_date__isnull=True
    ).exists()
