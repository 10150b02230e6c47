"""The config's batch jobs: newest first, paginated as rule 6; another config's or organisation's job is 404."""

from __future__ import annotations

import uuid

from tests.service.screening.batch.conftest import batches_url, csv_bytes, upload
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import AML


def _job(caller, config_uuid, name: str) -> dict:
    response = upload(caller, config_uuid, csv_bytes([{"name": "Kari Nordmann"}]), name=name)
    assert response.status_code == 202, response.json()
    return response.json()


def test_it_lists_the_jobs_newest_first_a_page_at_a_time(api, lists):
    config = config_with(api)
    names = [f"file-{n}.csv" for n in range(3)]
    for name in names:
        _job(api, config["uuid"], name)

    [first] = api.get(batches_url(config["uuid"]), {"limit": 2}, roles=AML).json()
    [second] = api.get(batches_url(config["uuid"]), {"limit": 2, "offset": 2}, roles=AML).json()

    assert (first["count"], first["has_more"], second["has_more"]) == (3, True, False)
    assert [j["file_name"] for j in first["elements"] + second["elements"]] == names[::-1]
    bad = api.get(batches_url(config["uuid"]), {"limit": 0}, roles=AML)
    assert bad.status_code == 400 and bad.json()["errors"][0]["loc"] == ["query", "limit"]


def test_another_organisations_job_is_404_everywhere(api, other_api, lists):
    config = config_with(api)
    job = _job(api, config["uuid"], "ours.csv")
    theirs = config_with(other_api)

    for path in (batches_url(config["uuid"]), batches_url(config["uuid"], f"/{job['uuid']}"),
                 batches_url(config["uuid"], f"/{job['uuid']}/result")):
        response = other_api.get(path, roles=AML)
        assert response.status_code == 404, path
    # Their own config does not lend them our job either.
    for tail in (f"/{job['uuid']}", f"/{job['uuid']}/result"):
        assert other_api.get(batches_url(theirs["uuid"], tail), roles=AML).status_code == 404
    assert other_api.get(batches_url(theirs["uuid"]), roles=AML).json()[0]["count"] == 0
    assert upload(other_api, config["uuid"], csv_bytes([{"name": "Kari"}])).status_code == 404


def test_a_job_of_another_config_of_the_same_organisation_is_404(api, lists):
    first, second = config_with(api), config_with(api)
    job = _job(api, first["uuid"], "first.csv")
    assert api.get(batches_url(second["uuid"], f"/{job['uuid']}"), roles=AML).status_code == 404
    assert api.get(batches_url(first["uuid"], f"/{uuid.uuid4()}"), roles=AML).status_code == 404
