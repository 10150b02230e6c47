"""GET .../screening-case-composite-collection: the extension filters and sort order the queue uses."""

from __future__ import annotations

from service.companies.models import Company, Person
from service.screening.models import CustomerPerson, ScreeningCase
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, member_of
from tests.service.screening.helpers import AML, config_url, monitoring_make, patch


def _names(collection) -> list[str]:
    return [c["screening_case_match"]["list_entry"]["source_id"] for c in collection["elements"]]


def _owner_and_customer(api):
    """A UN hit on Nordlys AS's beneficial owner and a PEP hit on a customer person; the owner too."""
    config = config_with(api, "un_security_council")
    owner = Person.objects.create(full_name=UN_PERSON)
    monitoring_make(api, config["uuid"], person=owner.uuid, type_key="beneficial_owners",
                    related_company=Company.objects.create(name="Nordlys AS", org_nr="912345670").uuid,
                    decision={"approved_flag": True})
    customer_person_screened(api, config["uuid"], PEP_PERSON)
    return config, owner


def _two_cases(api):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")
    customer_person_screened(api, config["uuid"], PEP_PERSON, "1961-09-30")
    return config


def test_it_filters_pep_and_sanction_hits(api, lists):
    config = _two_cases(api)

    assert _names(cases(api, config["uuid"], pep_flag="true")) == ["pep-1"]
    assert _names(cases(api, config["uuid"], sanction_flag="true")) == ["KPi.901"]
    assert _names(cases(api, config["uuid"], pep_flag="false")) == ["KPi.901"]


def test_it_sorts_oldest_first_on_request(api, lists):
    config = _two_cases(api)

    assert _names(cases(api, config["uuid"])) == ["pep-1", "KPi.901"]
    assert _names(cases(api, config["uuid"], sort_order="oldest_first")) == ["KPi.901", "pep-1"]


def test_it_filters_by_assignee_and_by_nobody(api, lists):
    config = _two_cases(api)
    member = member_of(api, "analyst@nordbank.no")
    sanction_case = cases(api, config["uuid"], sanction_flag="true")["elements"][0]["screening_case"]["uuid"]
    patch(api, config_url(config["uuid"], f"/screening-case/{sanction_case}"), {"assignee_app_membership_uuid": member})

    assert _names(cases(api, config["uuid"], assignee_app_membership_uuid=member)) == ["KPi.901"]
    assert _names(cases(api, config["uuid"], assigned_flag="false")) == ["pep-1"]
    assert _names(cases(api, config["uuid"], assigned_flag="true")) == ["KPi.901"]


def test_it_selects_one_case_and_the_cases_of_one_entity(api, other_api, lists):
    config, owner = _owner_and_customer(api)
    owner_case = ScreeningCase.objects.get(entity_inquiry__person=owner)

    of_owner = cases(api, config["uuid"], inquiry_entity_uuid=str(owner.uuid))
    one = cases(api, config["uuid"], screening_case_uuid=str(owner_case.uuid))
    other_config = config_with(other_api)
    foreign = cases(other_api, other_config["uuid"], screening_case_uuid=str(owner_case.uuid))

    assert _names(of_owner) == ["KPi.901"]
    assert [c["screening_case"]["uuid"] for c in one["elements"]] == [str(owner_case.uuid)]
    assert (foreign["count"], foreign["elements"]) == (0, [])


def test_it_refuses_an_unknown_sort_order_naming_it(api, lists):
    config = config_with(api)

    response = api.get(config_url(config["uuid"], "/screening-case-composite-collection"), {"sort_order": "random"}, roles=AML)

    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["query", "sort_order"]


def test_it_finds_cases_by_the_screened_or_the_listed_name_in_any_case(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], "Ivan Sergeyevitsj Dragunov", "1966-03-14")  # spelled the Norwegian way
    customer_person_screened(api, config["uuid"], PEP_PERSON, "1961-09-30")
    company = Company.objects.create(name="Koryo Fjord Trading AS", org_nr="987654325")
    monitoring_make(api, config["uuid"], company=company.uuid, type_key="company", decision={"approved_flag": True})

    assert _names(cases(api, config["uuid"], name_contains="sergeyevitsj")) == ["KPi.901"]  # the screened name
    assert _names(cases(api, config["uuid"], name_contains="IVAN SERGEYEVICH")) == ["KPi.901"]  # the listed name
    assert _names(cases(api, config["uuid"], name_contains="  solbakken ")) == ["pep-1"]
    assert _names(cases(api, config["uuid"], name_contains="fjord trading")) == ["KPe.901"]
    assert cases(api, config["uuid"], name_contains="Nordmann")["count"] == 0
    assert cases(api, config["uuid"], name_contains=" ")["count"] == 3  # blank: no search


def test_it_finds_a_customers_cases_by_their_customer_reference(api, lists):
    config = _two_cases(api)
    CustomerPerson.objects.filter(full_name=PEP_PERSON).update(customer_reference="K-10231")  # the bank's number

    assert _names(cases(api, config["uuid"], name_contains="k-10231")) == ["pep-1"]  # any case
    assert cases(api, config["uuid"], name_contains="K-1023")["count"] == 0  # the whole reference, not a part


def test_it_refuses_a_name_search_over_200_characters_naming_it(api, lists):
    config = config_with(api)

    response = api.get(
        config_url(config["uuid"], "/screening-case-composite-collection"), {"name_contains": "x" * 201}, roles=AML
    )

    assert response.status_code == 400
    assert response.json()["errors"] == [{"loc": ["query", "name_contains"], "msg": "at most 200 characters"}]


def test_it_finds_who_else_is_a_possible_hit_on_the_same_listed_person(api, other_api, lists):
    config = _two_cases(api)  # a UN hit and a PEP hit
    owner = Person.objects.create(full_name=UN_PERSON)  # the same listed person, as the register spells him
    monitoring_make(api, config["uuid"], person=owner.uuid, type_key="beneficial_owners",
                    related_company=Company.objects.create(name="Nordlys AS", org_nr="912345670").uuid,
                    decision={"approved_flag": True})
    owner_case = ScreeningCase.objects.get(entity_inquiry__person=owner)
    pep_case = ScreeningCase.objects.get(list_source_id="pep-1")

    same = cases(api, config["uuid"], listed_as_case_uuid=str(owner_case.uuid))
    only_itself = cases(api, config["uuid"], listed_as_case_uuid=str(pep_case.uuid))
    their_config = config_with(other_api, "un_security_council")
    foreign = cases(other_api, their_config["uuid"], listed_as_case_uuid=str(owner_case.uuid))
    refused = api.get(config_url(config["uuid"], "/screening-case-composite-collection"), {"listed_as_case_uuid": "x"}, roles=AML)

    assert _names(same) == ["KPi.901", "KPi.901"] and same["count"] == 2  # the customer person and the owner
    assert [c["screening_case"]["uuid"] for c in only_itself["elements"]] == [str(pep_case.uuid)]
    assert (foreign["count"], foreign["elements"]) == (0, [])  # another organisation's case names nothing
    assert refused.status_code == 400 and refused.json()["errors"][0]["loc"] == ["query", "listed_as_case_uuid"]


def test_it_filters_by_the_kind_of_screened_entity(api, lists):
    from tests.service.screening.helpers import field_locs

    config, _ = _owner_and_customer(api)

    assert _names(cases(api, config["uuid"], inquiry_entity_key="person")) == ["KPi.901"]
    assert _names(cases(api, config["uuid"], inquiry_entity_key="customer_person")) == ["pep-1"]
    assert _names(cases(api, config["uuid"], inquiry_entity_key="company")) == []
    counts = api.get(config_url(config["uuid"], "/screening-case-status-count"), {"inquiry_entity_key": "customer_person"}, roles=AML)
    assert {row["screening_case_status_key"]: row["pep_count"] for row in counts.json()} == {"pending": 1, "ongoing": 0, "complete": 0}
    wrong = api.get(config_url(config["uuid"], "/screening-case-composite-collection"), {"inquiry_entity_key": "customer"}, roles=AML)
    assert wrong.status_code == 400
    assert field_locs(wrong) == [["query", "inquiry_entity_key"]]


def test_it_filters_by_the_list_a_case_was_raised_on(api, lists):
    from tests.service.screening.helpers import field_locs

    config = _two_cases(api)

    assert _names(cases(api, config["uuid"], screening_list_category_key="un_security_council")) == ["KPi.901"]
    assert _names(cases(api, config["uuid"], screening_list_category_key="pep")) == ["pep-1"]
    assert _names(cases(api, config["uuid"], screening_list_category_key=" ")) == ["pep-1", "KPi.901"]  # blank: any list
    counts = api.get(config_url(config["uuid"], "/screening-case-status-count"), {"screening_list_category_key": "un_security_council"},
                     roles=AML)
    assert {row["screening_case_status_key"]: row["count"] for row in counts.json()} == {"pending": 1, "ongoing": 0, "complete": 0}
    for path in ("/screening-case-composite-collection", "/screening-case-status-count"):
        wrong = api.get(config_url(config["uuid"], path), {"screening_list_category_key": "ofac"}, roles=AML)
        assert wrong.status_code == 400
        assert field_locs(wrong) == [["query", "screening_list_category_key"]]
        assert "un_security_council" in wrong.json()["errors"][0]["msg"]  # the lists there are
