"""/members/audit/?who=…&object_uuid=…: everything one member or API user did, everything about
one subject; kept in the URL with the kind and the days, in the CSV and its name; an id that is not
the organisation's says so and never shows another organisation's records."""

from __future__ import annotations

import html
import re

from portal.models import Member
from tests.portal.conftest import add_member, make_member


def _rows(page: str) -> list[str]:
    return re.findall(r'<tr data-testid="audit-row">(.*?)</tr>', page, re.DOTALL)


def _get(client, **params) -> tuple[int, str]:
    response = client.get("/members/audit/", params)
    return response.status_code, html.unescape(response.content.decode())


def _watchlist(member, name: str) -> str:
    response = member.client().post("/watchlists/", {"watchlist_name": name})
    assert response.status_code == 302
    return response["Location"].strip("/").split("/")[-1]


def test_it_shows_what_one_member_did_with_the_kind_and_days_kept(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    otto = add_member(admin, "otto", Member.Role.OFFICER)
    _watchlist(admin, "Adas liste")
    _watchlist(otto, "Ottos liste")

    status, page = _get(admin.client(), who=otto.member.app_membership_uuid, kind="watchlists", created_from="01.01.2020")

    assert status == 200
    rows = _rows(page)
    assert len(rows) == 1 and "Ottos liste" in rows[0]
    who = otto.member.app_membership_uuid
    assert f'<option value="{who}" selected>otto@example.com</option>' in page
    assert f"/members/audit/export.csv?kind=watchlists&who={who}&created_from=01.01.2020" in page
    assert f"?kind=members&who={who}&created_from=01.01.2020" in page  # the kinds keep who and the days

    response = admin.client().get("/members/audit/export.csv", {"who": who, "kind": "watchlists"})
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    assert "Ottos liste" in text and "Adas liste" not in text
    assert "-watchlists-by-otto-example-com-" in response["Content-Disposition"]


def test_all_about_one_subject_from_a_rows_link(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    kunder = _watchlist(admin, "Kunder")
    admin.client().post(f"/watchlists/{kunder}/rename/", {"watchlist_name": "Kunder 2026"})
    _watchlist(admin, "Andre")

    _, everything = _get(admin.client())
    assert f'href="?object_uuid={kunder}" data-testid="audit-about">All about this</a>' in everything

    status, page = _get(admin.client(), object_uuid=kunder)

    assert status == 200
    assert all("Kunder" in row for row in _rows(page)) and "Andre" not in page
    assert "Everything recorded about" in page
    response = admin.client().get("/members/audit/export.csv", {"object_uuid": kunder})
    assert f"-about-{kunder}-" in response["Content-Disposition"]


def test_another_organisations_member_or_subject_is_refused_or_empty(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    stranger = make_member("Fjordkreditt AS", "olav", role=Member.Role.ADMIN)
    theirs = _watchlist(stranger, "Fjordkunder")

    status, by_them = _get(admin.client(), who=stranger.member.app_membership_uuid)
    assert status == 400 and "No member or API user of your organisation has this id." in by_them
    assert "Fjordkunder" not in by_them

    status, about_theirs = _get(admin.client(), object_uuid=theirs)
    assert status == 200 and _rows(about_theirs) == [] and "Fjordkunder" not in about_theirs
    assert "Nothing in your organisation's audit log is about this id" in about_theirs

    status, garbled = _get(admin.client(), object_uuid="not-an-id")
    assert status == 400 and "Not an id" in garbled


def _links_an_admin_to_its_history(org, page: str, subject: str, testid: str, *recorded: str) -> None:
    """`page` links an admin (never an officer) to the audit log's records about `subject`, which hold `recorded`."""
    admin = org.admin.client()
    link = f'href="/members/audit/?object_uuid={subject}" data-testid="{testid}">History in the audit log</a>'
    assert link in admin.get(page).content.decode()
    status, history = _get(admin, object_uuid=subject)
    assert status == 200 and "Everything recorded about" in history
    assert all(text in history for text in recorded), recorded
    assert testid not in org.member("otto", Member.Role.OFFICER).get(page).content.decode()


def test_a_customer_persons_page_links_an_admin_to_its_history(db):
    from tests.screening.setup_helpers import org_make
    from tests.service.screening.helpers import config_make, customer_person_make

    org = org_make("Nordbank ASA", "ingrid")
    kari = customer_person_make(org.api, config_make(org.api)["uuid"], full_name="Kari Nordmann")["uuid"]

    _links_an_admin_to_its_history(org, f"/screening/customer-persons/{kari}/", kari, "person-history",
                                   "Added a customer person")


def test_a_monitorings_page_links_an_admin_to_its_history(db):
    from tests.screening.setup_helpers import org_make
    from tests.service.screening.helpers import config_make, customer_person_make, decide, monitoring_make

    org = org_make("Nordbank ASA", "ingrid")
    config = config_make(org.api)["uuid"]
    kari = customer_person_make(org.api, config, full_name="Kari Nordmann")["uuid"]
    monitoring = monitoring_make(org.api, config, customer_person=kari)["entity_monitoring"]["uuid"]
    assert decide(org.api, config, monitoring, approved=True, decision_comment="Known customer").status_code == 201

    _links_an_admin_to_its_history(org, f"/screening/monitorings/{monitoring}/", monitoring, "monitoring-history",
                                   "Decided on a monitoring", "Known customer")
