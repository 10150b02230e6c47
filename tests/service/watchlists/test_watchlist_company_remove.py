"""DELETE /analysis/v1/watchlist/{watchlist_uuid}/company/{company_identifier}: remove one company (extension)."""

from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import companies_url, watchlist_make


def _listed(api, watchlist_uuid) -> list[str]:
    return [row["company"]["uuid"] for row in api.get(companies_url(watchlist_uuid)).json()]


def test_it_removes_one_company_by_uuid_or_org_nr(api, changes, django_capture_on_commit_callbacks):
    first, second, third = company_make(), company_make(), company_make()
    watchlist_uuid = watchlist_make(api, companies=[first, second, third])
    changes.clear()

    with django_capture_on_commit_callbacks(execute=True):
        by_uuid = api.delete(f"{companies_url(watchlist_uuid)}/{first.uuid}")
        by_org_nr = api.delete(f"{companies_url(watchlist_uuid)}/NO{second.org_nr}")

    assert by_uuid.status_code == 204 and by_org_nr.status_code == 204
    assert _listed(api, watchlist_uuid) == [str(third.uuid)]
    assert [(c["added_company_uuids"], c["removed_company_uuids"]) for c in changes] == [
        ([], [first.uuid]),
        ([], [second.uuid]),
    ]


def test_it_is_404_for_a_company_not_on_the_watchlist_and_400_for_a_malformed_identifier(api, changes):
    member, outsider = company_make(), company_make()
    watchlist_uuid = watchlist_make(api, companies=[member])

    not_on_it = api.delete(f"{companies_url(watchlist_uuid)}/{outsider.uuid}")
    malformed = api.delete(f"{companies_url(watchlist_uuid)}/NO123")

    assert not_on_it.status_code == 404
    assert malformed.status_code == 400 and malformed.json()["errors"][0]["loc"] == ["path", "company_identifier"]
    assert _listed(api, watchlist_uuid) == [str(member.uuid)]
