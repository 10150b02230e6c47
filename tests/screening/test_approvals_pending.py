"""/screening/approvals/: pending monitorings by company; approve or decline, one by one or in bulk."""

from __future__ import annotations

import uuid

from portal.models import Member
from service.screening.models import EntityMonitoringDecision
from tests.screening.setup_helpers import admin, org, other_org, screening_with_nordlys, statuses, sync  # noqa: F401
from tests.service.companies.factories import company_make, person_make, role_make
from tests.service.screening.helpers import monitorings
from tests.service.screening.watchlists.helpers import owns, watchlist_add

APPROVALS = "/screening/approvals/"


def _pending_uuid(org, config, name: str) -> str:
    rows = monitorings(org.api, config["uuid"], approval_status_key="pending")
    return next(r["entity_monitoring"]["uuid"] for r in rows if r["entity_monitoring"]["monitoring_entity_name"] == name)


def test_it_groups_the_pending_by_company_with_role_share_chain_and_reason(org, admin):
    screening_with_nordlys(org)
    body = admin.get(APPROVALS).content.decode()
    assert "2 waiting for a decision, for 1 company" in body
    assert "Nordlys AS" in body
    assert "Kari Nordmann" in body and "Beneficial owner" in body
    assert "31,0\xa0%" in body  # her effective share, 50% × 62%
    assert "Kari Nordmann <span class=\"text-secondary\">→ 62,0\xa0% of</span> Fjell Holding AS" in body
    # the service's reason (an English API value), its percentages as in the Share column beside it
    assert "Owns 31,0\xa0% of Nordlys AS through Fjell Holding AS (62,0\xa0% × 50,0\xa0%)" in body
    assert "31.0%" not in body
    assert "The company itself" in body and "screened by its own name" in body


def test_it_approves_one_with_a_comment_as_the_member(org, admin):
    config, _ = screening_with_nordlys(org)
    kari = _pending_uuid(org, config, "Kari Nordmann")

    response = admin.post("/screening/approvals/decide/", {"action": f"approve:{kari}", "comment": "Known customer"}, follow=True)

    assert "Approved: Kari Nordmann (Nordlys AS) is screened from now on." in response.content.decode()
    assert statuses(org, config) == {"Kari Nordmann": "active", "Nordlys AS": "pending"}
    decision = EntityMonitoringDecision.objects.get(entity_monitoring_id=kari)
    assert (decision.decision_comment, decision.app_membership_id) == ("Known customer", org.admin.member.app_membership_uuid)


def test_it_approves_the_ticked_ones_and_all_of_a_company(org, admin):
    config, nordlys = screening_with_nordlys(org)
    havbris = company_make(name="Havbris AS")
    owns(person_make(full_name="Nils Havn"), havbris, 60)
    watchlist_id = org.api.get(f"/analysis/v1/app-customer/{org.api.app_customer_uuid}/watchlist").json()[0]["uuid"]
    watchlist_add(org.api, watchlist_id, havbris)
    sync(config, havbris)

    ticked = [_pending_uuid(org, config, "Kari Nordmann"), _pending_uuid(org, config, "Nils Havn")]
    response = admin.post("/screening/approvals/decide/", {"action": "approve", "monitoring": ticked}, follow=True)
    assert "Approved 2 monitorings for 2 companies" in response.content.decode()

    admin.post("/screening/approvals/decide/", {"company_all": f"approve:{havbris.uuid}"})
    assert statuses(org, config) == {"Kari Nordmann": "active", "Nils Havn": "active", "Nordlys AS": "pending", "Havbris AS": "active"}


def test_it_approves_everything_on_the_page(org, admin):
    config, _ = screening_with_nordlys(org)
    page = admin.get(APPROVALS)
    page_uuids = [str(u) for u in page.context["page_uuids"]]
    assert len(page_uuids) == 2
    admin.post("/screening/approvals/decide/", {"page_all": "approve", "page_monitoring": page_uuids})
    assert set(statuses(org, config).values()) == {"active"}


def test_a_decline_needs_a_comment(org, admin):
    config, nordlys = screening_with_nordlys(org)
    without = admin.post("/screening/approvals/decide/", {"company_all": f"decline:{nordlys.uuid}"}, follow=True)
    assert "Nothing was declined: say why" in without.content.decode()
    assert set(statuses(org, config).values()) == {"pending"}

    admin.post("/screening/approvals/decide/", {"company_all": f"decline:{nordlys.uuid}", "comment": "Not our customer any more"})
    assert set(statuses(org, config).values()) == {"declined"}


def test_with_htmx_it_answers_the_pending_list_only(org, admin):
    config, _ = screening_with_nordlys(org)
    kari = _pending_uuid(org, config, "Kari Nordmann")
    response = admin.post(
        "/screening/approvals/decide/", {"action": f"approve:{kari}", "next": "/screening/approvals/?view=pending"}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="pending"')
    assert "Approved: Kari Nordmann" in body  # the message travels with the swapped part
    assert "Kari Nordmann" not in body.split("Approved:")[1].split("</div>", 1)[1]  # no longer pending
    assert "<html" not in body


def test_officers_and_viewers_cannot_decide(org):
    config, nordlys = screening_with_nordlys(org)
    officer = org.member("oline", Member.Role.OFFICER)
    page = officer.get(APPROVALS).content.decode()
    assert "Kari Nordmann" in page and "only admins approve" in page and "Approve selected" not in page
    assert officer.post("/screening/approvals/decide/", {"company_all": f"approve:{nordlys.uuid}"}).status_code == 403
    viewer = org.member("vera", Member.Role.VIEWER)
    page = viewer.get(APPROVALS).content.decode()
    assert "Kari Nordmann" in page and "Approve selected" not in page  # viewers read, nothing more
    assert viewer.post("/screening/approvals/decide/", {"company_all": f"approve:{nordlys.uuid}"}).status_code == 403
    assert set(statuses(org, config).values()) == {"pending"}


def test_another_organisations_monitoring_is_404_and_is_not_decided(org, other_org, admin):
    theirs, _ = screening_with_nordlys(other_org)
    their_kari = _pending_uuid(other_org, theirs, "Kari Nordmann")
    assert admin.get(f"/screening/monitorings/{their_kari}/").status_code == 404
    assert admin.get(f"/screening/monitorings/{uuid.uuid4()}/").status_code == 404

    screening_with_nordlys(org)
    response = admin.post("/screening/approvals/decide/", {"action": f"approve:{their_kari}"}, follow=True)
    assert "1 not decided: Not found" in response.content.decode()
    assert statuses(other_org, theirs)["Kari Nordmann"] == "pending"


def test_the_monitoring_page_shows_why_and_decides(org, admin):
    config, _ = screening_with_nordlys(org)
    kari = _pending_uuid(org, config, "Kari Nordmann")
    page = admin.get(f"/screening/monitorings/{kari}/").content.decode()
    assert "Owns 31,0\xa0% of Nordlys AS" in page and "No decision yet" in page
    assert 'data-testid="origin">(suggested by the screening setup)</span>' in page  # not the raw key "(suggestion)"
    response = admin.post(
        "/screening/approvals/decide/", {"action": f"approve:{kari}", "next": f"/screening/monitorings/{kari}/"}, follow=True
    )
    assert response.redirect_chain[-1][0] == f"/screening/monitorings/{kari}/"
    assert "Approved" in response.content.decode() and "Screened" in response.content.decode()
    assert response.context["decisions"][0]["by"] == "ingrid@example.com"  # the member behind the decision


def test_it_pages_by_company_and_approves_only_the_page(org, admin):
    from tests.service.screening.helpers import config_make
    from tests.service.screening.watchlists.helpers import attach, watchlist_make

    config = config_make(org.api)
    companies = [company_make(name=f"Firma {n:02d} AS") for n in range(16)]
    attach(org.api, config["uuid"], watchlist_make(org.api, "Mange", companies=companies))
    sync(config, *companies)

    first = admin.get(APPROVALS)
    assert [g["company"].name for g in first.context["pending_companies"]][0] == "Firma 00 AS"
    assert len(first.context["pending_companies"]) == 15
    assert "Page 1 of 2" in first.content.decode()
    second = admin.get(APPROVALS, {"page": 2})
    assert [g["company"].name for g in second.context["pending_companies"]] == ["Firma 15 AS"]

    page_uuids = [str(u) for u in first.context["page_uuids"]]
    admin.post("/screening/approvals/decide/", {"page_all": "approve", "page_monitoring": page_uuids})
    assert statuses(org, config)["Firma 15 AS"] == "pending"
    assert sum(1 for status in statuses(org, config).values() if status == "active") == 15


def test_a_declined_monitoring_can_be_approved_after_all_on_its_page(org, admin):
    config, _ = screening_with_nordlys(org)
    kari = _pending_uuid(org, config, "Kari Nordmann")
    admin.post("/screening/approvals/decide/", {"action": f"decline:{kari}", "comment": "Not a customer"})
    page = admin.get(f"/screening/monitorings/{kari}/").content.decode()
    assert "Declined, so not screened" in page and "Not a customer" in page
    admin.post("/screening/approvals/decide/", {"action": f"approve:{kari}", "comment": "Customer again"})
    assert statuses(org, config)["Kari Nordmann"] == "active"


def test_neither_approve_nor_decline_decides_nothing(org, admin):
    config, _ = screening_with_nordlys(org)
    kari = _pending_uuid(org, config, "Kari Nordmann")

    for data in ({"action": f"frobnicate:{kari}"}, {"monitoring": [kari]}, {"page_all": "yes", "page_monitoring": [kari]}):
        response = admin.post("/screening/approvals/decide/", {**data, "comment": "a comment"}, follow=True)
        assert "Nothing was decided: choose approve or decline." in response.content.decode(), data

    assert set(statuses(org, config).values()) == {"pending"}  # an unknown choice is not a decline


def test_a_company_filter_that_is_no_uuid_shows_every_company_not_a_503(org, admin):
    _, nordlys = screening_with_nordlys(org)

    response = admin.get(APPROVALS, {"company": "not-a-uuid"})

    assert response.status_code == 200
    assert "Nordlys AS" in response.content.decode() and response.context["company_filter"] is None
    assert admin.get(APPROVALS, {"company": str(nordlys.uuid)}).context["pending_company_count"] == 1
    assert admin.get(APPROVALS, {"company": str(uuid.uuid4())}).context["pending_company_count"] == 0


def test_the_summary_counts_customer_persons_apart_from_companies(org, admin):
    from tests.service.screening.helpers import customer_person_make, monitoring_make

    config, _ = screening_with_nordlys(org)
    person = customer_person_make(org.api, config["uuid"], full_name="Jon Egil Dahl")
    monitoring_make(org.api, config["uuid"], customer_person=person["uuid"])  # no company: waits on its own

    body = admin.get(APPROVALS).content.decode()
    assert "3 waiting for a decision, for 1 company and 1 customer person" in body


def test_the_summary_of_customer_persons_alone_names_no_company(org, admin):
    from tests.service.screening.helpers import config_make, customer_person_make, monitoring_make

    config = config_make(org.api)
    for name in ("Jon Egil Dahl", "Kari Nordmann"):
        monitoring_make(org.api, config["uuid"], customer_person=customer_person_make(org.api, config["uuid"], full_name=name)["uuid"])

    body = admin.get(APPROVALS).content.decode()
    assert "2 waiting for a decision, for 2 customer persons" in body
    assert "compan" not in body.split('data-testid="approvals-summary"')[1].split("</span>")[0]


def test_past_what_the_page_reads_the_summary_gives_no_breakdown_it_cannot_know(org, admin, monkeypatch):
    """The page reads the first PENDING_FETCH pending monitorings: beyond them, how many are companies'
    and how many customer persons' is unknown, so only the lower bound is said (a file import of 15,000
    once read "1 000+ waiting, for 8 companies and 977 customer persons")."""
    from tests.service.screening.helpers import config_make, customer_person_make, monitoring_make

    config = config_make(org.api)
    for name in ("Jon Egil Dahl", "Kari Nordmann", "Ola Nordmann"):
        monitoring_make(org.api, config["uuid"], customer_person=customer_person_make(org.api, config["uuid"], full_name=name)["uuid"])
    monkeypatch.setattr("screening.views_approvals.PENDING_FETCH", 2)

    body = admin.get(APPROVALS).content.decode()
    summary = body.split('data-testid="approvals-summary"')[1].split("</span>")[0]
    assert "2+ waiting for a decision · auto-approval" in summary
    assert "customer person" not in summary
