"""Two updates of one screening config at once, each from the copy its request read: the second
changes only what it was sent, so the first one's change stays, as the audit log says."""

from __future__ import annotations

from service.audit.models import AuditEvent
from service.screening import config_services
from service.screening.models import ScreeningConfig
from tests.service.screening.helpers import config_make


def test_an_update_does_not_undo_another_made_since_its_request_read_the_config(api):
    config_uuid = config_make(api)["uuid"]
    first_request = ScreeningConfig.objects.select_related("suggestion_setting").get(uuid=config_uuid)
    second_request = ScreeningConfig.objects.select_related("suggestion_setting").get(uuid=config_uuid)

    config_services.config_update(config=first_request, changes={"auto_approve_monitoring_flag": True})
    answered = config_services.config_update(config=second_request, changes={"subscribe_to_email_notifications_flag": True})

    stored = ScreeningConfig.objects.get(uuid=config_uuid)
    assert (stored.auto_approve_monitoring_flag, stored.subscribe_to_email_notifications_flag) == (True, True)
    assert (answered.auto_approve_monitoring_flag, answered.subscribe_to_email_notifications_flag) == (True, True)
    updates = AuditEvent.objects.filter(action_key="screening_config.update").order_by("created_timestamp")
    assert [event.after for event in updates] == [
        {"auto_approve_monitoring_flag": True},
        {"subscribe_to_email_notifications_flag": True},
    ]
