"""DELETE /analysis/v1/watchlist/{watchlist_uuid}/company: remove all companies (spec §4.5)."""

from service.companies.models import Company
from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import companies_url, entry, watchlist_make, watchlist_url


def test_it_removes_every_company_and_says_how_many(api, changes, django_capture_on_commit_callbacks):
    companies = [company_make() for _ in range(3)]
    watchlist_uuid = watchlist_make(api, companies=companies)
    changes.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(companies_url(watchlist_uuid))

    assert response.status_code == 200
    assert response.json() == {"removed_count": 3}
    assert api.get(companies_url(watchlist_uuid)).json() == []
    assert api.get(watchlist_url(watchlist_uuid)).json()["company_count"] == 0
    assert Company.objects.count() == 3
    assert len(changes) == 1
    assert changes[0]["added_company_uuids"] == []
    assert sorted(changes[0]["removed_company_uuids"]) == sorted(c.uuid for c in companies)


def test_removing_from_an_empty_watchlist_removes_nothing_and_signals_nothing(
    api, changes, django_capture_on_commit_callbacks
):
    watchlist_uuid = watchlist_make(api)

    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(companies_url(watchlist_uuid))

    assert response.json() == {"removed_count": 0}
    assert changes == []


def test_delete_then_post_replaces_the_content(api):
    old, new = company_make(), company_make()
    watchlist_uuid = watchlist_make(api, companies=[old])

    api.delete(companies_url(watchlist_uuid))
    api.post(companies_url(watchlist_uuid), [entry(new)])

    assert [row["company"]["uuid"] for row in api.get(companies_url(watchlist_uuid)).json()] == [str(new.uuid)]
