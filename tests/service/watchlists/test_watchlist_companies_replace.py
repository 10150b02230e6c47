"""PUT /analysis/v1/watchlist/{watchlist_uuid}/company (extension): replace the companies in one
transaction. The body is the add's, checked whole first; the counts say what changed; one signal
names every company added and removed."""

from service.audit.models import AuditEvent
from service.watchlists.models import WatchlistCompany
from tests.service.companies.factories import company_make, org_nr_make
from tests.service.watchlists.helpers import companies_url, entry, put, watchlist_make, watchlist_url


def _members(watchlist_uuid) -> set:
    return set(WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid).values_list("company_id", flat=True))


def test_it_replaces_the_companies_and_counts_what_changed(api, changes, django_capture_on_commit_callbacks):
    dropped, kept, new = company_make(), company_make(), company_make()
    watchlist_uuid = watchlist_make(api, companies=[dropped, kept])
    changes.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = put(api, companies_url(watchlist_uuid), [entry(kept), entry(new), entry(new, spaced=True)])

    assert response.status_code == 200
    assert response.json() == {"added_count": 1, "removed_count": 1, "kept_count": 1, "company_count": 2}
    assert _members(watchlist_uuid) == {kept.uuid, new.uuid}
    assert api.get(watchlist_url(watchlist_uuid)).json()["company_count"] == 2
    assert len(changes) == 1
    assert (changes[0]["added_company_uuids"], changes[0]["removed_company_uuids"]) == ([new.uuid], [dropped.uuid])
    assert str(changes[0]["watchlist_uuid"]) == watchlist_uuid


def test_a_bad_entry_is_named_by_its_index_and_nothing_changes(api, changes, django_capture_on_commit_callbacks):
    old, new = company_make(), company_make()
    watchlist_uuid = watchlist_make(api, companies=[old])
    changes.clear()
    audited = AuditEvent.objects.count()

    with django_capture_on_commit_callbacks(execute=True):
        response = put(api, companies_url(watchlist_uuid), [entry(new), {"org_nr": org_nr_make(), "org_nr_schema": "NO"}, "x"])

    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "invalid_request"
    assert "2 of 3 entries are invalid; nothing was changed" in error["detail"]
    assert [e["loc"] for e in error["errors"]] == [["body", 1, "org_nr"], ["body", 2]]
    assert "not in the register" in error["errors"][0]["msg"]
    assert _members(watchlist_uuid) == {old.uuid}
    assert changes == [] and AuditEvent.objects.count() == audited


def test_a_body_that_is_not_an_array_changes_nothing(api):
    old = company_make()
    watchlist_uuid = watchlist_make(api, companies=[old])

    response = put(api, companies_url(watchlist_uuid), entry(company_make()))

    assert response.status_code == 400 and response.json()["errors"] == [{"loc": ["body"], "msg": "must be an array"}]
    assert _members(watchlist_uuid) == {old.uuid}


def test_an_empty_array_empties_the_watchlist(api, changes, django_capture_on_commit_callbacks):
    companies = [company_make(), company_make()]
    watchlist_uuid = watchlist_make(api, companies=companies)
    changes.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = put(api, companies_url(watchlist_uuid), [])

    assert response.json() == {"added_count": 0, "removed_count": 2, "kept_count": 0, "company_count": 0}
    assert _members(watchlist_uuid) == set()
    assert len(changes) == 1 and sorted(changes[0]["removed_company_uuids"]) == sorted(c.uuid for c in companies)


def test_the_same_list_again_changes_nothing_and_signals_nothing(api, changes, django_capture_on_commit_callbacks):
    companies = [company_make(), company_make()]
    watchlist_uuid = watchlist_make(api, companies=companies)
    before = api.get(watchlist_url(watchlist_uuid)).json()["update_timestamp"]
    changes.clear()
    audited = AuditEvent.objects.count()

    with django_capture_on_commit_callbacks(execute=True):
        response = put(api, companies_url(watchlist_uuid), [entry(c) for c in reversed(companies)])

    assert response.json() == {"added_count": 0, "removed_count": 0, "kept_count": 2, "company_count": 2}
    assert changes == [] and AuditEvent.objects.count() == audited
    assert api.get(watchlist_url(watchlist_uuid)).json()["update_timestamp"] == before


def test_it_audits_the_removed_and_the_added_companies(api):
    dropped, new = company_make(), company_make()
    watchlist_uuid = watchlist_make(api, companies=[dropped])
    earlier = list(AuditEvent.objects.values_list("uuid", flat=True))

    put(api, companies_url(watchlist_uuid), [entry(new)])

    records = AuditEvent.objects.exclude(uuid__in=earlier)
    by_action = {e.action_key: (e.before, e.after) for e in records}
    assert by_action == {
        "watchlist.companies_remove": ({"company_count": 1, "company_uuids": [str(dropped.uuid)]}, None),
        "watchlist.companies_add": (None, {"company_count": 1, "company_uuids": [str(new.uuid)]}),
    }


def test_another_organisations_watchlist_is_not_found_and_stays_as_it_was(api, other_api):
    theirs = company_make()
    watchlist_uuid = watchlist_make(other_api, companies=[theirs])

    response = put(api, companies_url(watchlist_uuid), [entry(company_make())])

    assert response.status_code == 404
    assert _members(watchlist_uuid) == {theirs.uuid}
