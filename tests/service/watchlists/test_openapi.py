"""The watchlist endpoints in the analysis API's OpenAPI: extensions are marked as such."""

EXTENSIONS = {
    ("get", "/analysis/v1/app-customer/{app_customer_uuid}/watchlist"),
    ("post", "/analysis/v1/app-customer/{app_customer_uuid}/watchlist"),
    ("get", "/analysis/v1/watchlist/{watchlist_uuid}"),
    ("patch", "/analysis/v1/watchlist/{watchlist_uuid}"),
    ("delete", "/analysis/v1/watchlist/{watchlist_uuid}"),
    ("delete", "/analysis/v1/watchlist/{watchlist_uuid}/company/{company_identifier}"),
    ("put", "/analysis/v1/watchlist/{watchlist_uuid}/company"),
}
SPEC = {("get", "/analysis/v1/watchlist/{watchlist_uuid}/company"), ("post", "/analysis/v1/watchlist/{watchlist_uuid}/company"),
        ("delete", "/analysis/v1/watchlist/{watchlist_uuid}/company")}


def test_it_marks_the_extension_endpoints_and_documents_the_add_and_replace_bodies(api):
    document = api.get("/analysis/openapi.json").json()
    paths = document["paths"]
    operations = {(method, path): op for path, ops in paths.items() if "watchlist" in path and "screening-config" not in path for method, op in ops.items()}

    assert set(operations) == EXTENSIONS | SPEC
    for key in EXTENSIONS:
        assert operations[key]["x-vakt-extension"] is True and operations[key]["summary"].startswith("Extension:")
    for key in SPEC:
        assert "x-vakt-extension" not in operations[key]
    for method in ("post", "put"):  # the add's body, and the replace's
        body = operations[(method, "/analysis/v1/watchlist/{watchlist_uuid}/company")]["requestBody"]
        schema = body["content"]["application/json"]["schema"]
        assert schema["type"] == "array" and schema["maxItems"] == 10_000
        assert set(schema["items"]["properties"]) == {"org_nr", "org_nr_schema"}
    replace = operations[("put", "/analysis/v1/watchlist/{watchlist_uuid}/company")]
    answer = replace["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(document["components"]["schemas"][answer]["properties"]) == {
        "added_count", "removed_count", "kept_count", "company_count"
    }
