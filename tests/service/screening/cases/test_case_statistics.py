"""GET /v1/screening-config/{uuid}/screening-case-statistics (extension): the config's cases month
by month (raised, closed as false positive or confirmed hit, median days to close) and the open
ones by age; bad `months` is a 400 naming it, another organisation's config a 404."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.utils import timezone

from service.screening.models import ScreeningCase, ScreeningCaseReview
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import config_with, customer_person_screened, review
from tests.service.screening.helpers import AML, config_url, field_locs

PATH = "/screening-case-statistics"


def _statistics(caller, config_uuid, **params) -> dict:
    response = caller.get(config_url(config_uuid, PATH), params, roles=AML)
    assert response.status_code == 200, response.json()
    return response.json()


def _local(day: date, hour: int = 12) -> datetime:
    return timezone.make_aware(datetime(day.year, day.month, day.day, hour))


def _month_key(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m")


def test_it_counts_each_month_and_the_open_cases_by_age(api, lists):
    config = config_with(api, "un_security_council")
    for _ in range(2):  # two customers hit by the same UN entry
        customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")
    customer_person_screened(api, config["uuid"], PEP_PERSON, "1961-09-30")
    sanction_a, sanction_b = ScreeningCase.objects.filter(sanction_flag=True)
    pep = ScreeningCase.objects.get(pep_flag=True)

    now = timezone.now()
    this_month = timezone.localtime(now).date().replace(day=1)
    last_month = (this_month - timedelta(days=1)).replace(day=1)
    # A: raised on the 10th of last month, closed as a false positive on the 20th (10 days).
    ScreeningCase.objects.filter(pk=sanction_a.pk).update(created_timestamp=_local(last_month.replace(day=10)))
    review(api, config["uuid"], str(sanction_a.uuid), "false_positive")
    ScreeningCaseReview.objects.filter(screening_case=sanction_a).update(created_timestamp=_local(last_month.replace(day=20)))
    # B: raised on the 5th of last month, confirmed now.
    b_created = _local(last_month.replace(day=5))
    ScreeningCase.objects.filter(pk=sanction_b.pk).update(created_timestamp=b_created)
    review(api, config["uuid"], str(sanction_b.uuid), "confirmed_hit", "match")
    b_closed = ScreeningCaseReview.objects.get(screening_case=sanction_b).created_timestamp
    # The PEP case stays open, raised 40 days ago.
    pep_created = now - timedelta(days=40)
    ScreeningCase.objects.filter(pk=pep.pk).update(created_timestamp=pep_created)

    figures = _statistics(api, config["uuid"])

    months = {row["month"]: row for row in figures["months"]}
    assert len(figures["months"]) == 12 and figures["months"][-1]["month"] == this_month.strftime("%Y-%m")
    assert [row["month"] for row in figures["months"]] == sorted(months)  # oldest first, every month
    last = months[last_month.strftime("%Y-%m")]
    assert (last["raised_sanction_count"], last["closed_false_positive_count"], last["median_days_to_close"]) == (2, 1, 10.0)
    current = months[this_month.strftime("%Y-%m")]
    assert current["closed_confirmed_hit_count"] == 1
    assert current["median_days_to_close"] == round((b_closed - b_created).total_seconds() / 86400, 1)
    b_days = (b_closed - b_created).total_seconds() / 86400
    assert figures["median_days_to_close"] == round((10 + b_days) / 2, 1)  # over the period's closed cases
    assert months[_month_key(pep_created)]["raised_pep_count"] == 1
    assert sum(row["raised_count"] for row in figures["months"]) == 3
    quiet = [row for key, row in months.items() if key not in (_month_key(pep_created), last["month"], current["month"])]
    assert all(row["raised_count"] == 0 and row["median_days_to_close"] is None for row in quiet)

    assert (figures["open_count"], figures["open_under_7_days_count"], figures["open_7_to_30_days_count"],
            figures["open_over_30_days_count"]) == (1, 0, 0, 1)
    oldest = datetime.fromisoformat(figures["oldest_open_create_timestamp"])
    assert abs(oldest - pep_created) < timedelta(milliseconds=1)  # the API writes milliseconds
    assert [row["month"] for row in _statistics(api, config["uuid"], months=2)["months"]] == [last["month"], current["month"]]


def test_a_config_without_cases_has_quiet_months(api, lists):
    config = config_with(api)

    figures = _statistics(api, config["uuid"], months=3)

    assert [row["raised_count"] for row in figures["months"]] == [0, 0, 0]
    assert figures["open_count"] == 0 and figures["oldest_open_create_timestamp"] is None
    assert figures["median_days_to_close"] is None


@pytest.mark.parametrize("months", ["0", "25", "twelve"])
def test_months_out_of_range_is_a_400_naming_it(api, lists, months):
    config = config_with(api)

    response = api.get(config_url(config["uuid"], PATH), {"months": months}, roles=AML)

    assert response.status_code == 400 and field_locs(response) == [["query", "months"]]


def test_another_organisations_config_is_404_and_aml_is_needed(api, other_api, lists):
    theirs = config_with(other_api)
    assert api.get(config_url(theirs["uuid"], PATH), roles=AML).status_code == 404
    mine = config_with(api)
    refused = api.get(config_url(mine["uuid"], PATH), roles=["credit_check"])
    assert refused.status_code == 403 and refused.json()["code"] == "role_missing"


def test_it_counts_one_kind_of_screened_entity_on_request(api, lists):
    from service.companies.models import Company, Person
    from tests.service.screening.helpers import monitoring_make

    config = config_with(api, "un_security_council")
    owner = Person.objects.create(full_name=UN_PERSON)
    monitoring_make(api, config["uuid"], person=owner.uuid, type_key="beneficial_owners",
                    related_company=Company.objects.create(name="Nordlys AS", org_nr="912345670").uuid,
                    decision={"approved_flag": True})
    customer_person_screened(api, config["uuid"], PEP_PERSON, "1961-09-30")

    def raised(**params) -> tuple[int, int, int]:
        figures = _statistics(api, config["uuid"], months=1, **params)
        [month] = figures["months"]
        return month["raised_count"], month["raised_pep_count"], figures["open_count"]

    assert raised() == (2, 1, 2)
    assert raised(inquiry_entity_key="customer_person") == (1, 1, 1)
    assert raised(inquiry_entity_key="person") == (1, 0, 1)
    assert raised(inquiry_entity_key="company") == (0, 0, 0)
    wrong = api.get(config_url(config["uuid"], PATH), {"inquiry_entity_key": "customer"}, roles=AML)
    assert wrong.status_code == 400 and field_locs(wrong) == [["query", "inquiry_entity_key"]]
