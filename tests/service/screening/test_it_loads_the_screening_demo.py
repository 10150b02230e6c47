"""load_screening_demo on the real UN, OFAC and PEP lists: the demo organisation sees pending
monitorings and open cases at once, through the HTTP API; a second run changes nothing;
without the lists it skips, saying why."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from service.auth.models import AppCustomer
from service.auth.services import api_user_create
from service.companies.models import Company
from service.screening.models import ScreeningListCategory
from tests.conftest import ALL_ROLES, ApiCaller, shared_file
from tests.service.screening.helpers import AML, config_url, configs_url, customer_person_url, monitorings

LIST_FILES = ("sanctions/un/UN_consolidated.xml", "sanctions/ofac/sdn.csv", "pep/us_congress_senzing.json")


def _load() -> str:
    out = io.StringIO()
    call_command("load_screening_demo", "--quiet", stdout=out)
    return out.getvalue().strip()


def _demo_bank() -> ApiCaller:
    from django.test import Client

    organisation = AppCustomer.objects.get(name="Demo Bank ASA")
    return ApiCaller(Client(), api_user_create(app_customer=organisation, name="test", role_keys=ALL_ROLES))


def _cases(caller, config_uuid) -> list[dict]:
    response = caller.get(config_url(config_uuid, "/screening-case-composite-collection"), {"limit": 1000}, roles=AML)
    assert response.status_code == 200, response.json()
    return response.json()[0]["elements"]


@pytest.fixture
def real_lists(db, tmp_path, settings):
    settings.DATA_DIR = tmp_path  # the engine's index cache
    settings.MEDIA_ROOT = str(tmp_path / "media")  # the batch file
    paths = [shared_file(f) for f in LIST_FILES]
    for path in paths:
        call_command("import_screening_list", str(path), "--quiet", stdout=io.StringIO())


def test_it_shows_pending_monitorings_and_open_cases_of_listed_persons_and_a_listed_company(real_lists):
    summary = _load()

    assert summary.startswith("load_screening_demo: ") and "open cases" in summary
    caller = _demo_bank()
    [config] = caller.get(configs_url(caller.app_customer_uuid), roles=AML).json()
    selected = caller.get(config_url(config["uuid"], "/screening-config-screening-list-category"), roles=AML).json()
    assert {s["screening_list_category_key"] for s in selected} == {"un_security_council", "us_ofac_sdn"}

    pending = monitorings(caller, config["uuid"], approval_status_key="pending")
    assert any(m["entity_monitoring"]["entity_monitoring_type_key"] == "beneficial_owners" for m in pending)
    assert monitorings(caller, config["uuid"], approval_status_key="active")

    cases = _cases(caller, config["uuid"])
    assert cases and all(c["screening_case"]["screening_case_status_key"] == "pending" for c in cases)
    categories = {c["screening_case_match"]["list_entry"]["screening_list_category_key"] for c in cases}
    assert categories == {"un_security_council", "us_ofac_sdn", "pep"}
    [company_case] = [c for c in cases if c["entity_inquiry"]["inquiry_entity_key"] == "company"]
    assert company_case["screening_case_match"]["list_entry"]["screening_list_category_key"] == "us_ofac_sdn"
    assert company_case["monitoring_company"]["name"] == company_case["screening_case_match"]["list_entry"]["primary_name"].upper()
    # Private customers: a PEP as a bank spells them, screened and hit; a Norwegian with a national
    # id and an address, screened without a hit; one more waiting for a decision.
    records = caller.get(config_url(config["uuid"], "/customer-person"), roles=AML).json()
    customers = {p["full_name"]: p for p in records}
    assert len(records) == 7 and {"Kari Nordmann", "Jon Egil Dahl", "KARI NORDMANN", "Jon Egil Dal", "Ingrid Solberg"} <= set(customers)
    [customer_case] = [c for c in cases if c["entity_inquiry"]["inquiry_entity_key"] == "customer_person"]
    assert customer_case["screening_case"]["pep_flag"] is True
    pep_customer = customer_case["monitoring_customer_person"]["full_name"]
    assert pep_customer in customers and pep_customer != customer_case["screening_case_match"]["list_entry"]["primary_name"]
    kari = caller.get(customer_person_url(customers["Kari Nordmann"]["uuid"]), roles=ALL_ROLES).json()
    assert [i["national_identification_number"] for i in kari["customer_person_national_identifications"]] == ["15108695088"]
    assert [loc["postal_place"] for loc in kari["customer_person_locations"]] == ["Oslo"]
    assert kari["customer_person"]["nationalities"] == ["NO"]
    assert sorted(c["customer_reference"] for c in records) == ["", "", "", "K-10040", "K-10041", "K-10042", "K-10043"]  # the bank's numbers
    # Kari entered a second time, without her number, screened too: her record offers to merge it.
    body = {"duplicate_customer_person_uuid": customers["KARI NORDMANN"]["uuid"], "dry_run": True}
    merge = caller.post(customer_person_url(customers["Kari Nordmann"]["uuid"], "/merge"), body, roles=ALL_ROLES).json()
    assert customers["KARI NORDMANN"]["monitoring_status_key"] == "active"
    assert ([loc["postal_place"] for loc in merge["locations_moved"]], merge["nationalities_added"]) == (["Bergen"], ["SE"])
    assert customer_case["monitoring_customer_person"]["customer_reference"] == "K-10040"
    # The PEP customer is screened with the list's nationality: the case's explanation weighs it.
    assert customer_case["monitoring_customer_person"]["nationalities"]
    assert customer_case["screening_case_match"]["explanation"]["nationality_adjustment"] > 0
    waiting = monitorings(caller, config["uuid"], approval_status_key="pending", no_related_company_flag="true")
    assert [m["entity_monitoring"]["monitoring_customer_person_uuid"] for m in waiting] == [customers["Jon Egil Dahl"]["uuid"]]
    # Jon entered again with his name misspelt, Ingrid with her birth date's day and month swapped: both listed.
    duplicates = caller.get(config_url(config["uuid"], "/customer-person-duplicate"), roles=ALL_ROLES).json()[0]["elements"]
    assert {(g["match_key"], tuple(p["full_name"] for p in g["customer_persons"])) for g in duplicates} == {
        ("same_name", ("Kari Nordmann", "KARI NORDMANN")), ("similar_name", ("Jon Egil Dahl", "Jon Egil Dal")),
        ("similar_birth_date", ("Ingrid Solberg", "Ingrid Solberg"))}

    persons = [c for c in cases if c["entity_inquiry"]["inquiry_entity_key"] == "person"]
    # As a register spells them: never the list's own spelling.
    assert persons and all(
        c["monitoring_person"]["full_name"] != c["screening_case_match"]["list_entry"]["primary_name"] for c in persons
    )

    # The demo's own companies have their analysis (a credit risk score), as imported ones do.
    demo_companies = Company.objects.filter(org_nr__startswith="89")
    assert demo_companies.exists() and not demo_companies.filter(credit_risk__isnull=True).exists()

    # A file of new customers screened on the Batch screening page: the listed ones found, the others not.
    [batch] = caller.get(config_url(config["uuid"], "/screening-batch"), roles=AML).json()[0]["elements"]
    assert batch["screening_batch_status_key"] == "complete"
    assert (batch["rows_total"], batch["rows_with_hits_count"]) == (6, 3)

    assert _load() == summary
    assert len(_cases(caller, config["uuid"])) == len(cases)
    assert len(caller.get(config_url(config["uuid"], "/customer-person"), roles=AML).json()) == 7
    assert caller.get(config_url(config["uuid"], "/screening-batch"), roles=AML).json()[0]["count"] == 1


def test_it_skips_without_the_lists(db):
    assert not ScreeningListCategory.objects.exclude(current_version=None).exists()

    assert _load() == (
        "load_screening_demo: skipped (lists not imported: un_security_council, us_ofac_sdn, pep; "
        "run import_screening_list first)"
    )
    assert not AppCustomer.objects.filter(name="Demo Bank ASA").exists()
