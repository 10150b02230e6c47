"""A customer person's customer reference (the bank's own number for the customer): given when the person
is added and corrected on their page, refused at its field when another customer person has it, shown on
the person's page, in the Customer persons list, on the case page and in the queue, found by the list's
search, and written in the cases' and monitorings' CSV files."""

from __future__ import annotations

import csv
import io
import re

import pytest

from service.audit.models import AuditEvent
from service.screening.models import CustomerPerson, EntityMonitoring
from tests.screening.helpers import QUEUE, api_of, case_url, cases_make, member_make
from tests.screening.setup_helpers import admin, org  # noqa: F401 (fixtures)
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.helpers import config_make, customer_person_make, customer_person_url, gender_uuid, patch

ADD = "/screening/approvals/customer-person/"
TAB = "/screening/approvals/"
TAKEN = "already the reference of another customer person of the screening config: Kari Nordmann ({})"


def _page(person_uuid) -> str:
    return f"/screening/customer-persons/{person_uuid}/"


def _add_form(**fields) -> dict:
    return {"full_name": "Ola Hansen", "birth_date": "02.03.1970", "gender": gender_uuid("male"), "approve": "on", **fields}


def _correct_form(person: CustomerPerson, **fields) -> dict:
    return {"full_name": person.full_name, "birth_date": person.birth_date.strftime("%d.%m.%Y"),
            "gender": str(person.gender.uuid), "customer_reference": person.customer_reference, **fields}


def _shown_reference(page: str) -> str | None:
    """The reference the person's page shows beside the name."""
    found = re.search(r'data-testid="person-reference">Customer <span[^>]*>([^<]*)</span>', page)
    return found.group(1) if found else None


def _listed(response) -> list[tuple[str, str]]:
    """(name, reference) of each row of the Customer persons list."""
    return re.findall(r'data-testid="customer-person"><td class="stack-title"><a href="[^"]+">([^<]+)</a></td>\s*'
                      r'<td data-label="Reference"[^>]*>([^<]*)</td>', response.content.decode())


def _csv(response) -> list[dict]:
    assert response.status_code == 200, response
    text = b"".join(response.streaming_content).decode("utf-8")
    return list(csv.DictReader(io.StringIO(text[1:])))


@pytest.fixture
def config(org):
    return config_make(org.api)


def test_it_adds_a_person_with_their_reference_and_shows_it_on_their_page_and_in_the_list(org, admin, config):
    response = admin.post(ADD, _add_form(customer_reference="  K-10231 "), follow=True)

    assert "Ola Hansen added as a customer person and is screened from now on." in response.content.decode()
    person = CustomerPerson.objects.get()
    assert person.customer_reference == "K-10231"  # sent without the spaces at either end
    assert _shown_reference(admin.get(_page(person.uuid)).content.decode()) == "K-10231"
    customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")
    assert _listed(admin.get(TAB, {"view": "persons"})) == [("Kari Nordmann", "–"), ("Ola Hansen", "K-10231")]
    create = AuditEvent.objects.get(action_key="customer_person.create", object_uuid=person.uuid)
    assert create.after["customer_reference"] == "K-10231"


def test_a_person_without_a_reference_shows_none(org, admin, config):
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")
    page = admin.get(_page(kari["uuid"])).content.decode()
    assert 'data-testid="person-reference"' not in page
    assert 'name="customer_reference"' in page and 'value=""' in page  # the correction form offers it


def _held_by_link(response, person) -> bool:
    """Whether the refused field links to the customer person who has the value."""
    link = f"""<a class="small" href="{_page(person['uuid'])}" data-testid="held-by-link">Open {person['full_name']}'s page</a>"""
    return link in response.content.decode()


def test_a_reference_another_customer_person_has_is_refused_naming_them_and_nothing_is_saved(org, admin, config):
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", customer_reference="K-10231")

    response = admin.post(ADD, _add_form(customer_reference=" K-10231 "))

    assert response.status_code == 200
    form = response.context["person_form"]
    assert form.errors["customer_reference"] == ["K-10231 is already the customer reference of Kari Nordmann, born 15.10.1986."]
    assert form.errors["__all__"] == ["Nothing was saved."]
    assert 'data-testid="field-error-customer_reference"' in response.content.decode()
    assert _held_by_link(response, kari)
    assert list(CustomerPerson.objects.values_list("full_name", flat=True)) == ["Kari Nordmann"]
    assert not EntityMonitoring.objects.exists()
    assert not AuditEvent.objects.filter(action_key="customer_person.create").exclude(object_uuid=kari["uuid"]).exists()

    fixed = admin.post(ADD, _add_form(customer_reference="K-10232"), follow=True)
    assert "Ola Hansen added as a customer person" in fixed.content.decode()
    assert CustomerPerson.objects.get(full_name="Ola Hansen").customer_reference == "K-10232"


def test_a_taken_reference_and_a_taken_national_id_are_both_said_at_once(org, admin, config):
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", customer_reference="K-10231")
    assert admin.post(f"{_page(kari['uuid'])}national-ids/", {"national_id_schema": "NO", "national_id_number": "15108695088"}).status_code == 302

    response = admin.post(ADD, _add_form(customer_reference="K-10231", birth_date="15.10.1986", national_id_schema="NO",
                                         national_id_number="15108695088"))

    form = response.context["person_form"]
    assert form.errors["customer_reference"] == ["K-10231 is already the customer reference of Kari Nordmann, born 15.10.1986."]
    assert form.errors["national_id_number"] == ["This national id is already recorded for Kari Nordmann, born 15.10.1986."]
    assert form.errors["__all__"] == ["Nothing was saved."]
    assert response.content.decode().count('data-testid="held-by-link"') == 2
    assert CustomerPerson.objects.count() == 1


def test_a_reference_taken_after_the_form_looked_is_the_services_refusal_at_its_field(org, admin, config, monkeypatch):
    """A race: another admin gives the reference away between the form's look and its save; the service's
    400 (reference_taken) lands at the field, and nothing is saved."""
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", customer_reference="K-10231")
    ola = customer_person_make(org.api, config["uuid"], full_name="Ola Hansen", gender_uuid=gender_uuid("female"))
    monkeypatch.setattr("screening.customer_persons_tab.reference_holder", lambda *args, **kwargs: None)
    monkeypatch.setattr("screening.views_customer_person.reference_holder", lambda *args, **kwargs: None)

    added = admin.post(ADD, _add_form(full_name="Per Hansen", customer_reference="K-10231"))
    form = added.context["person_form"]
    assert form.errors["customer_reference"] == [TAKEN.format(kari["uuid"])]  # the service's words
    assert form.errors["__all__"] == ["Nothing was saved. Correct the field and send again."]

    person = CustomerPerson.objects.get(uuid=ola["uuid"])
    corrected = admin.post(f"{_page(ola['uuid'])}correct/", _correct_form(person, customer_reference="K-10231"))
    assert corrected.context["correct_form"].errors["customer_reference"] == [TAKEN.format(kari["uuid"])]
    assert 'data-testid="held-by-link"' not in corrected.content.decode()  # the service names them by uuid only
    assert sorted(CustomerPerson.objects.values_list("full_name", "customer_reference")) == [("Kari Nordmann", "K-10231"), ("Ola Hansen", "")]


def test_a_correction_gives_changes_and_clears_the_reference_without_screening_again(org, admin, config):
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", gender_uuid=gender_uuid("female"))
    person = CustomerPerson.objects.get()
    correct = f"{_page(kari['uuid'])}correct/"

    given = admin.post(correct, _correct_form(person, customer_reference=" K-10231 "), follow=True).content.decode()
    assert "Kari Nordmann&#x27;s customer reference is now K-10231." in given
    assert "Screened again" not in given
    assert _shown_reference(given) == "K-10231"
    person.refresh_from_db()
    assert person.customer_reference == "K-10231"

    same = admin.post(correct, _correct_form(person, customer_reference="K-10231  "), follow=True).content.decode()
    assert "Nothing changed." in same

    changed = admin.post(correct, _correct_form(person, customer_reference="K-99"), follow=True).content.decode()
    assert _shown_reference(changed) == "K-99"
    cleared = admin.post(correct, _correct_form(person, customer_reference=""), follow=True).content.decode()
    assert "Kari Nordmann has no customer reference any more." in cleared
    assert _shown_reference(cleared) is None
    person.refresh_from_db()
    assert person.customer_reference == ""
    updates = AuditEvent.objects.filter(action_key="customer_person.update").order_by("created_timestamp")
    assert [(e.before, e.after) for e in updates] == [
        ({"customer_reference": ""}, {"customer_reference": "K-10231"}),
        ({"customer_reference": "K-10231"}, {"customer_reference": "K-99"}),
        ({"customer_reference": "K-99"}, {"customer_reference": ""}),
    ]


def test_a_correction_to_a_reference_another_person_has_is_refused_naming_them(org, admin, config):
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", customer_reference="K-10231")
    ola = customer_person_make(org.api, config["uuid"], full_name="Ola Hansen", gender_uuid=gender_uuid("female"), birth_date=None)
    person = CustomerPerson.objects.get(uuid=ola["uuid"])
    form = {"full_name": "Ola Hanssen", "gender": str(person.gender.uuid), "customer_reference": "K-10231"}

    response = admin.post(f"{_page(ola['uuid'])}correct/", form)

    assert response.status_code == 200
    assert response.context["correct_form"].errors["customer_reference"] == [
        "K-10231 is already the customer reference of Kari Nordmann, born 15.10.1986."
    ]
    assert _held_by_link(response, kari)
    person.refresh_from_db()
    assert (person.full_name, person.customer_reference) == ("Ola Hansen", "")  # nothing of the correction saved
    assert not AuditEvent.objects.filter(action_key="customer_person.update").exists()


def test_a_correction_that_keeps_the_persons_own_reference_is_no_conflict(org, admin, config):
    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", customer_reference="K-10231")
    person = CustomerPerson.objects.get()

    response = admin.post(f"{_page(kari['uuid'])}correct/", _correct_form(person, full_name="Kari Nordman"), follow=True)

    assert "Kari Nordman&#x27;s details are corrected." in response.content.decode()
    person.refresh_from_db()
    assert (person.full_name, person.customer_reference) == ("Kari Nordman", "K-10231")


def test_the_lists_search_finds_a_person_by_their_exact_reference_first_and_once(org, admin, config):
    customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", customer_reference="K-10231")
    customer_person_make(org.api, config["uuid"], full_name="Per Nordmann", customer_reference="Nordmann")
    customer_person_make(org.api, config["uuid"], full_name="Sven Svensson", customer_reference="12345678")

    assert _listed(admin.get(TAB, {"view": "persons", "q": " K-10231 "})) == [("Kari Nordmann", "K-10231")]
    assert _listed(admin.get(TAB, {"view": "persons", "q": "K-1023"})) == []  # a reference is found whole
    # By name and by reference at once: the reference's person first, each once.
    assert _listed(admin.get(TAB, {"view": "persons", "q": "Nordmann"})) == [("Per Nordmann", "Nordmann"), ("Kari Nordmann", "K-10231")]
    # Digits a national id could be: asked as a number, and as a reference.
    assert _listed(admin.get(TAB, {"view": "persons", "q": "12345678"})) == [("Sven Svensson", "12345678")]
    page = admin.get(TAB, {"view": "persons", "q": "K-4"}).content.decode()
    assert "No customer person’s name contains “K-4”. Nor is it anyone’s customer reference." in page


def test_an_import_saves_each_rows_id_as_the_reference_and_gives_it_to_a_customer_found_without_one(org, admin, config):
    from tests.screening.test_customer_person_import import HEADER, _rows, _sent

    kari = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann", birth_date="1986-10-15")
    assert admin.post(f"{_page(kari['uuid'])}monitor/", {"approve": "on"}).status_code == 302
    rows = HEADER + "K-7;Kari Nordmann;15.10.1986;female;NO;;;;;;\nK-8;Ola Hansen;02.03.1970;male;NO;;;;;;\n"

    response = _sent(admin, rows, approve="on")

    assert _rows(response) == ["2 K-7 Kari Nordmann 15.10.1986 Already under monitoring: customer reference recorded",
                               "3 K-8 Ola Hansen 02.03.1970 Added"]
    assert _listed(admin.get(TAB, {"view": "persons"})) == [("Kari Nordmann", "K-7"), ("Ola Hansen", "K-8")]


@pytest.fixture
def officer():
    return member_make("Nordbank ASA", "ingrid")


@pytest.fixture
def screened(officer, lists):
    """A sanction case on an owner of Nordlys AS, and a PEP case on the customer person Ingrid
    Solbakken, whose reference is K-10231."""
    screened = cases_make(officer)
    person_uuid = screened.pep_case.entity_inquiry.customer_person_id
    assert patch(api_of(officer), customer_person_url(person_uuid), {"customer_reference": "K-10231"}).status_code == 200
    return screened


def test_the_queue_and_the_case_page_show_a_customer_persons_reference(officer, screened):
    client = officer.client()

    queue = client.get(QUEUE).content.decode()
    assert '<div class="small text-secondary">Customer K-10231 · born 30.09.1961' in queue
    assert '<div class="small text-secondary">Person · born 14.03.1966' in queue  # a company's person has none

    case = client.get(case_url(screened.pep_case.uuid)).content.decode()
    assert 'data-testid="customer-reference">K-10231</td>' in case
    assert 'data-testid="customer-reference"' not in client.get(case_url(screened.sanction_case.uuid)).content.decode()


def test_the_queue_finds_a_customers_cases_by_their_reference(officer, screened):
    found = officer.client().get(QUEUE, {"q": "K-10231"}).content.decode()

    assert case_url(screened.pep_case.uuid) in found
    assert case_url(screened.sanction_case.uuid) not in found


def test_the_cases_file_has_the_customer_reference(officer, screened):
    rows = {row["Screened"]: row for row in _csv(officer.client().get("/screening/cases/export.csv", {"status": "all"}))}
    columns = list(rows[PEP_PERSON])
    assert columns[columns.index("Organisation number") + 1] == "Customer reference"
    assert rows[PEP_PERSON]["Customer reference"] == "K-10231"
    assert rows[UN_PERSON]["Customer reference"] == ""


def test_the_monitorings_file_has_the_customer_reference(officer, screened):
    rows = {row["Name"]: row for row in _csv(officer.client().get("/screening/approvals/monitorings.csv"))}
    columns = list(rows[PEP_PERSON])
    assert columns[:4] == ["Name", "Kind", "Customer reference", "Monitored as"]
    assert (rows[PEP_PERSON]["Kind"], rows[PEP_PERSON]["Customer reference"]) == ("Customer person", "K-10231")
    assert rows[UN_PERSON]["Customer reference"] == ""
