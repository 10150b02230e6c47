"""The datasets besides accounts-composite: their element shapes (spec §2) and the catalogue."""

from decimal import Decimal

from service.companies import models as m
from tests.service.companies.datasets.builders import (
    DATASETS,
    a_company,
    a_flag,
    a_measure,
    a_person,
    a_role,
    an_accounts,
    an_employment,
)
from tests.service.companies.datasets.responses import elements_of


def test_company_is_the_full_record(api):
    company = a_company(name="Fjordkraft AS", employees=42, is_bankrupt=True)

    [element] = elements_of(api.get(f"{DATASETS}/company"))

    assert element["uuid"] == str(company.uuid)
    assert element["employees"] == 42
    assert element["is_bankrupt"] is True
    assert element["app_url"] == f"/companies/{company.uuid}/"
    assert element["update_timestamp"].endswith("+00:00")


def test_company_composite_joins_its_catalogue_entities_and_credit_risk(api):
    organization_type = m.OrganizationType.objects.create(key="NO-AS", code="AS", name="Aksjeselskap")
    with_type = a_company(name="Med Type AS", organization_type=organization_type)
    m.CompanyCreditRisk.objects.create(
        company=with_type, risk_score=Decimal("12.5"), risk_class="low", public_risk_score=Decimal("12.5"),
        public_risk_class="low", model_version="v1",
    )
    a_company(name="Uten Type AS")

    url = f"{DATASETS}/company-composite"
    elements = elements_of(api.get(url, {"organization_type.organization_type_key": "NO-AS"}))
    [bare] = elements_of(api.get(url, {"organization_type.uuid": "ISNULL:true"}))

    [element] = elements
    assert list(element) == [
        "company", "organization_type", "nace_code", "geo_municipality", "geo_country", "company_credit_risk"
    ]
    assert element["organization_type"]["uuid"] == str(organization_type.uuid)
    assert element["company"]["organization_type_uuid"] == str(organization_type.uuid)
    assert element["company_credit_risk"]["risk_score"] == Decimal("12.5")
    assert element["company_credit_risk"]["company_uuid"] == str(with_type.uuid)
    assert bare["company"]["name"] == "Uten Type AS"
    assert bare["organization_type"] is None and bare["company_credit_risk"] is None


def test_company_employment_has_the_spec_fields(api):
    company = a_company()
    an_employment(company=company, count=12)

    [element] = elements_of(api.get(f"{DATASETS}/company-employment"))

    spec_fields = ["uuid", "company_uuid", "employee_count", "employee_date", "from_date", "to_date"]
    assert set(spec_fields + ["employee_count_from", "employee_count_to"]) <= set(element)
    assert element["company_uuid"] == str(company.uuid)
    assert element["employee_count"] == 12


def test_company_flag_composite_carries_uuid_and_app_url_beside_its_entities(api):
    company = a_company()
    flag = a_flag(company=company)

    [element] = elements_of(api.get(f"{DATASETS}/company-flag-composite"))

    assert list(element) == ["uuid", "app_url", "company_flag", "company_flag_type", "company"]
    assert element["uuid"] == str(flag.uuid) == element["company_flag"]["uuid"]
    assert element["app_url"].startswith(f"/companies/{company.uuid}/")
    assert element["company_flag"]["flag_context"] == {"total_equity": Decimal("-250.5"), "year": 2022}
    assert element["company_flag_type"]["company_flag_type_key"] == "negative_total_equity"
    assert element["company_flag_type"]["app_role_uuid"] is None  # spec field the register does not hold


def test_company_flag_is_the_flag_flat_under_the_upstream_name(api):
    company = a_company()
    flag = a_flag(company=company)

    [element] = elements_of(api.get(f"{DATASETS}/company-flag", {"company_uuid": str(company.uuid)}))

    assert element["uuid"] == str(flag.uuid) and element["company_uuid"] == str(company.uuid)
    assert set(element) >= {"company_flag_type_uuid", "flag_date", "flag_end_date", "update_timestamp", "app_url"}
    assert element["app_url"].startswith(f"/companies/{company.uuid}/")


def test_flags_whose_type_needs_a_role_are_left_out_without_it(api):
    company = a_company()
    m.CompanyFlagType.objects.filter(key="bankrupt").update(required_role_key="credit_check")
    a_flag(company=company, key="bankrupt")
    a_flag(company=company, key="negative_total_equity")
    url = f"{DATASETS}/company-flag-composite"

    without = elements_of(api.get(url))
    with_role = elements_of(api.get(url, roles=["credit_check"]))

    assert [element["company_flag_type"]["company_flag_type_key"] for element in without] == ["negative_total_equity"]
    assert len(with_role) == 2
    plain_without = elements_of(api.get(f"{DATASETS}/company-flag"))
    assert [element["uuid"] for element in plain_without] == [without[0]["uuid"]]
    assert len(elements_of(api.get(f"{DATASETS}/company-flag", roles=["credit_check"]))) == 2


def test_company_measure_yearly_plain_and_composite(api):
    company = a_company()
    measure = a_measure(company=company, key="employees", year=2022, value="12")

    [plain] = elements_of(api.get(f"{DATASETS}/company-measure-yearly", {"measure_year": "2022"}))
    [composite] = elements_of(
        api.get(
            f"{DATASETS}/company-measure-yearly-composite",
            {"company_measure_type.company_measure_type_key": "employees"},
        )
    )

    assert plain["uuid"] == str(measure.uuid)
    assert plain["measure_value"] == Decimal("12")
    assert list(composite) == ["uuid", "company_measure_yearly", "company_measure_type"]
    assert composite["company_measure_yearly"] == plain


def test_company_role_composite_has_the_holder_person_or_company(api):
    company = a_company(name="Eier AS")
    owner = a_company(name="Holding AS")
    a_role(company=company, type_key="ceo", person=a_person(full_name="Kari Nordmann"))
    a_role(company=company, type_key="shareholder", holder=owner, share_percentage=Decimal("51.0000"))

    elements = elements_of(api.get(f"{DATASETS}/company-role-composite", {"company.name": "Eier AS"}))

    by_type = {element["company_role_type"]["company_role_type_key"]: element for element in elements}
    assert by_type["ceo"]["person"]["full_name"] == "Kari Nordmann"
    assert by_type["ceo"]["holder_company"] is None
    assert by_type["shareholder"]["person"] is None
    assert by_type["shareholder"]["holder_company"]["name"] == "Holding AS"
    assert by_type["shareholder"]["company_role"]["share_percentage"] == Decimal("51.0000")
    assert len(elements_of(api.get(f"{DATASETS}/company-role"))) == 2


def test_company_credit_risk_is_keyed_by_the_company(api):
    company = a_company()
    m.CompanyCreditRisk.objects.create(
        company=company, risk_score=Decimal("80.0"), risk_class="very_high", public_risk_score=Decimal("80.0"),
        public_risk_class="very_high", model_version="v1",
    )

    [element] = elements_of(api.get(f"{DATASETS}/company-credit-risk", {"risk_class": "very_high"}))

    assert element["company_uuid"] == str(company.uuid)
    assert "uuid" not in element


def test_accounts_is_the_accounts_entity_alone(api):
    accounts = an_accounts(company=a_company())

    [composite] = elements_of(api.get(f"{DATASETS}/accounts-composite"))
    [plain] = elements_of(api.get(f"{DATASETS}/accounts"))

    assert plain == composite["accounts"]
    assert plain["uuid"] == str(accounts.uuid)


def test_the_catalogue_lists_every_dataset_with_its_fields(api):
    response = api.get(DATASETS)

    assert response.status_code == 200
    catalogue = {dataset["name"]: dataset for dataset in response.json()}
    # The names of the upstream documentation (DESIGN.md), each under that exact name.
    required = ["accounts", "accounts-composite", "company", "company-composite", "company-employment", "company-flag"]
    assert set(required + ["company-flag-composite", "company-measure-yearly"]) <= set(catalogue)
    composite = catalogue["accounts-composite"]
    assert [entity["name"] for entity in composite["entities"]] == [
        "accounts",
        "accounts_highlights",
        "accounts_income_statement",
        "accounts_balance_sheet",
        "company",
        "accounts_type",
    ]
    highlights = composite["entities"][1]["fields"]
    assert {"name": "return_on_assets", "type": "decimal", "filterable": True} in highlights
    assert catalogue["payment-remark"]["required_role"] == "credit_check"
