"""GET /analysis/v1/partner-report-type (extension)."""


def test_it_lists_the_three_report_types(api):
    response = api.get("/analysis/v1/partner-report-type")

    assert response.status_code == 200
    assert [t["partner_report_type_key"] for t in response.json()] == ["company_profile", "credit_report", "ownership_report"]
    assert all(t["uuid"] and t["description"] for t in response.json())


def test_it_says_which_roles_change_what_each_type_shows(api):
    # The dashboard follows this rule: who may see a report ordered with credit_check depends on its type.
    types = {t["partner_report_type_key"]: t for t in api.get("/analysis/v1/partner-report-type").json()}

    assert {key: t["content_role_keys"] for key, t in types.items()} == {
        "company_profile": ["credit_check"], "credit_report": ["credit_check"], "ownership_report": [],
    }
    assert {key: t["required_role_key"] for key, t in types.items()} == {
        "company_profile": None, "credit_report": "credit_check", "ownership_report": None,
    }


def test_it_marks_the_content_roles_as_an_extension(api):
    schema = api.client.get("/analysis/openapi.json", **api.headers()).json()["components"]["schemas"]["PartnerReportTypeOut"]["properties"]

    assert "(extension)" in schema["content_role_keys"]["description"]


def test_it_needs_authentication(client, db):
    assert client.get("/analysis/v1/partner-report-type").status_code == 401
