"""Companies' evidence of screening recorded before it named the sanction lists alone loses its PEP
entries: a company's own name was never searched in a PEP list."""

from __future__ import annotations

import uuid

import pytest

from tests.migrating import latest_after, migrate_to  # noqa: F401 (fixture)

BEFORE = [("service_screening", "0013_monitoring_evidence")]
AFTER = [("service_screening", "0014_company_evidence_without_pep")]


def _entry(number: int) -> dict:
    return {"category_name": "a list", "version_uuid": str(uuid.uuid4()), "version_number": number,
            "imported_timestamp": "2026-11-01T00:00:00+00:00", "screened_timestamp": "2026-11-02T00:00:00+00:00"}


@pytest.mark.django_db(transaction=True)
def test_it_takes_the_pep_lists_out_of_companies_evidence_and_leaves_persons_alone(latest_after):
    old = migrate_to(BEFORE)
    model = old.get_model
    for key, list_type in (("pep", "pep"), ("un_security_council", "sanction")):
        model("service_screening", "ScreeningListCategory").objects.get_or_create(
            key=key, defaults={"name": key, "list_type": list_type, "source_format": "un_xml"})
    customer = model("service_auth", "AppCustomer").objects.create(name="Nordbank")
    setting = model("service_screening", "ScreeningConfigSystemSuggestionSetting").objects.get_or_create(
        key="test", defaults={"description": "a setting"})[0]
    config = model("service_screening", "ScreeningConfig").objects.create(app_customer=customer, suggestion_setting=setting)
    kind = model("service_screening", "EntityMonitoringType").objects.get_or_create(key="company")[0]
    company = model("service_companies", "Company").objects.create(org_nr="923609016", name="Fjordkraft Handel AS")
    person = model("service_screening", "CustomerPerson").objects.create(screening_config=config, full_name="Kari Nordmann")
    Monitoring = model("service_screening", "EntityMonitoring")
    company_monitoring = Monitoring.objects.create(
        screening_config=config, entity_key="company", entity_uuid=company.uuid, company=company, related_company=company,
        entity_monitoring_type=kind, monitoring_origin_key="api")
    person_monitoring = Monitoring.objects.create(
        screening_config=config, entity_key="customer_person", entity_uuid=person.uuid, customer_person=person,
        entity_monitoring_type=kind, monitoring_origin_key="api")
    both = {"pep": _entry(3), "un_security_council": _entry(7)}
    Evidence = model("service_screening", "MonitoringEvidence")
    for monitoring in (company_monitoring, person_monitoring):
        Evidence.objects.create(monitoring=monitoring, screened_against=both)

    new = migrate_to(AFTER)

    evidence = dict(new.get_model("service_screening", "MonitoringEvidence").objects.values_list("monitoring_id", "screened_against"))
    assert evidence == {company_monitoring.uuid: {"un_security_council": both["un_security_council"]}, person_monitoring.uuid: both}
