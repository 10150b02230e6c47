"""The screening endpoints in the analysis API's OpenAPI: extensions are marked, spec endpoints are not."""

SPEC = {
    ("get", "/analysis/v1/app-customer/{app_customer_uuid}/screening-config"),
    ("post", "/analysis/v1/app-customer/{app_customer_uuid}/screening-config"),
    ("get", "/analysis/v1/screening-config-system-suggestion-setting"),
    ("get", "/analysis/v1/screening-list-category"),
    ("post", "/analysis/v1/screening-config/{screening_config_uuid}/screening-config-screening-list-category"),
    ("post", "/analysis/v1/screening-config/{screening_config_uuid}/screening-config-watchlist"),
    ("get", "/analysis/v1/screening-config/{screening_config_uuid}/screening-config-watchlist"),
    (
        "delete",
        "/analysis/v1/screening-config/{screening_config_uuid}/screening-config-watchlist/{screening_config_watchlist_uuid}",
    ),
    ("post", "/analysis/v1/screening-config/{screening_config_uuid}/customer-person"),
    ("post", "/analysis/v1/customer-person/{customer_person_uuid}/customer-person-national-identification"),
    ("post", "/analysis/v1/customer-person/{customer_person_uuid}/customer-person-location"),
    ("get", "/analysis/v1/entity-monitoring-type"),
    ("post", "/analysis/v1/screening-config/{screening_config_uuid}/entity-monitoring-composite"),
    ("get", "/analysis/v1/screening-config/{screening_config_uuid}/entity-monitoring-composite"),
    ("post", "/analysis/v1/screening-config/{screening_config_uuid}/entity-monitoring-decision"),
    ("get", "/analysis/v1/screening-config/{screening_config_uuid}/screening-case-composite-collection"),
    ("post", "/analysis/v1/screening-config/{screening_config_uuid}/screening-case-review"),
    ("get", "/analysis/v1/screening-config/{screening_config_uuid}/screening-related-company-status-composite-collection"),
    ("get", "/analysis/v1/screening-config/{screening_config_uuid}/screening-case-report"),
}
SCREENING_WORDS = ("screening", "customer-person", "entity-monitoring", "gender", "person-location-type", "geo-country",
                   "entity-match-decision-type")


def test_it_documents_every_spec_endpoint_and_marks_only_extensions(api):
    paths = api.get("/analysis/openapi.json").json()["paths"]
    operations = {
        (method, path): op
        for path, ops in paths.items()
        if any(word in path for word in SCREENING_WORDS)
        for method, op in ops.items()
    }
    assert SPEC <= set(operations)
    for key, op in operations.items():
        extension = key not in SPEC
        assert op.get("x-vakt-extension", False) is extension, key
        assert op["summary"].startswith("Extension:") is extension, key
