"""Writes made in the dashboard act as the member: the service's audit log names them as the actor
(issue #23 item 9), for setup changes, decisions, customer persons, reviews and assignments."""

from __future__ import annotations

from service.audit.models import AuditEvent
from tests.screening.helpers import case_url, cases_make, member_make
from tests.screening.setup_helpers import admin, org, screening_with_nordlys  # noqa: F401 (fixtures)
from tests.service.companies.factories import geo_make
from tests.service.screening.helpers import category_uuid, config_make, gender_uuid, monitorings
from tests.service.screening.watchlists.helpers import watchlist_make


def _actors(action_key: str) -> list:
    return list(AuditEvent.objects.filter(action_key=action_key).values_list("actor_app_membership_id", flat=True))


def test_setup_changes_name_the_admin(org, admin):
    me = org.admin.member.app_membership_uuid
    config = config_make(org.api)
    watchlist = watchlist_make(org.api, "Kunder")
    base = f"/screening/configs/{config['uuid']}"

    admin.post(f"{base}/update/", {"auto_approve": "on"})
    admin.post(f"{base}/lists/", {"category": category_uuid("us_ofac_sdn"), "category_name": "OFAC"})
    admin.post(f"{base}/watchlists/attach/", {"watchlist": watchlist, "watchlist_name": "Kunder"})

    assert _actors("screening_config.update") == [me]
    assert _actors("screening_config.category_select") == [me]
    assert _actors("screening_config.watchlist_attach") == [me]
    audit_page = admin.get("/members/audit/").content.decode()
    assert audit_page.count("ingrid@example.com") >= 3


def test_a_decision_and_a_removal_name_the_admin(org, admin):
    me = org.admin.member.app_membership_uuid
    config, _ = screening_with_nordlys(org)
    rows = monitorings(org.api, config["uuid"], approval_status_key="pending")
    kari = next(r["entity_monitoring"]["uuid"] for r in rows if r["entity_monitoring"]["monitoring_entity_name"] == "Kari Nordmann")

    admin.post("/screening/approvals/decide/", {"action": f"approve:{kari}", "comment": "Known customer"})
    admin.post("/screening/approvals/remove/", {"monitoring": kari, "reason": "No longer a customer"})

    assert _actors("entity_monitoring.decide") == [me]
    assert _actors("entity_monitoring.remove") == [me]


def test_a_customer_person_names_the_admin(org, admin):
    me = org.admin.member.app_membership_uuid
    config_make(org.api)
    geo_make(country="NO")

    admin.post("/screening/approvals/customer-person/", {
        "full_name": "Kari Nordmann", "birth_date": "1986-10-15", "gender": gender_uuid("female"),
        "national_id_schema": "NO", "national_id_number": "151086 95088", "street_address": "Storgata 1",
        "postal_code": "0155", "postal_place": "Oslo", "country_code": "NO", "approve": "on",
    })

    assert _actors("customer_person.create") == [me]
    assert _actors("customer_person.national_id_add") == [me]
    assert _actors("customer_person.location_add") == [me]
    assert _actors("entity_monitoring.decide") == [me]
    assert "15108695088" not in str(AuditEvent.objects.get(action_key="customer_person.national_id_add").after)


def test_a_review_and_an_assignment_name_the_officer(lists):
    officer = member_make("Nordbank ASA", "ingrid")
    screened = cases_make(officer)
    url = case_url(screened.pep_case.uuid)
    client = officer.client()

    client.post(f"{url}assign/", {"to": "me"})
    client.post(f"{url}review/", {"status": "in_review", "decision": "possible_match"})

    assert _actors("screening_case.assign") == [officer.member.app_membership_uuid]
    assert _actors("screening_case.review") == [officer.member.app_membership_uuid]
