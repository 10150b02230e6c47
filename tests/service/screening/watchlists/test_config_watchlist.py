"""POST/GET/DELETE /v1/screening-config/{uuid}/screening-config-watchlist."""

from __future__ import annotations

from service.screening.models import ScreeningConfigWatchlist
from tests.service.screening.helpers import AML, config_make, config_url, field_locs
from tests.service.screening.watchlists.helpers import attach, watchlist_make

TAIL = "/screening-config-watchlist"


def test_it_attaches_lists_and_detaches_a_watchlist(api):
    config = config_make(api)
    watchlist = watchlist_make(api, "Kunder")
    response = attach(api, config["uuid"], watchlist)
    assert response.status_code == 201, response.json()
    link = response.json()
    assert (link["watchlist_uuid"], link["watchlist_name"], link["screening_config_uuid"]) == (watchlist, "Kunder", config["uuid"])
    assert [x["uuid"] for x in api.get(config_url(config["uuid"], TAIL), roles=AML).json()] == [link["uuid"]]
    assert api.delete(config_url(config["uuid"], f"{TAIL}/{link['uuid']}"), roles=AML).status_code == 204
    assert api.get(config_url(config["uuid"], TAIL), roles=AML).json() == []


def test_it_refuses_the_same_watchlist_twice_naming_the_field(api):
    config, watchlist = config_make(api), watchlist_make(api)
    assert attach(api, config["uuid"], watchlist).status_code == 201
    again = attach(api, config["uuid"], watchlist)
    assert again.status_code == 400
    assert again.json()["code"] == "already_attached"
    assert field_locs(again) == [["body", "watchlist_uuid"]]
    assert ScreeningConfigWatchlist.objects.count() == 1


def test_it_refuses_another_organisations_watchlist_and_unknown_ones(api, other_api):
    config = config_make(api)
    theirs = watchlist_make(other_api, "Theirs")
    for watchlist in (theirs, config["uuid"]):
        response = attach(api, config["uuid"], watchlist)
        assert response.status_code == 404
        assert field_locs(response) == [["body", "watchlist_uuid"]]
    assert not ScreeningConfigWatchlist.objects.exists()


def test_it_keeps_another_organisations_config_out_of_reach(api, other_api):
    theirs = config_make(other_api)
    link = attach(other_api, theirs["uuid"], watchlist_make(other_api)).json()
    assert attach(api, theirs["uuid"], watchlist_make(api)).status_code == 404
    assert api.get(config_url(theirs["uuid"], TAIL), roles=AML).status_code == 404
    assert api.delete(config_url(theirs["uuid"], f"{TAIL}/{link['uuid']}"), roles=AML).status_code == 404
    assert ScreeningConfigWatchlist.objects.count() == 1


def test_it_needs_the_aml_role(api):
    config, watchlist = config_make(api), watchlist_make(api)
    response = api.post(config_url(config["uuid"], TAIL), {"watchlist_uuid": watchlist})
    assert response.status_code == 403
    assert not ScreeningConfigWatchlist.objects.exists()
