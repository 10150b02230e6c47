"""Steps the scale-out and fault tests share: the tiny lists, a config, companies to report on,
orders and screened persons through the HTTP API of the running web processes."""

from __future__ import annotations

from service.screening.models import ScreeningListCategory
from tests.reliability.cluster import HttpCaller, wait_for
from tests.service.companies.factories import company_make
from tests.service.screening.cases.list_versions import un_import, un_xml
from tests.service.screening.helpers import AML, config_url, gender_uuid, monitoring_body

UN = "un_security_council"
LISTED_PERSON = "Ivan Sergeyevich Dragunov"  # KPi.901 of the tiny UN list
NEW_LISTED_PERSON = "Olena Petrenko Kovalenko"  # KPi.902, only in the list's next version


def lists_imported(tmp_path) -> None:
    """The tiny UN list (version 1), imported in the test process."""
    un_import(tmp_path, "un-v1.xml", un_xml())


def list_served(folder, *, text: str | None = None) -> str:
    """Write the UN list's next version (one more listed person) where the file server serves
    it and point the category's refresh URL there; returns the file name."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "un.xml").write_text(text or un_xml(new_individual=True), encoding="utf-8")
    return "un.xml"


def category_refresh_url_set(category_key: str, url: str) -> None:
    ScreeningListCategory.objects.filter(key=category_key).update(refresh_url=url)


def companies(count: int) -> list:
    return [company_make(name=f"Skalering {i} AS") for i in range(count)]


def order(web: HttpCaller, company) -> str:
    path = f"/analysis/v1/app-customer/{web.app_customer_uuid}/partner-report-order-composite"
    line = {"partner_report": {"company_uuid": str(company.uuid), "partner_report_type_key": "company_profile"}}
    response = web.post(path, {"partner_report_composites": [line]})
    assert response.status_code == 201, response.text
    return response.json()["partner_report_order_uuid"]


def person_screened(web: HttpCaller, config_uuid: str, full_name: str) -> str:
    """A customer person and its approved monitoring: the web process enqueues its screening."""
    body = {"full_name": full_name, "birth_date": None, "gender_uuid": gender_uuid()}
    person = web.post(config_url(config_uuid, "/customer-person"), body, roles=AML)
    assert person.status_code == 201, person.text
    body = monitoring_body(customer_person=person.json()["uuid"], decision={"approved_flag": True})
    monitoring = web.post(config_url(config_uuid, "/entity-monitoring-composite"), body, roles=AML)
    assert monitoring.status_code == 201, monitoring.text
    return monitoring.json()["entity_monitoring"]["uuid"]


def orders_finished(order_uuids) -> dict[str, str]:
    from service.reports.models import PartnerReportOrder

    return dict(PartnerReportOrder.objects.filter(uuid__in=order_uuids).values_list("uuid", "status"))


def orders_wait(order_uuids, *, timeout: float) -> None:
    def all_done():
        statuses = orders_finished(order_uuids)
        return len(statuses) == len(order_uuids) and set(statuses.values()) <= {"complete", "failed"}

    wait_for(all_done, timeout=timeout, what=f"{len(order_uuids)} report orders finished")


def persons_monitored(config_uuid: str, names: list[str]) -> None:
    """Register persons under approved monitorings of the config, written straight to the tables
    (as bench/rescreen_setup.py does): screened by the next run, not now."""
    import uuid

    from django.db import transaction

    from service.companies.models import Person
    from service.screening.models import (
        EntityMonitoring, EntityMonitoringDecision, EntityMonitoringType, ScreeningConfig,
    )

    config = ScreeningConfig.objects.get(pk=config_uuid)
    other = EntityMonitoringType.objects.get(key="other")
    with transaction.atomic():
        persons = Person.objects.bulk_create([Person(full_name=name) for name in names])
        monitorings, decisions = [], []
        for person in persons:
            decision_uuid = uuid.uuid4()
            monitorings.append(EntityMonitoring(
                screening_config=config, entity_key="person", entity_uuid=person.uuid, person=person,
                entity_monitoring_type=other, monitoring_origin_key="api", latest_decision_id=decision_uuid,
            ))
            decisions.append(EntityMonitoringDecision(
                uuid=decision_uuid, entity_monitoring=monitorings[-1], approved_flag=True, decision_origin_key="user",
            ))
        EntityMonitoring.objects.bulk_create(monitorings)
        EntityMonitoringDecision.objects.bulk_create(decisions)
