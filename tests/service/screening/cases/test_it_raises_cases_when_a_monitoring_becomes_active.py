"""A screening run when a monitoring becomes active (rule 5: PEP lists always, sanction
lists only when their category is selected); one case per entity and listed entry."""

from __future__ import annotations

from service.screening.models import ScreeningCase
from service.screening.tasks import screening_run_task
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import config_with, customer_person_screened
from tests.service.screening.helpers import customer_person_make, decide, monitoring_make


def test_it_raises_a_sanction_case_for_an_approved_customer_person_on_the_selected_un_list(api, lists):
    config = config_with(api, "un_security_council")
    monitoring = customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")

    [case] = ScreeningCase.objects.filter(screening_config_id=config["uuid"])
    assert (case.sanction_flag, case.pep_flag) == (True, False)
    assert case.list_source_id == "KPi.901" and case.list_content_hash == case.list_entry.content_hash
    assert case.score >= 0.9 and case.explanation["birth_date_adjustment"] > 0
    assert str(case.entity_inquiry.customer_person_id) == monitoring["entity_monitoring"]["monitoring_customer_person_uuid"]


def test_it_raises_a_pep_case_without_any_selected_category(api, lists):
    config = config_with(api)
    customer_person_screened(api, config["uuid"], PEP_PERSON)

    [case] = ScreeningCase.objects.filter(screening_config_id=config["uuid"])
    assert (case.pep_flag, case.sanction_flag) == (True, False)
    assert case.list_category.key == "pep"


def test_it_raises_no_sanction_case_when_the_category_is_not_selected(api, lists):
    config = config_with(api)
    customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")

    assert not ScreeningCase.objects.filter(screening_config_id=config["uuid"]).exists()


def test_it_screens_a_pending_monitoring_only_once_it_is_approved(api, lists):
    config = config_with(api, "un_security_council")
    person = customer_person_make(api, config["uuid"], full_name=UN_PERSON, birth_date=None, gender_uuid=None)
    pending = monitoring_make(api, config["uuid"], customer_person=person["uuid"])
    assert not ScreeningCase.objects.exists()

    decide(api, config["uuid"], pending["entity_monitoring"]["uuid"], approved=False)
    assert not ScreeningCase.objects.exists()
    decide(api, config["uuid"], pending["entity_monitoring"]["uuid"])
    assert ScreeningCase.objects.filter(screening_config_id=config["uuid"]).count() == 1


def test_it_makes_no_second_case_when_the_run_repeats(api, lists):
    config = config_with(api, "un_security_council")
    monitoring = customer_person_screened(api, config["uuid"], UN_PERSON)
    assert ScreeningCase.objects.count() == 1

    screening_run_task.delay([monitoring["entity_monitoring"]["uuid"]])
    screening_run_task.delay([monitoring["entity_monitoring"]["uuid"]])

    assert ScreeningCase.objects.count() == 1


def test_it_screens_a_company_by_its_own_name_against_listed_organisations(api, lists):
    from service.companies.models import Company

    config = config_with(api, "un_security_council")
    company = Company.objects.create(name="Koryo Fjord Trading AS", org_nr="912345670")
    monitoring_make(api, config["uuid"], company=company.uuid, type_key="company", decision={"approved_flag": True})

    [case] = ScreeningCase.objects.filter(screening_config_id=config["uuid"])
    assert case.list_source_id == "KPe.901" and case.sanction_flag
    assert case.entity_inquiry.company_id == company.uuid


def test_it_logs_and_returns_when_the_monitoring_is_gone(api, lists, caplog):
    assert screening_run_task.delay(["00000000-0000-0000-0000-000000000000"]).result is None
    assert "gone" in caplog.text


def test_it_names_the_entity_inquiry_on_the_monitoring_once_a_hit_is_found(api, lists):
    from tests.service.screening.helpers import monitorings

    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    customer_person_screened(api, config["uuid"], "Kari Nordmann")

    by_name = {m["entity_monitoring"]["monitoring_entity_name"]: m["entity_monitoring"] for m in monitorings(api, config["uuid"])}
    [case] = ScreeningCase.objects.filter(screening_config_id=config["uuid"])
    assert by_name[UN_PERSON]["entity_inquiry_uuid"] == str(case.entity_inquiry_id)
    assert by_name["Kari Nordmann"]["entity_inquiry_uuid"] is None
