"""Change feeds paged by position: after_update_timestamp + after_uuid (docs/datasets.md, Pagination)."""

import datetime as dt

import pytest

from service.companies import models as m
from tests.service.companies.datasets.builders import DATASETS, a_company, a_flag
from tests.service.companies.datasets.responses import elements_of, error_of

COMPANIES = f"{DATASETS}/company"
START = {"after_update_timestamp": "0001-01-01T00:00:00Z", "after_uuid": "00000000-0000-0000-0000-000000000000"}
T1, T2, T3 = (dt.datetime(2024, 3, day, 8, 0, 0, 250000, tzinfo=dt.timezone.utc) for day in (1, 2, 3))


@pytest.fixture
def companies(db) -> dict[str, dt.datetime]:
    """Ten companies updated at three instants (4, 3 and 3 of them tied); uuid -> update_timestamp."""
    stamps = [T1] * 4 + [T2] * 3 + [T3] * 3
    made = {}
    for number, stamp in enumerate(stamps):
        company = a_company(name=f"Selskap {number} AS")
        m.Company.objects.filter(pk=company.pk).update(update_timestamp=stamp)  # update() skips auto_now
        made[str(company.uuid)] = stamp
    return made


def walk(api, url: str, *, limit: int, params: dict | None = None, between_pages=None) -> list[tuple[str, str]]:
    """(uuid, update_timestamp) of every element, page by page, each page after the previous one's last row."""
    position, seen, pages = dict(START), [], 0
    while True:
        page = elements_of(api.get(url, {**(params or {}), **position, "limit": limit}))
        seen.extend((element["uuid"], element["update_timestamp"]) for element in page)
        if len(page) < limit:
            return seen
        position = {"after_update_timestamp": page[-1]["update_timestamp"], "after_uuid": page[-1]["uuid"]}
        pages += 1
        if between_pages is not None:
            between_pages(pages)


def test_a_feed_walked_page_by_page_sees_every_row_once_across_tied_timestamps(api, companies):
    seen = walk(api, COMPANIES, limit=3)  # pages end inside each group of ties

    assert sorted(uuid for uuid, _ in seen) == sorted(companies)
    expected_order = sorted(companies, key=lambda uuid: (companies[uuid], uuid))
    assert [uuid for uuid, _ in seen] == expected_order
    assert [dt.datetime.fromisoformat(stamp) for _, stamp in seen] == [companies[uuid] for uuid in expected_order]


@pytest.mark.parametrize("limit", [1, 2, 4, 10, 11])
def test_every_page_size_gives_the_same_feed(api, companies, limit):
    seen = walk(api, COMPANIES, limit=limit)

    assert [uuid for uuid, _ in seen] == sorted(companies, key=lambda uuid: (companies[uuid], uuid))


def test_rows_updated_during_the_walk_come_again_and_no_row_is_skipped(api, companies):
    in_order = sorted(companies, key=lambda uuid: (companies[uuid], uuid))
    already_seen, not_yet_reached = in_order[0], in_order[-1]

    def update_two(pages: int) -> None:
        if pages == 1:  # after the first page: one row behind the position, one ahead of it
            for uuid in (already_seen, not_yet_reached):
                company = m.Company.objects.get(uuid=uuid)
                company.website = "https://example.no"
                company.save()  # auto_now: updated now, after every stamp of the fixture

    seen = walk(api, COMPANIES, limit=3, between_pages=update_two)

    uuids = [uuid for uuid, _ in seen]
    untouched = set(companies) - {already_seen, not_yet_reached}
    assert all(uuids.count(uuid) == 1 for uuid in untouched)
    assert uuids.count(already_seen) == 2  # its old version, then the change
    assert uuids.count(not_yet_reached) == 1  # reached once, already changed
    # the changes come last, in the feed's order: their new stamps (two saves, so usually apart), then uuid
    changed = m.Company.objects.filter(uuid__in=[already_seen, not_yet_reached])
    assert uuids[-2:] == [str(c.uuid) for c in sorted(changed, key=lambda c: (c.update_timestamp, str(c.uuid)))]
    stamps = [(dt.datetime.fromisoformat(stamp), uuid) for uuid, stamp in seen]
    assert stamps == sorted(stamps)


def test_it_combines_with_filters(api, companies):
    seen = walk(api, COMPANIES, limit=2, params={"update_timestamp": "GTE:2024-03-02T08:00:00.25Z"})

    assert sorted(uuid for uuid, _ in seen) == sorted(uuid for uuid, stamp in companies.items() if stamp >= T2)


def test_a_position_with_an_offset_from_utc_means_the_same_instant(api, companies):
    [first_of_t2, *_] = sorted(uuid for uuid, stamp in companies.items() if stamp == T2)
    oslo = "2024-03-02T09:00:00.250000+01:00"  # T2

    page = elements_of(api.get(COMPANIES, {"after_update_timestamp": oslo, "after_uuid": first_of_t2, "limit": 100}))

    later = sorted(companies, key=lambda uuid: (companies[uuid], uuid))
    assert [element["uuid"] for element in page] == later[later.index(first_of_t2) + 1 :]


def test_flags_page_by_position_too(api):
    company = a_company()
    flags = [a_flag(company=company, key=key) for key in ("negative_total_equity", "bankrupt")]

    seen = walk(api, f"{DATASETS}/company-flag", limit=1, params={"company_uuid": str(company.uuid)})

    assert sorted(uuid for uuid, _ in seen) == sorted(str(flag.uuid) for flag in flags)


@pytest.mark.parametrize(
    ("params", "parameter", "message"),
    [
        (
            {"after_update_timestamp": "2024-03-01"},
            "after_uuid",
            "is needed with after_update_timestamp: together they are the position to page after",
        ),
        (
            {"after_uuid": START["after_uuid"]},
            "after_update_timestamp",
            "is needed with after_uuid: together they are the position to page after",
        ),
        (
            {**START, "after_update_timestamp": "yesterday"},
            "after_update_timestamp",
            "'yesterday' is not a date or an ISO 8601 timestamp",
        ),
        (  # an unencoded + arrives as a space
            {**START, "after_update_timestamp": "2024-03-01T08:00:00.25 01:00"},
            "after_update_timestamp",
            "'2024-03-01T08:00:00.25 01:00' is not a date or an ISO 8601 timestamp (in a URL, write the offset's + as %2B)",
        ),
        ({**START, "after_uuid": "not a uuid"}, "after_uuid", "'not a uuid' is not a UUID"),
        ({**START, "offset": "10"}, "offset", "cannot be combined with after_update_timestamp and after_uuid"),
    ],
)
def test_it_refuses_a_bad_position_with_a_400_naming_the_parameter(api, companies, params, parameter, message):
    body = error_of(api.get(COMPANIES, params), 400)

    assert body["code"] == "invalid_parameter"
    assert body["errors"] == [{"loc": ["query", parameter], "msg": message}]


def test_a_dataset_without_update_timestamp_says_to_use_offset(api, db):
    body = error_of(api.get(f"{DATASETS}/company-employment", START), 400)

    detail = "Dataset company-employment has no update_timestamp; page it with limit and offset."
    assert (body["code"], body["detail"]) == ("invalid_parameter", detail)
    assert body["errors"] == [{"loc": ["query", "after_update_timestamp"], "msg": detail}]
