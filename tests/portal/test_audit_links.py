"""/members/audit/: each record links to the page where a member sees its subject, while it exists:
a monitoring, a customer person, a record hold's subject (its customer person, its company), the
screening setup; nothing once the subject is gone."""

from __future__ import annotations

import html
import re

from tests.screening.setup_helpers import admin, org  # noqa: F401 (fixtures)
from tests.service.companies.factories import company_make
from tests.service.screening.helpers import AML, config_make, config_url, customer_person_make, monitoring_make


def _rows(client) -> list[str]:
    page = html.unescape(client.get("/members/audit/").content.decode())
    return re.findall(r'<tr data-testid="audit-row">(.*?)</tr>', page, re.DOTALL)


def _row(rows: list[str], what: str) -> str:
    return next(row for row in rows if what in row)


def _hold(org, config, key, entity) -> dict:
    response = org.api.post(config_url(config["uuid"], "/records-hold"),
                            {"entity_key": key, "entity_uuid": str(entity), "reason": "Police request."}, roles=AML)
    assert response.status_code == 201, response.json()
    return response.json()


def test_it_links_monitorings_customer_persons_holds_and_the_setup_to_their_pages(org, admin):
    config = config_make(org.api)
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    company = company_make(name="Nordlys AS")
    monitoring = monitoring_make(org.api, config["uuid"], company=company.uuid, type_key="company", decision={"approved_flag": True})
    _hold(org, config, "customer_person", kari)
    _hold(org, config, "company", company.uuid)

    rows = _rows(admin)

    assert f'href="/screening/customer-persons/{kari}/"' in _row(rows, "Added a customer person")
    held = [row for row in rows if "Placed a hold on screening records" in row]
    assert f'href="/companies/{company.uuid}/"' in held[0] and f'href="/screening/customer-persons/{kari}/"' in held[1]
    monitoring_uuid = monitoring["entity_monitoring"]["uuid"]
    assert f'href="/screening/monitorings/{monitoring_uuid}/"' in _row(rows, "Decided on a monitoring")
    assert f'href="/screening/configs/{config["uuid"]}/"' in _row(rows, "Created the screening setup")


def test_a_deleted_subject_is_not_linked(org, admin):
    created = org.admin.client().post("/watchlists/", {"watchlist_name": "Kunder"})
    assert created.status_code == 302
    watchlist = created["Location"].strip("/").split("/")[-1]
    org.admin.client().post(f"/watchlists/{watchlist}/delete/")

    rows = _rows(admin)

    assert "Deleted a watchlist" in rows[0]
    assert not any(f"/watchlists/{watchlist}/" in row for row in rows)  # also not its creation's
