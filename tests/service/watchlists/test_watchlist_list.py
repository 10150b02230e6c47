"""GET /analysis/v1/app-customer/{app_customer_uuid}/watchlist: the organisation's watchlists (extension)."""

from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import watchlist_make, watchlists_url


def test_it_lists_the_watchlists_by_name_with_their_company_counts(api):
    companies = [company_make() for _ in range(3)]
    watchlist_make(api, "Leverandører", companies[:1])
    watchlist_make(api, "Kunder", companies)
    watchlist_make(api, "Tom")

    response = api.get(watchlists_url(api.app_customer_uuid))

    assert response.status_code == 200
    assert [(w["watchlist_name"], w["company_count"]) for w in response.json()] == [
        ("Kunder", 3), ("Leverandører", 1), ("Tom", 0),
    ]


def test_it_is_empty_for_an_organisation_without_watchlists(api):
    assert api.get(watchlists_url(api.app_customer_uuid)).json() == []
