"""Both OpenAPI documents give every operation its error answers in the one error shape."""

from __future__ import annotations

import json

import pytest

from service.api import analysis_api, datasets_api

ERROR_STATUSES = ["400", "401", "403", "404", "413", "429"]
RATE_LIMIT = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]


@pytest.mark.parametrize("path", ["/analysis/openapi.json", "/datasets/openapi.json"])
def test_every_operation_documents_its_error_answers(api, client, path):
    document = client.get(path, HTTP_AUTHORIZATION=api.headers()["HTTP_AUTHORIZATION"]).json()

    error = document["components"]["schemas"]["Error"]
    assert error["required"] == ["detail", "code", "errors"]
    operations = [op for methods in document["paths"].values() for op in methods.values()]
    assert operations
    for operation in operations:
        for status in ERROR_STATUSES:
            answer = operation["responses"][status]
            assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
        assert "WWW-Authenticate" in operation["responses"]["401"]["headers"]
        assert "Retry-After" in operation["responses"]["429"]["headers"]
        successes = [answer for status, answer in operation["responses"].items() if status.startswith("2")]
        assert successes
        for answer in [*successes, operation["responses"]["429"]]:
            assert set(RATE_LIMIT) <= set(answer["headers"])


@pytest.mark.parametrize(("path", "ninja_api"), [("/analysis/openapi.json", analysis_api), ("/datasets/openapi.json", datasets_api)])
def test_the_fuzzed_documents_are_the_served_ones(api, client, path, ninja_api):
    # tests/service/test_fuzzing.py builds its schemas from get_openapi_schema() at collection time.
    served = client.get(path, HTTP_AUTHORIZATION=api.headers()["HTTP_AUTHORIZATION"]).json()

    assert served == json.loads(json.dumps(ninja_api.get_openapi_schema()))
