"""The monitorings screened now, and removing one with its reason."""

from __future__ import annotations

from portal.models import Member
from tests.screening.setup_helpers import admin, org, screening_with_nordlys, statuses  # noqa: F401
from tests.service.screening.helpers import monitorings


def test_it_lists_the_screened_and_removes_one_with_the_reason(org, admin):
    config, _ = screening_with_nordlys(org, auto_approve_monitoring_flag=True)
    page = admin.get("/screening/approvals/?view=active")
    rows = page.context["active_rows"]
    assert {row["monitoring"].entity_name for row in rows} == {"Kari Nordmann", "Nordlys AS"}
    assert "automatic" in page.content.decode()
    assert "Owns 31,0\xa0% of Nordlys AS" in page.content.decode()  # why screened, Norwegian as elsewhere
    kari = next(row["monitoring"] for row in rows if row["monitoring"].entity_name == "Kari Nordmann")

    without = admin.post("/screening/approvals/remove/", {"monitoring": kari.uuid, "name": "Kari Nordmann", "reason": " "}, follow=True)
    assert "Kari Nordmann was not removed: say why" in without.content.decode()

    response = admin.post(
        "/screening/approvals/remove/", {"monitoring": kari.uuid, "name": "Kari Nordmann", "reason": "Sold her shares"}, follow=True
    )
    assert "Kari Nordmann is no longer screened. Reason kept: “Sold her shares”." in response.content.decode()
    removed = next(r for r in monitorings(org.api, config["uuid"]) if r["entity_monitoring"]["uuid"] == str(kari.uuid))
    assert removed["entity_monitoring"]["removal_reason"] == "Sold her shares"
    assert statuses(org, config) == {"Nordlys AS": "active"}


def test_an_officer_cannot_remove(org):
    config, _ = screening_with_nordlys(org, auto_approve_monitoring_flag=True)
    officer = org.member("oline", Member.Role.OFFICER)
    [kari] = [r for r in monitorings(org.api, config["uuid"]) if r["entity_monitoring"]["monitoring_entity_name"] == "Kari Nordmann"]
    response = officer.post("/screening/approvals/remove/", {"monitoring": kari["entity_monitoring"]["uuid"], "reason": "x"})
    assert response.status_code == 403
    assert statuses(org, config)["Kari Nordmann"] == "active"


def test_before_screening_is_set_up_a_removal_or_decision_says_so(org, admin):
    some = "00000000-0000-0000-0000-000000000007"

    removed = admin.post("/screening/approvals/remove/", {"monitoring": some, "name": "Kari", "reason": "Sold"}, follow=True)
    decided = admin.post("/screening/approvals/decide/", {"action": f"approve:{some}"}, HTTP_HX_REQUEST="true")

    assert removed.status_code == 200 and "Kari was not removed. Set up screening first" in removed.content.decode()
    assert decided.status_code == 200 and "Set up screening first" in decided.content.decode()
