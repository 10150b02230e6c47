"""The evidence of screening on the dashboard: a monitoring's page and a customer person's page
say, per list, which version the person was last screened against and when."""

from __future__ import annotations

import re
from datetime import datetime

from portal.formatting import day, moment
from service.screening.models import EntityMonitoring, MonitoringEvidence, ScreeningListVersion
from tests.screening.setup_helpers import admin, org  # noqa: F401 (fixtures)
from tests.service.companies.factories import company_make
from tests.service.screening.cases.conftest import lists  # noqa: F401 (fixture)
from tests.service.screening.cases.steps import config_with, customer_person_screened
from tests.service.screening.helpers import AML, category_uuid, config_make, config_url, customer_person_make, monitoring_make


def _rows(page: str) -> list[list[str]]:
    """The evidence table's rows as their cells' text."""
    table = re.search(r'data-testid="screened-against">(.*?)</table>', page, re.S)
    assert table, "no evidence table on the page"
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)[1:]  # after the header
    return [[" ".join(re.sub(r"<[^>]+>", "", cell).split()) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in rows]


def _expected(monitoring_uuid) -> list[list[str]]:
    evidence = MonitoringEvidence.objects.get(monitoring_id=monitoring_uuid).screened_against
    rows = []
    for key in sorted(evidence):
        version = ScreeningListVersion.objects.select_related("category").get(category__key=key, number=evidence[key]["version_number"])
        screened = datetime.fromisoformat(evidence[key]["screened_timestamp"])
        rows.append([version.category.name, f"{version.number} (imported {day(version.imported_at)})", moment(screened)])
    return rows


def test_it_shows_each_list_a_screened_person_was_last_screened_against(org, admin, lists):
    config = config_with(org.api, "un_security_council")
    monitoring = customer_person_screened(org.api, config["uuid"], "Kari Nordmann")["entity_monitoring"]

    for path in (f"/screening/monitorings/{monitoring['uuid']}/",
                 f"/screening/customer-persons/{monitoring['monitoring_customer_person_uuid']}/"):
        page = admin.get(path).content.decode()

        rows = _rows(page)
        assert [row[0] for row in rows] == ["Politically exposed persons", "UN Security Council Consolidated List"]
        assert rows == _expected(monitoring["uuid"])
        assert "Screened again when a list gets a new version, and against every list each week." in page


def test_a_person_waiting_for_approval_was_never_screened(org, admin, lists):
    config = config_make(org.api)
    person = customer_person_make(org.api, config["uuid"], full_name="Jon Egil Dahl")
    monitoring = monitoring_make(org.api, config["uuid"], customer_person=person["uuid"])["entity_monitoring"]

    for path in (f"/screening/monitorings/{monitoring['uuid']}/", f"/screening/customer-persons/{person['uuid']}/"):
        page = admin.get(path).content.decode()

        assert 'data-testid="screened-against"' not in page
        assert "Never screened: the monitoring waits for approval." in page


def test_a_removed_monitoring_keeps_its_last_evidence_and_says_screening_stopped(org, admin, lists):
    config = config_with(org.api, "un_security_council")
    monitoring = customer_person_screened(org.api, config["uuid"], "Kari Nordmann")["entity_monitoring"]
    evidence = _expected(monitoring["uuid"])
    removed = admin.post("/screening/approvals/remove/", {"monitoring": monitoring["uuid"], "name": "Kari Nordmann",
                                                          "reason": "Left the bank"})
    assert removed.status_code == 302
    person_page = f"/screening/customer-persons/{monitoring['monitoring_customer_person_uuid']}/"

    page = admin.get(person_page).content.decode()

    removed_on = day(EntityMonitoring.objects.get(uuid=monitoring["uuid"]).removed_timestamp)
    assert _rows(page) == evidence
    assert f"Not screened since the monitoring was removed on {removed_on}." in page

    # Monitored again, waiting for approval: the page still shows when the person was last screened.
    admin.post(f"{person_page}monitor/", {"comment": "Came back"})
    page = admin.get(person_page).content.decode()
    assert _rows(page) == evidence
    assert f"Not screened since the monitoring was removed on {removed_on}." in page


def test_a_company_screened_under_a_config_without_a_sanction_list_says_why_it_is_not_screened(org, admin, lists):
    config = config_with(org.api)  # PEP only: a company's name is searched among no list
    company = company_make(name="Fjordkraft Handel AS")
    monitoring = monitoring_make(org.api, config["uuid"], company=company.uuid, type_key="company",
                                 decision={"approved_flag": True})["entity_monitoring"]

    page = admin.get(f"/screening/monitorings/{monitoring['uuid']}/").content.decode()
    assert 'data-testid="screened-against"' not in page
    assert "Not screened: a company's own name is screened against the sanction lists, and this screening config has none selected." in page
    active = admin.get("/screening/approvals/?view=active").content.decode()
    assert re.search(r'data-testid="last-screened"><span class="text-secondary">no sanction list selected</span>', active)

    selected = org.api.post(config_url(config["uuid"], "/screening-config-screening-list-category"),
                            {"screening_list_category_uuid": category_uuid("un_security_council")}, roles=AML)
    assert selected.status_code == 201, selected.json()  # screens the config's monitorings against UN at once

    page = admin.get(f"/screening/monitorings/{monitoring['uuid']}/").content.decode()
    assert [row[0] for row in _rows(page)] == ["UN Security Council Consolidated List"]
    assert "no sanction list selected" not in admin.get("/screening/approvals/?view=active").content.decode()
