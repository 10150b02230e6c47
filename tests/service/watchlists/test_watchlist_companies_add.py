"""POST /analysis/v1/watchlist/{watchlist_uuid}/company: add companies (spec §4.5).

All or nothing; idempotent; at most 10,000 per request; the change is signalled after commit.
"""

import json

from django.conf import settings

from service.companies.models import Company
from service.watchlists.models import WatchlistCompany
from tests.service.companies.factories import company_make, org_nr_make
from tests.service.watchlists.helpers import companies_url, entry, watchlist_make


def _members(watchlist_uuid) -> set:
    return set(WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid).values_list("company_id", flat=True))


def test_it_adds_the_companies_and_counts_them(api):
    companies = [company_make() for _ in range(3)]
    watchlist_uuid = watchlist_make(api)

    response = api.post(companies_url(watchlist_uuid), [entry(c) for c in companies])

    assert response.status_code == 200
    assert response.json() == {"added_count": 3, "ignored_count": 0, "company_count": 3}
    assert _members(watchlist_uuid) == {c.uuid for c in companies}


def test_it_accepts_org_numbers_with_spaces_and_a_lower_case_schema(api):
    company = company_make()
    watchlist_uuid = watchlist_make(api)

    body = [{"org_nr": entry(company, spaced=True)["org_nr"], "org_nr_schema": "no"}]
    response = api.post(companies_url(watchlist_uuid), body)

    assert response.json()["added_count"] == 1
    assert _members(watchlist_uuid) == {company.uuid}


def test_adding_again_is_idempotent_and_counts_the_ignored(api):
    old, new = company_make(), company_make()
    watchlist_uuid = watchlist_make(api, companies=[old])

    response = api.post(companies_url(watchlist_uuid), [entry(old), entry(new), entry(new, spaced=True)])

    assert response.json() == {"added_count": 1, "ignored_count": 2, "company_count": 2}
    assert WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid).count() == 2


def test_an_empty_array_adds_nothing(api, changes, django_capture_on_commit_callbacks):
    watchlist_uuid = watchlist_make(api, companies=[company_make()])

    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(companies_url(watchlist_uuid), [])

    assert response.json() == {"added_count": 0, "ignored_count": 0, "company_count": 1}
    assert changes == []


def test_it_lists_every_bad_entry_with_its_index_and_adds_nothing(api):
    good = company_make()
    watchlist_uuid = watchlist_make(api)
    body = [
        entry(good),
        {"org_nr": "123456789", "org_nr_schema": "NO"},  # check digit wrong
        {"org_nr": good.org_nr, "org_nr_schema": "XX"},  # unknown schema
        {"org_nr": org_nr_make(), "org_nr_schema": "NO"},  # valid, not in the register
        {"org_nr_schema": "NO"},
        {"org_nr": 988077917, "org_nr_schema": "NO"},  # a number, not a string
        "NO988077917",
        {"org_nr": "556036-0793", "org_nr_schema": "SE"},  # valid Swedish, not in the register
        {"org_nr": "556036-0794", "org_nr_schema": "SE"},  # Swedish check digit wrong
    ]

    response = api.post(companies_url(watchlist_uuid), body)

    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "invalid_request"
    assert "8 of 9 entries are invalid" in error["detail"] and "nothing was changed" in error["detail"]
    assert [e["loc"] for e in error["errors"]] == [
        ["body", 1, "org_nr"],
        ["body", 2, "org_nr_schema"],
        ["body", 3, "org_nr"],
        ["body", 4, "org_nr"],
        ["body", 5, "org_nr"],
        ["body", 6],
        ["body", 7, "org_nr"],
        ["body", 8, "org_nr"],
    ]
    messages = [e["msg"] for e in error["errors"]]
    assert "not a valid NO organisation number" in messages[0]
    assert "supported: NO, SE, DK, FI" in messages[1]
    assert "not in the register" in messages[2] and "not in the register" in messages[6]
    assert "not a valid SE organisation number" in messages[7]
    assert _members(watchlist_uuid) == set()


def test_a_body_that_is_not_an_array_or_not_json_is_refused(api):
    watchlist_uuid = watchlist_make(api)

    as_object = api.post(companies_url(watchlist_uuid), {"org_nr": "988077917", "org_nr_schema": "NO"})
    not_json = api.client.post(
        companies_url(watchlist_uuid), "[{", content_type="application/json", **api.headers()
    )

    assert as_object.status_code == 400 and as_object.json()["errors"] == [{"loc": ["body"], "msg": "must be an array"}]
    assert not_json.status_code == 400 and not_json.json()["errors"][0]["loc"] == ["body"]


def _bulk_companies(count: int) -> list[Company]:
    # At test scale the factories' per-row lookups would dominate; the register rows are all that matters here.
    companies = [Company(org_nr=org_nr_make(), name=f"Masse {i} AS") for i in range(count)]
    return Company.objects.bulk_create(companies, batch_size=2000)


def test_ten_thousand_companies_fit_in_one_request(api):
    companies = _bulk_companies(10_000)
    watchlist_uuid = watchlist_make(api)
    body = [entry(c, spaced=True) for c in companies]
    assert len(json.dumps(body)) < settings.VAKT_MAX_BODY_BYTES

    response = api.post(companies_url(watchlist_uuid), body)

    assert response.status_code == 200
    assert response.json() == {"added_count": 10_000, "ignored_count": 0, "company_count": 10_000}


def test_more_than_ten_thousand_entries_are_refused_with_a_clear_message(api):
    watchlist_uuid = watchlist_make(api)
    body = [{"org_nr": "988077917", "org_nr_schema": "NO"}] * 10_001

    response = api.post(companies_url(watchlist_uuid), body)

    assert response.status_code == 400
    assert response.json()["code"] == "too_many_companies"
    assert "10001" in response.json()["detail"] and "at most 10000" in response.json()["detail"]
    assert _members(watchlist_uuid) == set()


def test_the_signal_names_only_the_companies_really_added(api, changes, django_capture_on_commit_callbacks):
    old, new = company_make(), company_make()
    watchlist_uuid = watchlist_make(api, companies=[old])
    changes.clear()

    with django_capture_on_commit_callbacks(execute=True):
        api.post(companies_url(watchlist_uuid), [entry(old), entry(new)])

    assert len(changes) == 1
    assert str(changes[0]["watchlist_uuid"]) == watchlist_uuid
    assert changes[0]["app_customer_uuid"] == api.app_customer_uuid
    assert changes[0]["added_company_uuids"] == [new.uuid]
    assert changes[0]["removed_company_uuids"] == []


def test_nothing_is_signalled_for_a_refused_body_or_an_add_that_adds_nothing(
    api, changes, django_capture_on_commit_callbacks
):
    old = company_make()
    watchlist_uuid = watchlist_make(api, companies=[old])
    changes.clear()

    with django_capture_on_commit_callbacks(execute=True):
        refused = api.post(companies_url(watchlist_uuid), [entry(company_make()), {"org_nr": "1", "org_nr_schema": "NO"}])
        again = api.post(companies_url(watchlist_uuid), [entry(old)])

    assert refused.status_code == 400 and again.status_code == 200
    assert changes == []
