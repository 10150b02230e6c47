"""Removing companies from a watchlist a screening config follows stops their screening, as
detaching the watchlist does, so the removals (one company, all companies, the whole
watchlist, a replace that leaves some out) need `aml` there; elsewhere they need no role."""

import pytest

from service.watchlists.models import WatchlistCompany
from tests.service.companies.factories import company_make
from tests.service.screening.helpers import AML, config_make, config_url
from tests.service.watchlists.helpers import companies_url, entry, put, watchlist_make, watchlist_url


@pytest.fixture
def followed(api):
    """A watchlist of two companies that the organisation's screening config follows."""
    companies = [company_make(name="Nordlys AS"), company_make(name="Fjord AS")]
    watchlist_uuid = watchlist_make(api, name="Screened customers", companies=companies)
    config = config_make(api)
    attached = api.post(config_url(config["uuid"], "/screening-config-watchlist"), {"watchlist_uuid": watchlist_uuid}, roles=AML)
    assert attached.status_code == 201, attached.json()
    return watchlist_uuid, companies


def removals(watchlist_uuid, company):
    return {
        "one company": f"{companies_url(watchlist_uuid)}/{company.uuid}",
        "all companies": companies_url(watchlist_uuid),
        "the watchlist": watchlist_url(watchlist_uuid),
    }


@pytest.mark.parametrize("removal", ["one company", "all companies", "the watchlist"])
def test_it_refuses_a_removal_without_aml_and_removes_nothing(api, followed, removal):
    watchlist_uuid, companies = followed

    response = api.delete(removals(watchlist_uuid, companies[0])[removal], roles=["credit_check"])

    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "role_missing"
    assert "followed by screening" in body["detail"] and "aml" in body["detail"]
    assert body["errors"] == [{"loc": ["header", "Nk-Role-Keys"], "msg": "missing role: aml"}]
    assert WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid).count() == 2


@pytest.mark.parametrize("removal", ["one company", "all companies", "the watchlist"])
def test_it_removes_with_aml(api, followed, removal):
    watchlist_uuid, companies = followed

    response = api.delete(removals(watchlist_uuid, companies[0])[removal], roles=AML)

    assert response.status_code in (200, 204)
    assert WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid).count() < 2


def test_a_watchlist_no_config_follows_needs_no_role_to_empty(api):
    watchlist_uuid = watchlist_make(api, companies=[company_make()])

    assert api.delete(companies_url(watchlist_uuid)).json() == {"removed_count": 1}


def test_a_replace_that_removes_needs_aml_and_changes_nothing_without_it(api, followed):
    watchlist_uuid, companies = followed
    new = company_make(name="Ny AS")

    response = put(api, companies_url(watchlist_uuid), [entry(companies[0]), entry(new)], roles=["credit_check"])

    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "role_missing" and "followed by screening" in body["detail"]
    assert body["errors"] == [{"loc": ["header", "Nk-Role-Keys"], "msg": "missing role: aml"}]
    assert set(WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid).values_list("company_id", flat=True)) == {
        c.uuid for c in companies
    }


def test_a_replace_that_only_adds_needs_no_role(api, followed):
    watchlist_uuid, companies = followed
    new = company_make(name="Ny AS")

    response = put(api, companies_url(watchlist_uuid), [*(entry(c) for c in companies), entry(new)], roles=["credit_check"])

    assert response.status_code == 200
    assert response.json() == {"added_count": 1, "removed_count": 0, "kept_count": 2, "company_count": 3}


def test_a_replace_that_removes_goes_through_with_aml(api, followed):
    watchlist_uuid, companies = followed

    response = put(api, companies_url(watchlist_uuid), [entry(companies[1])], roles=AML)

    assert response.status_code == 200 and response.json()["removed_count"] == 1
    assert list(WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid).values_list("company_id", flat=True)) == [
        companies[1].uuid
    ]
