"""Jobs uploaded before a job named its uploader get the member from the audit log's upload record."""

from __future__ import annotations

import uuid

import pytest

from tests.migrating import latest_after, migrate_to  # noqa: F401 (fixture)

BEFORE = [("service_screening", "0011_resume_owed_screenings")]
AFTER = [("service_screening", "0012_batch_uploader")]
AUDIT = ("service_audit", "0001_audit_event")


@pytest.mark.django_db(transaction=True)
def test_it_fills_in_the_uploader_from_the_audit_log(latest_after):
    old = migrate_to(BEFORE, AUDIT)
    customer = old.get_model("service_auth", "AppCustomer").objects.create(name="Nordbank")
    anna = old.get_model("service_auth", "AppMembership").objects.create(app_customer=customer, email="anna@nordbank.no")
    setting = old.get_model("service_screening", "ScreeningConfigSystemSuggestionSetting").objects.get_or_create(
        key="test", defaults={"description": "a setting"})[0]
    config = old.get_model("service_screening", "ScreeningConfig").objects.create(app_customer=customer, suggestion_setting=setting)
    Batch = old.get_model("service_screening", "ScreeningBatch")
    named, unnamed = (Batch.objects.create(uuid=uuid.uuid4(), screening_config=config, file_name=f"{n}.csv", rows_total=1) for n in "ab")
    Audit = old.get_model("service_audit", "AuditEvent")
    for batch, member in ((named, anna), (unnamed, None)):
        Audit.objects.create(app_customer=customer, actor_app_membership=member, action_key="screening_batch.create",
                             object_type="screening_batch", object_uuid=batch.uuid, object_label=batch.file_name)

    new = migrate_to(AFTER, AUDIT)

    uploaders = dict(new.get_model("service_screening", "ScreeningBatch").objects.values_list("file_name", "app_membership_id"))
    assert uploaders == {"a.csv": anna.uuid, "b.csv": None}
