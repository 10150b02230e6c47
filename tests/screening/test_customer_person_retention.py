"""How long the dashboard says a customer person is kept: five years after its last monitoring
was removed (or after it was added, if never monitored), on its page and in the list."""

from __future__ import annotations

from datetime import timedelta

from dateutil.relativedelta import relativedelta

from django.utils import timezone

from service.screening.models import CustomerPerson, EntityMonitoring
from service.screening.tasks import screening_records_retention
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.cases.conftest import PEP_PERSON, lists  # noqa: F401 (fixture)
from tests.service.screening.cases.steps import customer_person_screened
from tests.service.screening.helpers import config_make, customer_person_make

RETENTION = relativedelta(years=5)


def _page(person_uuid) -> str:
    return f"/screening/customer-persons/{person_uuid}/"


def _day(moment) -> str:
    return timezone.localtime(moment).strftime("%d.%m.%Y")


def test_a_former_customer_says_until_when_it_is_kept(org, admin, lists):
    config = config_make(org.api)
    monitoring = customer_person_screened(org.api, config["uuid"], PEP_PERSON, "1961-09-30")["entity_monitoring"]
    person = monitoring["monitoring_customer_person_uuid"]
    removed = admin.post("/screening/approvals/remove/", {"monitoring": monitoring["uuid"], "name": PEP_PERSON,
                                                          "reason": "Left the bank"})
    assert removed.status_code == 302
    until = _day(EntityMonitoring.objects.get(uuid=monitoring["uuid"]).removed_timestamp + RETENTION)

    page = admin.get(_page(person)).content.decode()
    assert (f'data-testid="person-retention">Kept until {until}, 5 years after its last monitoring was removed. '
            f"Then {PEP_PERSON}, the monitorings and the screening cases are deleted, as the AML acts ask, "
            "unless monitored again before.</p>") in page
    listed = admin.get("/screening/approvals/", {"view": "persons"}).content.decode()
    assert f'data-testid="person-kept-until">kept until {until}</div>' in listed


def test_a_monitored_customer_says_nothing_of_deletion(org, admin, lists):
    config = config_make(org.api)
    monitoring = customer_person_screened(org.api, config["uuid"], PEP_PERSON, "1961-09-30")["entity_monitoring"]

    page = admin.get(_page(monitoring["monitoring_customer_person_uuid"])).content.decode()
    assert 'data-testid="person-retention"' not in page
    assert 'data-testid="person-kept-until"' not in admin.get("/screening/approvals/", {"view": "persons"}).content.decode()


def test_a_person_never_monitored_counts_from_the_day_it_was_added(org, admin):
    config = config_make(org.api)
    person = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    until = _day(CustomerPerson.objects.get(uuid=person).create_timestamp + RETENTION)

    page = admin.get(_page(person)).content.decode()
    assert (f'data-testid="person-retention">Kept until {until}, 5 years after it was added. '
            "Then Kari Nordmann is deleted, as the AML acts ask, unless put under monitoring before.</p>") in page


def test_the_deletion_shows_in_the_audit_log_as_vakts_without_the_name(org, admin, lists):
    config = config_make(org.api)
    person = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    CustomerPerson.objects.filter(uuid=person).update(create_timestamp=timezone.now() - RETENTION - timedelta(days=1))

    assert screening_records_retention.apply().get() == 1

    assert admin.get(_page(person)).status_code == 404
    audit = admin.get("/members/audit/", {"kind": "monitoring"}).content.decode()
    row = audit.split('data-testid="audit-row"')[1].split("</tr>")[0]
    assert "Vakt: the retention period ended" in row
    assert "Deleted the screening records of a former customer" in row and "Screening records" in row
    assert "Kari Nordmann" not in audit.split('data-testid="audit"')[1]
    persons = admin.get("/members/audit/", {"kind": "persons"}).content.decode()
    created = persons.split('data-testid="audit-row"')[1].split("</tr>")[0]
    assert "Added a customer person" in created and "Kari Nordmann" not in persons  # its record redacted
    today = timezone.localdate().strftime("%d.%m.%Y")
    assert f'data-testid="audit-redacted">Values deleted {today}, with the data they were about</span>' in created
    export = b"".join(admin.get("/members/audit/export.csv", {"kind": "persons"}).streaming_content).decode()
    assert "Kari Nordmann" not in export
    assert ", with the data they were about (Name, Birth date)" in export
