"""A customer person import may take long by nature: the client allows it more than its usual timeout."""

from uuid import uuid4

from portal.service.screening import IMPORT_TIMEOUT_SECONDS
from tests.portal.service.fakes import FakeService, fake_client

ACU, CONFIG = str(uuid4()), str(uuid4())
ANSWER = {"dry_run": False, "approved_flag": False, "file_name": "kunder.csv", "rows_count": 0, "created_count": 0,
          "monitored_count": 0, "already_monitored_count": 0, "national_ids_added_count": 0, "rows": []}


def test_it_waits_longer_for_an_import_than_for_other_calls():
    service = FakeService()
    service.answer("POST", rf"/analysis/v1/screening-config/{CONFIG}/customer-person-import", ANSWER, status=201)
    service.answer("GET", rf"/analysis/v1/screening-config/{CONFIG}/customer-person", [])
    client = fake_client(service, app_customer_uuid=ACU)

    client.screening.import_customer_persons(CONFIG, file_name="kunder.csv", content=b"name\nKari Nordmann\n")
    client.screening.customer_persons(CONFIG)

    imported, listed = service.sent
    assert imported.timeout == IMPORT_TIMEOUT_SECONDS > client.timeout
    assert listed.timeout == client.timeout
