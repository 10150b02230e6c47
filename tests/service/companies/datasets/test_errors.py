"""Unknown datasets, entities, fields and operators are answered with what is available; roles (spec §7)."""

from tests.service.companies.datasets.builders import DATASETS, a_company, a_person, a_role
from tests.service.companies.datasets.responses import elements_of, error_of

COMPOSITE = f"{DATASETS}/accounts-composite"
SPEC_ROLE_WORDING = "Do you have access to the role, and have you added it to the Nk-Role-Keys header?"


def test_an_unknown_dataset_is_a_400_listing_the_datasets(api):
    body = error_of(api.get(f"{DATASETS}/acounts-composite"), 400)

    assert body["code"] == "unknown_dataset"
    assert "'acounts-composite'" in body["detail"]
    assert "accounts-composite" in body["detail"].split("Available datasets:")[1]
    assert body["errors"][0]["loc"] == ["path", "name"]


def test_an_unknown_entity_is_a_400_listing_the_entities(api):
    body = error_of(api.get(COMPOSITE, {"accounts_highlight.return_on_assets": "GT:0.1"}), 400)

    assert body["code"] == "unknown_entity"
    assert "'accounts_highlight'" in body["detail"]
    listed = "accounts_highlights, accounts_income_statement, accounts_balance_sheet, company, accounts_type"
    assert listed in body["detail"]
    assert body["errors"][0]["loc"] == ["query", "accounts_highlight.return_on_assets"]


def test_an_unknown_field_is_a_400_listing_the_fields_of_the_entity(api):
    body = error_of(api.get(COMPOSITE, {"accounts_type.key": "annual_company_accounts"}), 400)

    assert body["code"] == "unknown_field"
    assert "'key'" in body["detail"]
    assert "uuid, accounts_type_key, app_url" in body["detail"]


def test_an_unknown_bare_parameter_is_a_400_naming_it_and_the_alternatives(api):
    body = error_of(api.get(COMPOSITE, {"lmit": "10"}), 400)

    assert body["code"] == "unknown_field"
    assert "'lmit'" in body["detail"]
    assert "limit, offset" in body["detail"]
    assert "accounting_year" in body["detail"]


def test_an_entity_without_a_field_is_a_400(api):
    body = error_of(api.get(COMPOSITE, {"company": "x"}), 400)

    assert "company.<field>" in body["detail"]


def test_an_unknown_operator_is_a_400_listing_the_operators(api):
    body = error_of(api.get(COMPOSITE, {"accounting_year": "GTX:2020"}), 400)

    assert body["code"] == "unknown_operator"
    assert "'GTX'" in body["detail"]
    assert "EQ, NEQ, GT, GTE, LT, LTE, LIKE, IN, ISNULL" in body["detail"]
    assert body["errors"][0]["loc"] == ["query", "accounting_year"]


def test_eq_matches_a_value_that_looks_like_an_operator(api):
    company = a_company(name="ACME: Nordic AS")

    assert error_of(api.get(f"{DATASETS}/company", {"name": "ACME: Nordic AS"}), 400)["code"] == "unknown_operator"
    [element] = elements_of(api.get(f"{DATASETS}/company", {"name": "EQ:ACME: Nordic AS"}))
    assert element["uuid"] == str(company.uuid)


def test_a_dataset_behind_a_role_is_a_403_without_it(api):
    body = error_of(api.get(f"{DATASETS}/payment-remark"), 403)

    assert body["detail"] == f"Missing role(s): credit_check. {SPEC_ROLE_WORDING}"


def test_a_dataset_behind_a_role_opens_with_it(api):
    assert elements_of(api.get(f"{DATASETS}/payment-remark", roles=["credit_check"])) == []


def test_national_ids_are_left_out_without_the_role_and_written_with_it(api):
    a_role(company=a_company(), person=a_person(national_identification_number="01017012345"))
    url = f"{DATASETS}/company-role-composite"

    [without] = elements_of(api.get(url))
    [with_role] = elements_of(api.get(url, roles=["person_national_identification"]))

    assert "national_identification_number" not in without["person"]
    assert with_role["person"]["national_identification_number"] == "01017012345"


def test_filtering_on_a_protected_field_without_its_role_is_a_403(api):
    url = f"{DATASETS}/company-role-composite"

    body = error_of(api.get(url, {"person.national_identification_number": "01017012345"}), 403)

    assert "person_national_identification" in body["detail"]
    assert error_of(api.get(url, {"keep_only_fields": "person.national_identification_number"}), 403)


def test_a_500_is_never_the_answer_to_odd_input(api):
    odd = [
        {"accounts.": "1"},
        {".uuid": "1"},
        {"accounts.uuid.extra": "1"},
        {"accounting_year": ":"},
        {"accounting_year": "IN:,,,"},
        {"keep_only_fields": "accounts."},
        {"company.name": "LIKE:\\"},
    ]
    for params in odd:
        response = api.get(COMPOSITE, params)
        assert response.status_code in (200, 400), (params, response.status_code)
        if response.status_code == 200:
            b"".join(response.streaming_content)
