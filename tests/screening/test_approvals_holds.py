"""The Record holds tab of the approvals page (/screening/approvals/?view=holds): every legal hold
on the organisation's screening records, newest first, in force or released; why, to admins only."""

from __future__ import annotations

import html

from portal.models import Member
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.companies.factories import company_make
from tests.service.screening.helpers import AML, config_make, config_url, customer_person_make, monitoring_make

REASON = "Our case 2026-114: the police asked for the records."


def _hold(org, config, key, entity, reason=REASON) -> dict:
    response = org.api.post(config_url(config["uuid"], "/records-hold"),
                            {"entity_key": key, "entity_uuid": str(entity), "reason": reason}, roles=AML)
    assert response.status_code == 201, response.json()
    return response.json()


def _tab(client) -> str:
    response = client.get("/screening/approvals/", {"view": "holds"})
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_it_lists_the_holds_newest_first_with_why_for_admins(org, admin, other_org):
    config = config_make(org.api)
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    company = company_make(name="Nordlys AS")
    monitoring_make(org.api, config["uuid"], company=company.uuid, type_key="company", decision={"approved_flag": True})
    first = _hold(org, config, "customer_person", kari)
    released = org.api.post(f"/analysis/v1/records-hold/{first['uuid']}/release", {"release_reason": "Case closed."}, roles=AML)
    assert released.status_code == 200
    _hold(org, config, "company", company.uuid, reason="A dispute with Nordlys AS.")
    theirs = config_make(other_org.api)
    olav = customer_person_make(other_org.api, theirs["uuid"], full_name="Olav Fjord")["uuid"]
    _hold(other_org, theirs, "customer_person", olav)

    page = _tab(admin)

    rows = page.split('data-testid="hold-row"')[1:]
    assert len(rows) == 2 and "Olav Fjord" not in page  # another organisation's hold is not here
    assert f'href="/companies/{company.uuid}/">Nordlys AS</a>' in rows[0] and "In force" in rows[0]
    assert "A dispute with Nordlys AS." in rows[0] and "company, with the persons screened for it" in rows[0]
    assert f'href="/screening/customer-persons/{kari}/">Kari Nordmann</a>' in rows[1]
    assert "Released " in rows[1] and f"{REASON}" in rows[1] and ": Case closed." in rows[1]

    officer = _tab(org.member("officer", Member.Role.OFFICER))
    assert "Nordlys AS" in officer and "A dispute with Nordlys AS." not in officer and REASON not in officer


def test_without_holds_it_says_what_happens_instead(org, admin):
    config_make(org.api)
    assert 'data-testid="holds-empty">No record is held past the retention period' in _tab(admin)


def test_it_pages_the_holds(org, admin, monkeypatch):
    monkeypatch.setattr("screening.views_approvals.HOLDS_PER_PAGE", 2)
    config = config_make(org.api)
    for name in ("Kari Nordmann", "Per Hansen", "Ola Berg"):
        _hold(org, config, "customer_person", customer_person_make(org.api, config["uuid"], full_name=name)["uuid"])

    first, second = _tab(admin), html.unescape(admin.get("/screening/approvals/", {"view": "holds", "page": 2}).content.decode())

    assert first.count('data-testid="hold-row"') == 2 and "Ola Berg" in first and "Kari Nordmann" not in first
    assert 'href="?view=holds&page=2">Next</a>' in first and "Previous" not in first
    assert second.count('data-testid="hold-row"') == 1 and "Kari Nordmann" in second
    assert 'href="?view=holds&page=1">Previous</a>' in second and ">Next<" not in second
    beyond = html.unescape(admin.get("/screening/approvals/", {"view": "holds", "page": 3}).content.decode())
    assert "No more holds." in beyond and 'data-testid="holds-empty"' not in beyond
