"""limit (default 1000, at most 100000) and offset, over rows ordered by primary key."""

import datetime as dt

import pytest
from django.utils import timezone

from service.companies import models as m
from tests.service.companies.datasets.builders import DATASETS, a_company
from tests.service.companies.datasets.responses import elements_of, error_of

EMPLOYMENT = f"{DATASETS}/company-employment"


def _employment_rows(count: int) -> list[str]:
    """`count` employment rows (bulk); their uuids in primary key order."""
    company = a_company()
    start = timezone.make_aware(dt.datetime(2000, 1, 1))
    rows = m.CompanyEmployment.objects.bulk_create(
        m.CompanyEmployment(company=company, employee_count=n, from_date=start + dt.timedelta(days=n))
        for n in range(count)
    )
    return sorted(str(row.uuid) for row in rows)


def _uuids(response) -> list[str]:
    return [element["uuid"] for element in elements_of(response)]


def test_it_returns_1000_rows_by_default(api):
    expected = _employment_rows(1001)

    assert _uuids(api.get(EMPLOYMENT)) == expected[:1000]


def test_rows_come_in_primary_key_order(api):
    expected = _employment_rows(30)

    assert _uuids(api.get(EMPLOYMENT, {"limit": 100})) == expected


def test_offset_pages_are_disjoint_and_cover_everything(api):
    expected = _employment_rows(25)

    pages = [_uuids(api.get(EMPLOYMENT, {"limit": 10, "offset": offset})) for offset in (0, 10, 20, 30)]

    assert [len(page) for page in pages] == [10, 10, 5, 0]  # a short page is the last one
    assert sum(pages, []) == expected


def test_offset_applies_after_the_filters(api):
    _employment_rows(20)
    matching = sorted(
        str(uuid) for uuid in m.CompanyEmployment.objects.filter(employee_count__gte=10).values_list("uuid", flat=True)
    )

    response = api.get(EMPLOYMENT, {"employee_count": "GTE:10", "limit": 4, "offset": 4})

    assert _uuids(response) == matching[4:8]


def test_the_largest_page_is_allowed(api):
    _employment_rows(3)

    assert len(_uuids(api.get(EMPLOYMENT, {"limit": 100_000}))) == 3


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"limit": 100_001}, "limit"),
        ({"limit": 0}, "limit"),
        ({"limit": "many"}, "limit"),
        ({"offset": -1}, "offset"),
        ({"offset": "first"}, "offset"),
    ],
)
def test_bad_limits_and_offsets_are_a_400_naming_the_parameter(api, params, parameter):
    body = error_of(api.get(EMPLOYMENT, params), 400)

    assert body["errors"][0]["loc"][-1] == parameter
    assert parameter in body["detail"]
