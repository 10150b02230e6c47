"""GET /analysis/v1/partner-report-type (extension)."""


def test_it_lists_the_three_report_types(api):
    response = api.get("/analysis/v1/partner-report-type")

    assert response.status_code == 200
    assert [t["partner_report_type_key"] for t in response.json()] == ["company_profile", "credit_report", "ownership_report"]
    assert all(t["uuid"] and t["description"] for t in response.json())


def test_it_needs_authentication(client, db):
    assert client.get("/analysis/v1/partner-report-type").status_code == 401
