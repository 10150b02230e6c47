"""GET /v1/screening-config/{uuid}/screening-case-composite-collection."""

from __future__ import annotations

from service.companies.models import Company, Person
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, review
from tests.service.screening.helpers import AML, config_url, monitoring_make

SPEC_KEYS = {
    "screening_case",
    "entity_inquiry",
    "related_companies",
    "monitoring_person",
    "monitoring_customer_person",
    "monitoring_company",
    "screening_case_review_composites",
    "screening_state_aggregate",
}


def test_it_shows_both_sides_of_a_match_with_every_key_of_the_spec(api, lists):
    config = config_with(api, "un_security_council")
    monitoring = customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")

    collection = cases(api, config["uuid"])

    assert (collection["count"], collection["has_more"]) == (1, False)
    [composite] = collection["elements"]
    assert SPEC_KEYS <= set(composite)
    case = composite["screening_case"]
    assert (case["sanction_flag"], case["pep_flag"], case["screening_case_status_key"]) == (True, False, "pending")
    inquiry = composite["entity_inquiry"]
    assert inquiry["inquiry_customer_person_uuid"] == monitoring["entity_monitoring"]["monitoring_customer_person_uuid"]
    assert (inquiry["inquiry_person_uuid"], inquiry["inquiry_company_uuid"]) == (None, None)
    assert inquiry["inquiry_entity_key"] == "customer_person" and inquiry["monitored_flag"] is True
    assert case["entity_inquiry_uuid"] == inquiry["uuid"]
    assert composite["monitoring_customer_person"]["full_name"] == UN_PERSON
    assert composite["monitoring_person"] is None and composite["monitoring_company"] is None
    assert composite["screening_case_review_composites"] == []
    state = composite["screening_state_aggregate"]
    assert (state["sanction_flag"], state["pep_confirmed_flag"], state["screening_case_review_status_keys"]) == (True, False, [])
    match = composite["screening_case_match"]
    entry = match["list_entry"]
    assert entry["source_id"] == "KPi.901" and entry["screening_list_category_key"] == "un_security_council"
    assert entry["birth_dates"] == ["1966-03-14"] and entry["nationalities"] == ["ru"] and entry["programmes"] == ["DPRK"]
    # What the list gives beside the names, for a reviewer to compare with what the bank knows.
    assert entry["identifiers"] == [{"kind": "passport", "value": "745120836", "country": "ru"}]
    assert entry["addresses"] == ["Vladivostok, Russian Federation"] and entry["positions"] == []
    assert match["score"] >= 0.9 and match["explanation"]["birth_date_adjustment"] > 0
    assert "Dragunov" in match["explanation_summary"]


def test_it_lists_newest_first_in_pages(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    customer_person_screened(api, config["uuid"], PEP_PERSON)

    first = cases(api, config["uuid"], limit=1)
    second = cases(api, config["uuid"], limit=1, offset=1)

    assert (first["count"], first["has_more"], second["has_more"]) == (2, True, False)
    assert first["elements"][0]["screening_case_match"]["list_entry"]["source_id"] == "pep-1"
    assert second["elements"][0]["screening_case_match"]["list_entry"]["source_id"] == "KPi.901"


def test_it_filters_by_case_status_and_related_company(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], PEP_PERSON)
    company = Company.objects.create(name="Nordlys AS", org_nr="912345670")
    owner = Person.objects.create(full_name=UN_PERSON)
    monitoring_make(
        api, config["uuid"], person=owner.uuid, type_key="beneficial_owners", related_company=company.uuid,
        decision={"approved_flag": True},
    )
    owned = cases(api, config["uuid"], related_company_uuid=str(company.uuid))["elements"]
    assert [c["monitoring_person"]["full_name"] for c in owned] == [UN_PERSON]
    assert [r["uuid"] for r in owned[0]["related_companies"]] == [str(company.uuid)]

    review(api, config["uuid"], owned[0]["screening_case"]["uuid"], "in_review", "possible_match")

    ongoing = cases(api, config["uuid"], screening_case_status_identifiers="ongoing")["elements"]
    assert [c["screening_case"]["uuid"] for c in ongoing] == [owned[0]["screening_case"]["uuid"]]
    pending = cases(api, config["uuid"], screening_case_status_identifiers="pending,complete")["elements"]
    assert [c["monitoring_customer_person"]["full_name"] for c in pending] == [PEP_PERSON]


def test_it_refuses_an_unknown_status_and_a_limit_out_of_range(api, lists):
    config = config_with(api)
    url = config_url(config["uuid"], "/screening-case-composite-collection")

    unknown = api.get(url, {"screening_case_status_identifiers": "pending,closed"}, roles=AML)
    too_many = api.get(url, {"limit": 1001}, roles=AML)

    assert unknown.status_code == 400 and unknown.json()["errors"][0]["loc"] == ["query", "screening_case_status_identifiers"]
    assert too_many.status_code == 400 and too_many.json()["errors"][0]["loc"] == ["query", "limit"]


def test_it_is_404_for_another_organisations_config_and_403_without_aml(api, other_api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    url = config_url(config["uuid"], "/screening-case-composite-collection")

    assert other_api.get(url, roles=AML).status_code == 404
    assert api.get(url).status_code == 403
