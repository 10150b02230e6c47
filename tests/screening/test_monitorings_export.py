"""/screening/approvals/monitorings.csv: every monitoring of the organisation, removed and declined
ones too, with its decision and the evidence of screening, as a CSV file for an auditor; and the
"Last screened" column of the Screened now tab."""

from __future__ import annotations

import csv
import io
from datetime import datetime

from portal.csv_export import moment_cell
from portal.formatting import moment
from service.screening.models import MonitoringEvidence
from tests.screening.helpers import service_down
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.cases.conftest import lists  # noqa: F401 (fixture)
from tests.service.screening.cases.steps import config_with, customer_person_screened
from tests.service.screening.helpers import customer_person_make, decide, monitoring_make

EXPORT = "/screening/approvals/monitorings.csv"


def _csv(response) -> dict[str, dict]:
    assert response.status_code == 200, response
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    return {row["Name"]: row for row in csv.DictReader(io.StringIO(text[1:]))}


def _pending(org, config_uuid, name: str) -> str:
    person = customer_person_make(org.api, config_uuid, full_name=name, gender_uuid=None)
    return monitoring_make(org.api, config_uuid, customer_person=person["uuid"], monitoring_comment="Private banking customer")["entity_monitoring"]["uuid"]


def test_it_writes_every_monitoring_with_its_decision_and_what_it_was_screened_against(org, admin, lists):
    config = config_with(org.api, "un_security_council")
    approved_here = _pending(org, config["uuid"], "Kari Nordmann")
    assert admin.post("/screening/approvals/decide/", {"action": f"approve:{approved_here}"}).status_code == 302
    _pending(org, config["uuid"], "Jon Egil Dahl")
    by_system = _pending(org, config["uuid"], "Per Hansen")
    assert decide(org.api, config["uuid"], by_system, decision_origin_key="system").status_code == 201
    declined = _pending(org, config["uuid"], "Eirik Lund")
    why = "The board confirmed he sold his shares in 2025."
    assert decide(org.api, config["uuid"], declined, approved=False, decision_comment=why).status_code == 201
    removed = customer_person_screened(org.api, config["uuid"], "Ola Nordmann")["entity_monitoring"]["uuid"]
    admin.post("/screening/approvals/remove/", {"monitoring": removed, "name": "Ola Nordmann", "reason": "Left the bank"})

    response = admin.get(EXPORT)

    assert response["Content-Disposition"].startswith('attachment; filename="screening-monitorings-nordbank-asa-')
    rows = _csv(response)
    assert set(rows) == {"Kari Nordmann", "Jon Egil Dahl", "Ola Nordmann", "Eirik Lund", "Per Hansen"}
    # an integration's or the set-up's decision names no one, and says it was not a member's
    assert rows["Per Hansen"]["Decided by"] == "A system, no member named"
    assert (rows["Eirik Lund"]["Decision"], rows["Eirik Lund"]["Decision comment"]) == ("Declined", why)
    kari = rows["Kari Nordmann"]
    assert (kari["Kind"], kari["Monitored as"], kari["Why"], kari["Status"]) == (
        "Customer person", "Customer person", "Private banking customer", "Screened")
    assert (kari["Decision"], kari["Decided by"]) == ("Approved", "ingrid@example.com")
    evidence = MonitoringEvidence.objects.get(monitoring_id=approved_here).screened_against
    assert kari["Screened against"] == "; ".join(
        f"{evidence[key]['category_name']} version 1 at {moment_cell(datetime.fromisoformat(evidence[key]['screened_timestamp']))}"
        for key in ("pep", "un_security_council"))
    assert kari["Last screened (Europe/Oslo)"] == max(moment_cell(datetime.fromisoformat(e["screened_timestamp"])) for e in evidence.values())
    jon = rows["Jon Egil Dahl"]
    assert (jon["Status"], jon["Decision"], jon["Screened against"], jon["Last screened (Europe/Oslo)"]) == ("Pending", "", "", "")
    ola = rows["Ola Nordmann"]
    assert (ola["Status"], ola["Decided by"], ola["Removal reason"]) == ("Removed", "A member", "Left the bank")
    assert ola["Removed (Europe/Oslo)"] and ola["Screened against"]  # its last evidence is kept


def test_it_holds_only_the_organisations_own_monitorings(org, other_org, admin, lists):
    other_config = config_with(other_org.api)
    _pending(other_org, other_config["uuid"], "Someone Else")
    config = config_with(org.api)
    _pending(org, config["uuid"], "Kari Nordmann")

    assert set(_csv(admin.get(EXPORT))) == {"Kari Nordmann"}


def test_the_screened_now_tab_shows_when_each_was_last_screened_and_links_the_file(org, admin, lists):
    config = config_with(org.api)
    monitoring = customer_person_screened(org.api, config["uuid"], "Kari Nordmann")["entity_monitoring"]
    [evidence] = MonitoringEvidence.objects.get(monitoring_id=monitoring["uuid"]).screened_against.values()

    page = admin.get("/screening/approvals/?view=active").content.decode()

    assert f'data-testid="last-screened">{moment(datetime.fromisoformat(evidence["screened_timestamp"]))}</td>' in page
    assert f'href="{EXPORT}" data-testid="monitorings-export"' in page


def test_a_service_that_cannot_be_reached_is_a_message_not_an_empty_file(org, admin, lists, monkeypatch):
    config_with(org.api)
    service_down(monkeypatch, "monitorings")

    response = admin.get(EXPORT, follow=True)

    assert response.redirect_chain == [("/screening/approvals/?view=active", 302)]
    assert "The monitorings could not be downloaded." in response.content.decode()
