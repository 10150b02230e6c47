"""GET /v1/screening-config/{uuid}/screening-related-company-status-composite-collection."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from service.companies.catalog import catalog_ensure
from service.companies.models import Company, CompanyFlag, CompanyFlagType, Person
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import config_with, customer_person_screened, review
from tests.service.screening.helpers import AML, config_url, monitoring_make, patch

PATH = "/screening-related-company-status-composite-collection"
SPEC_KEYS = {
    "related_company",
    "entity_monitoring_composites",
    "screening_case_composites",
    "company_flag_history_composites",
    "related_company_screening_state_aggregate",
}


def statuses(caller, config_uuid, roles=AML, **params) -> dict:
    response = caller.get(config_url(config_uuid, PATH), params, roles=roles)
    assert response.status_code == 200, response.json()
    [collection] = response.json()
    return collection


def company_with_owners(caller, config_uuid, name: str, *, screened: str | None = None, pending: str | None = "Kari Nordmann"):
    """A company with a pending owner monitoring and, with `screened`, an approved one (its run starts on commit)."""
    company = Company.objects.create(name=name, org_nr=str(900000000 + Company.objects.count()))
    if pending:
        person = Person.objects.create(full_name=pending)
        monitoring_make(caller, config_uuid, person=person.uuid, type_key="beneficial_owners", related_company=company.uuid)
    if screened:
        person = Person.objects.create(full_name=screened)
        monitoring_make(
            caller, config_uuid, person=person.uuid, type_key="beneficial_owners", related_company=company.uuid,
            decision={"approved_flag": True},
        )
    return company


def flag(company, key: str, *, ended: bool = False) -> CompanyFlag:
    catalog_ensure()
    now = timezone.now()
    return CompanyFlag.objects.create(
        company=company,
        company_flag_type=CompanyFlagType.objects.get(key=key),
        flag_date=now - timedelta(days=30),
        flag_end_date=now - timedelta(days=1) if ended else None,
    )


def test_it_shows_a_company_with_a_pending_and_an_active_monitoring_and_its_case(api, lists):
    config = config_with(api, "un_security_council")
    company = company_with_owners(api, config["uuid"], "Nordlys AS", screened=UN_PERSON)
    ended = flag(company, "negative_total_equity", ended=True)

    collection = statuses(api, config["uuid"])

    assert (collection["count"], collection["has_more"]) == (1, False)
    [element] = collection["elements"]
    assert set(element) == SPEC_KEYS
    assert element["related_company"]["uuid"] == str(company.uuid) and element["related_company"]["name"] == "Nordlys AS"
    monitorings = element["entity_monitoring_composites"]
    assert sorted(m["entity_monitoring_status"]["entity_monitoring_status_key"] for m in monitorings) == ["active", "pending"]
    assert all(m["entity_monitoring"]["related_company_uuid"] == str(company.uuid) for m in monitorings)
    [case] = element["screening_case_composites"]
    assert set(case) == {"screening_case", "screening_case_review_composites"}
    assert case["screening_case"]["sanction_flag"] is True and case["screening_case_review_composites"] == []
    [history] = element["company_flag_history_composites"]
    assert history["uuid"] == str(ended.uuid) == history["company_flag_history"]["uuid"]
    assert history["company_flag_history"]["flag_end_date"] is not None  # history: ended flags too
    assert history["company_flag_type"]["company_flag_type_key"] == "negative_total_equity"
    assert history["company"]["uuid"] == str(company.uuid)
    state = element["related_company_screening_state_aggregate"]
    assert (state["sanction_flag"], state["pep_flag"], state["pep_confirmed_flag"]) == (True, False, False)
    assert (state["active_entity_monitoring_entities_flag"], state["pending_entity_monitoring_entities_flag"]) == (True, True)
    assert state["screening_case_review_status_keys"] == [] and state["screening_case_latest_update_timestamp"]


def test_the_aggregate_follows_the_reviews_of_the_companys_cases(api, lists):
    config = config_with(api, "un_security_council")
    company_with_owners(api, config["uuid"], "Nordlys AS", screened=UN_PERSON, pending=None)
    [element] = statuses(api, config["uuid"])["elements"]
    case_uuid = element["screening_case_composites"][0]["screening_case"]["uuid"]

    review(api, config["uuid"], case_uuid, "in_review", "possible_match")
    review(api, config["uuid"], case_uuid, "confirmed_hit", "match", pep_confirmed_flag=True)

    [element] = statuses(api, config["uuid"])["elements"]
    state = element["related_company_screening_state_aggregate"]
    assert state["screening_case_review_status_keys"] == ["confirmed_hit", "in_review"]
    assert state["entity_match_decision_type_keys"] == ["match", "possible_match"]
    assert state["pep_confirmed_flag"] is True and state["pending_entity_monitoring_entities_flag"] is False
    reviews = element["screening_case_composites"][0]["screening_case_review_composites"]
    assert [r["screening_case_review_status"]["screening_case_review_status_key"] for r in reviews] == ["confirmed_hit", "in_review"]


def test_it_leaves_out_customer_persons_without_a_related_company(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)

    assert statuses(api, config["uuid"]) == {"elements": [], "count": 0, "has_more": False}


def test_it_pages_by_company_name_as_rule_6_reads(api, lists):
    config = config_with(api)
    for name in ("Cedar AS", "Aspen AS", "Birch AS"):
        company_with_owners(api, config["uuid"], name)

    pages = [statuses(api, config["uuid"], limit=2, offset=offset) for offset in (0, 2)]

    assert [[e["related_company"]["name"] for e in p["elements"]] for p in pages] == [["Aspen AS", "Birch AS"], ["Cedar AS"]]
    assert [(p["count"], p["has_more"]) for p in pages] == [(3, True), (3, False)]


def test_it_refuses_a_limit_or_offset_out_of_range(api, lists):
    config = config_with(api)
    url = config_url(config["uuid"], PATH)

    for params, field in (({"limit": 0}, "limit"), ({"limit": 1001}, "limit"), ({"offset": -1}, "offset")):
        response = api.get(url, params, roles=AML)
        assert response.status_code == 400 and response.json()["errors"][0]["loc"] == ["query", field], params
    both = api.get(url, {"limit": 0, "offset": -1}, roles=AML)
    assert both.status_code == 400 and [e["loc"] for e in both.json()["errors"]] == [["query", "limit"], ["query", "offset"]]
    not_a_number = api.get(url, {"limit": "ten"}, roles=AML)
    assert not_a_number.status_code == 400 and not_a_number.json()["errors"][0]["loc"][-1] == "limit"


def test_the_payment_remarks_flag_needs_the_credit_check_role(api, lists):
    config = config_with(api)
    company = company_with_owners(api, config["uuid"], "Nordlys AS")
    flag(company, "payment_remarks")
    flag(company, "negative_total_equity")

    def keys(roles):
        [element] = statuses(api, config["uuid"], roles=roles)["elements"]
        return sorted(f["company_flag_type"]["company_flag_type_key"] for f in element["company_flag_history_composites"])

    assert keys(AML) == ["negative_total_equity"]
    assert keys([*AML, "credit_check"]) == ["negative_total_equity", "payment_remarks"]


def test_it_is_404_for_another_organisations_config_and_403_without_aml(api, other_api, lists):
    config = config_with(api)
    company_with_owners(api, config["uuid"], "Nordlys AS")
    url = config_url(config["uuid"], PATH)

    assert other_api.get(url, roles=AML).status_code == 404
    assert api.get(url).status_code == 403


def test_a_page_takes_the_same_number_of_queries_for_1_and_20_companies(api, lists, django_assert_max_num_queries):
    config = config_with(api, "un_security_council")
    first = company_with_owners(api, config["uuid"], "A Nordlys AS", screened=UN_PERSON)
    flag(first, "payment_remarks")

    with django_assert_max_num_queries(12) as one:
        assert statuses(api, config["uuid"], roles=[*AML, "credit_check"])["count"] == 1
    for number in range(19):
        flag(company_with_owners(api, config["uuid"], f"Company {number:02} AS"), "negative_total_equity")
    with django_assert_max_num_queries(12) as twenty:
        collection = statuses(api, config["uuid"], roles=[*AML, "credit_check"])

    assert collection["count"] == 20 and len(collection["elements"]) == 20
    assert len(twenty.captured_queries) == len(one.captured_queries), [q["sql"][:80] for q in twenty.captured_queries]


def test_a_company_drops_out_when_its_monitorings_are_removed(api, lists):
    config = config_with(api)
    company_with_owners(api, config["uuid"], "Nordlys AS")
    [element] = statuses(api, config["uuid"])["elements"]
    monitoring_uuid = element["entity_monitoring_composites"][0]["entity_monitoring"]["uuid"]

    response = patch(
        api, config_url(config["uuid"], f"/entity-monitoring/{monitoring_uuid}"),
        {"removed_flag": True, "removal_reason": "Sold the company."},
    )

    assert response.status_code == 200, response.json()
    assert statuses(api, config["uuid"])["count"] == 0


def test_the_aggregate_counts_monitorings_and_open_cases_and_names_the_latest_change(api, lists):
    config = config_with(api, "un_security_council", "pep")
    company = company_with_owners(api, config["uuid"], "Nordlys AS", screened=UN_PERSON)
    Person.objects.create(full_name="Unused")  # another person, monitored for nothing
    [element] = statuses(api, config["uuid"])["elements"]
    state = element["related_company_screening_state_aggregate"]
    assert (state["active_entity_monitoring_count"], state["pending_entity_monitoring_count"]) == (1, 1)
    assert (state["open_screening_case_count"], state["open_sanction_screening_case_count"], state["open_pep_screening_case_count"]) == (1, 1, 0)
    before = state["latest_update_timestamp"]
    assert before >= state["screening_case_latest_update_timestamp"]
    case_uuid = element["screening_case_composites"][0]["screening_case"]["uuid"]

    review(api, config["uuid"], case_uuid, "false_positive", "no_match")

    [element] = statuses(api, config["uuid"])["elements"]
    state = element["related_company_screening_state_aggregate"]
    assert (state["open_screening_case_count"], state["open_sanction_screening_case_count"]) == (0, 0)
    assert state["confirmed_screening_case_count"] == 0  # closed, but not as a hit
    assert state["latest_update_timestamp"] > before
    assert element["related_company"]["uuid"] == str(company.uuid)


def test_a_confirmed_hit_stays_counted_after_its_case_is_closed(api, lists):
    config = config_with(api, "un_security_council", "pep")
    company_with_owners(api, config["uuid"], "Nordlys AS", screened=UN_PERSON)
    [element] = statuses(api, config["uuid"])["elements"]
    case_uuid = element["screening_case_composites"][0]["screening_case"]["uuid"]
    review(api, config["uuid"], case_uuid, "in_review", "possible_match")
    state = statuses(api, config["uuid"], aggregate_only_flag="true")["elements"][0]["related_company_screening_state_aggregate"]
    assert (state["open_screening_case_count"], state["confirmed_screening_case_count"]) == (1, 0)

    review(api, config["uuid"], case_uuid, "confirmed_hit", "match")

    state = statuses(api, config["uuid"], aggregate_only_flag="true")["elements"][0]["related_company_screening_state_aggregate"]
    assert (state["open_screening_case_count"], state["open_sanction_screening_case_count"]) == (0, 0)
    assert (state["confirmed_screening_case_count"], state["confirmed_sanction_screening_case_count"],
            state["confirmed_pep_screening_case_count"]) == (1, 1, 0)


def test_aggregate_only_answers_the_aggregate_without_the_composites(api, lists):
    config = config_with(api, "un_security_council")
    company = company_with_owners(api, config["uuid"], "Nordlys AS", screened=UN_PERSON)
    flag(company, "negative_total_equity")
    full = statuses(api, config["uuid"])["elements"][0]

    [element] = statuses(api, config["uuid"], aggregate_only_flag="true")["elements"]

    assert set(element) == SPEC_KEYS
    assert element["entity_monitoring_composites"] == element["screening_case_composites"] == []
    assert element["company_flag_history_composites"] == []
    assert element["related_company_screening_state_aggregate"] == full["related_company_screening_state_aggregate"]
