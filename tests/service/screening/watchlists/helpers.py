"""Watchlists through their API (the watchlists app's contract) and ownership in the register."""

from __future__ import annotations

from decimal import Decimal

from tests.service.companies.factories import company_make, person_make, role_make
from tests.service.screening.helpers import AML, V1, config_url


def watchlist_make(caller, name: str = "Kunder", companies=()) -> str:
    response = caller.post(f"{V1}/app-customer/{caller.app_customer_uuid}/watchlist", {"watchlist_name": name})
    assert response.status_code == 201, response.json()
    uuid = response.json()["uuid"]
    if companies:
        watchlist_add(caller, uuid, *companies)
    return uuid


def watchlist_add(caller, watchlist_uuid, *companies) -> None:
    body = [{"org_nr": c.org_nr, "org_nr_schema": c.org_nr_schema} for c in companies]
    response = caller.post(f"{V1}/watchlist/{watchlist_uuid}/company", body)
    assert response.status_code == 200, response.json()


def watchlist_remove(caller, watchlist_uuid, company) -> None:
    response = caller.delete(f"{V1}/watchlist/{watchlist_uuid}/company/{company.uuid}", roles=AML)
    assert response.status_code == 204, response.content


def attach(caller, config_uuid, watchlist_uuid):
    return caller.post(config_url(config_uuid, "/screening-config-watchlist"), {"watchlist_uuid": watchlist_uuid}, roles=AML)


def owns(holder, company, percent) -> None:
    """`holder` (a person or a company) holds `percent` of `company` now."""
    kind = "holder_company" if hasattr(holder, "org_nr") else "person"
    role_make(company=company, role_key="shareholder", share_percentage=Decimal(str(percent)), **{kind: holder})


def nordlys_owned_by_kari():
    """Nordlys AS, 50% held by Fjell Holding AS, 62% of which Kari Nordmann holds: she owns
    31% of Nordlys through Fjell, at least 25% in every link. Its board: Ola Styre."""
    nordlys, fjell = company_make(name="Nordlys AS"), company_make(name="Fjell Holding AS")
    kari = person_make(full_name="Kari Nordmann")
    owns(fjell, nordlys, 50)
    owns(kari, fjell, 62)
    role_make(company=nordlys, role_key="board_chair", person=person_make(full_name="Ola Styre"))
    return nordlys, kari
