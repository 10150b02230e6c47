"""A job names the member who uploaded it (`app_membership_uuid` of the upload): an officer asks who
screened a file, and another organisation's member is refused, nothing stored."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from service.screening.models import ScreeningBatch
from tests.service.screening.batch.conftest import batches_url, csv_bytes
from tests.service.screening.cases.steps import config_with, member_of
from tests.service.screening.helpers import AML

FILE = csv_bytes([{"name": "Kari Nordmann"}])


def _upload(caller, config_uuid, query: str = ""):
    file = SimpleUploadedFile("kunder.csv", FILE, content_type="text/csv")
    return caller.client.post(batches_url(config_uuid) + query, {"file": file}, **caller.headers(AML))


def test_it_keeps_who_uploaded_the_file(api, lists):
    config = config_with(api)
    anna = member_of(api, "anna@nordbank.no")

    created = _upload(api, config["uuid"], f"?app_membership_uuid={anna}")

    assert created.status_code == 202, created.json()
    assert created.json()["app_membership_uuid"] == anna
    [listed] = api.get(batches_url(config["uuid"]), roles=AML).json()[0]["elements"]
    assert listed["app_membership_uuid"] == anna
    one = api.get(batches_url(config["uuid"], f"/{created.json()['uuid']}"), roles=AML).json()
    assert one["app_membership_uuid"] == anna


def test_a_job_uploaded_without_a_member_names_nobody(api, lists):
    config = config_with(api)

    created = _upload(api, config["uuid"])

    assert created.status_code == 202 and created.json()["app_membership_uuid"] is None


def test_another_organisations_member_is_refused_and_nothing_stored(api, other_api, lists):
    config = config_with(api)
    stranger = member_of(other_api, "x@fjord.no")

    refused = _upload(api, config["uuid"], f"?app_membership_uuid={stranger}")

    assert refused.status_code == 400, refused.content
    assert refused.json()["errors"][0]["loc"] == ["query", "app_membership_uuid"]
    assert not ScreeningBatch.objects.exists()
